#pragma once
/// \file
/// Text as the mesh readers and the query file of the `trisect` command read it, alike for all:
/// what counts as text, lines and tokens, numbers, and text quoted in error messages.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace trisect {

/// Whether `byte` is one that text never holds, so that a file holding it is binary data: the
/// control characters 0x00-0x08 and 0x0E-0x1F and DEL (0x7F). Tab, LF, VT, FF and CR are text,
/// and so is every byte from 0x80 up (UTF-8, or an 8-bit code page such as Latin-1 in
/// comments and names): no number or keyword holds one, so where one stands in place of data
/// the reader's own error names its line.
[[nodiscard]] constexpr bool is_binary_byte(unsigned char byte) {
  // Bitwise, not logical, operators: no branch, so that find_binary_byte vectorises.
  return ((byte < 0x09) | (static_cast<unsigned char>(byte - 0x0E) < 0x12) | (byte == 0x7F)) != 0;
}

/// The rule of `is_binary_byte` as error messages state it.
inline constexpr std::string_view text_rule = "text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F";

/// Offset of the first byte of `text` that `is_binary_byte`, or `std::string_view::npos`.
[[nodiscard]] inline std::size_t find_binary_byte(std::string_view text) {
  // Blocks of 256 bytes are tested without a branch per byte, which compilers vectorise (about
  // 13 GB/s with SSE2, half the time of 64-byte blocks, where reducing the vector to one flag
  // weighs); the byte itself is looked for only in the block that holds one.
  constexpr std::size_t block = 256;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t start = 0;
  for (; start + block <= text.size(); start += block) {
    unsigned char any = 0;
    for (std::size_t i = start; i < start + block; ++i)
      any |= static_cast<unsigned char>(is_binary_byte(bytes[i]));
    if (any != 0) break;
  }
  for (std::size_t i = start; i < text.size(); ++i)
    if (is_binary_byte(bytes[i])) return i;
  return std::string_view::npos;
}

/// The error for the first binary byte (`is_binary_byte`) of `file[begin, end)`, where `file`
/// is a whole file's content and `name` names it: "<name>:<line>: byte <offset> (0x<hex>) is
/// binary, not text; " followed by `text_rule`, the offset counted from 0 at the start of the
/// file and the line from 1 (lines end at LF). Nothing when that part of the file is text.
[[nodiscard]] inline std::optional<std::string> binary_data_problem(
    std::string_view file, std::string_view name, std::size_t begin = 0,
    std::size_t end = std::string_view::npos) {
  begin = std::min(begin, file.size());
  const std::size_t found = find_binary_byte(file.substr(begin, end - std::min(end, begin)));
  if (found == std::string_view::npos) return std::nullopt;
  const std::size_t offset = begin + found;
  const auto line = std::count(file.begin(), file.begin() + std::ptrdiff_t(offset), '\n') + 1;
  constexpr char hex[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(file[offset]);
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on ":" + std::string.
  std::string problem(name);
  problem += ':';
  problem += std::to_string(line);
  problem += ": byte ";
  problem += std::to_string(offset);
  problem += " (0x";
  problem.push_back(hex[byte >> 4]);
  problem.push_back(hex[byte & 0xF]);
  problem.append(") is binary, not text; ");
  problem.append(text_rule);
  return problem;
}

/// Splits a whole file's text into lines, each ending at LF (a CR before it dropped), counted
/// from 1. A UTF-8 byte order mark (EF BB BF) at the start of the file is skipped.
class LineScanner {
 public:
  /// Lines of `file` from offset `start` on (the mark is skipped only at offset 0).
  explicit LineScanner(std::string_view file, std::size_t start = 0)
      : text_(file), position_(start) {
    if (start == 0 && file.substr(0, 3) == "\xEF\xBB\xBF") position_ = 3;
  }

  /// The next line without its terminator, or nothing at the end.
  std::optional<std::string_view> next() {
    if (position_ >= text_.size()) return std::nullopt;
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(position_, end - position_);
    position_ = end + 1;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  /// Number of lines returned so far: 1-based number of the line last returned.
  [[nodiscard]] std::size_t number() const { return number_; }
  /// Offset in the file just past the line last returned.
  [[nodiscard]] std::size_t offset() const { return std::min(position_, text_.size()); }

 private:
  std::string_view text_;
  std::size_t position_;
  std::size_t number_ = 0;
};

/// Splits one line into tokens separated by spaces and tabs.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : line_(line) {}

  /// The next token, or an empty view at the end.
  std::string_view next() {
    // Plain loops: find_first_of(" \t") calls memchr on the two separators for every byte,
    // which took a third of the time of reading an OBJ file.
    const auto is_separator = [](char c) { return c == ' ' || c == '\t'; };
    while (position_ < line_.size() && is_separator(line_[position_])) ++position_;
    const std::size_t start = position_;
    while (position_ < line_.size() && !is_separator(line_[position_])) ++position_;
    return line_.substr(start, position_ - start);
  }

 private:
  std::string_view line_;
  std::size_t position_ = 0;
};

/// The float that strtof reads from the whole token (decimal text rounded straight to float,
/// hexadecimal floats, inf and nan, a leading sign, any length), or nothing when the token is
/// not entirely a number. Out-of-range values round as strtof rounds them (to ±inf or to a
/// subnormal or zero).
[[nodiscard]] inline std::optional<float> read_float(std::string_view token) {
  if (token.empty() || std::isspace(static_cast<unsigned char>(token.front()))) return std::nullopt;
  float value = 0;
  // from_chars rounds correctly like strtof and needs no copy; it takes no leading '+' and no
  // hexadecimal prefix, which strtof, on a terminated copy, decides.
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error == std::errc() && end == token.data() + token.size()) return value;
  const std::string text(token);
  char* text_end = nullptr;
  value = std::strtof(text.c_str(), &text_end);
  if (text_end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

/// Longest prefix of untrusted text that `quoted_excerpt` copies into a message.
inline constexpr std::size_t quoted_length = 40;

/// `text` in single quotes for an error message, cut after `quoted_length` characters (with
/// "..." and the full length) so that a huge token never makes a huge message.
[[nodiscard]] inline std::string quoted_excerpt(std::string_view text) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on chains of operator+.
  std::string quoted(1, '\'');
  quoted.append(text.substr(0, quoted_length));
  if (text.size() > quoted_length) {
    quoted.append("...' (");
    quoted.append(std::to_string(text.size()));
    quoted.append(" characters)");
  } else {
    quoted.push_back('\'');
  }
  return quoted;
}

}  // namespace trisect
