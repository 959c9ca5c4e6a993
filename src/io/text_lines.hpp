#pragma once
// Line and token scanning and number parsing shared by the text mesh readers.

#include "trisect/io/load_mesh.hpp"
#include "trisect/io/text_token.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace trisect::io_detail {

/// Splits a buffer into lines (LF or CRLF), counting them from 1.
class LineScanner {
 public:
  explicit LineScanner(std::string_view text) : text_(text) {}

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

  /// 1-based number of the line last returned.
  [[nodiscard]] std::size_t number() const { return number_; }
  /// Offset just past the line last returned.
  [[nodiscard]] std::size_t offset() const { return std::min(position_, text_.size()); }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t number_ = 0;
};

/// Splits one line into tokens separated by spaces and tabs.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : line_(line) {}

  /// The next token, or an empty view at the end.
  std::string_view next() {
    const std::size_t start = line_.find_first_not_of(" \t", position_);
    if (start == std::string_view::npos) {
      position_ = line_.size();
      return {};
    }
    std::size_t end = line_.find_first_of(" \t", start);
    if (end == std::string_view::npos) end = line_.size();
    position_ = end;
    return line_.substr(start, end - start);
  }

 private:
  std::string_view line_;
  std::size_t position_ = 0;
};

/// A whole-token signed integer, or nothing.
inline std::optional<std::int64_t> parse_integer(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || error != std::errc() || end != token.data() + token.size())
    return std::nullopt;
  return value;
}

/// "<name>:<line>: <problem>".
[[noreturn]] inline void fail_at_line(const std::string& name, std::size_t line,
                                      const std::string& problem) {
  throw MeshError(name + ":" + std::to_string(line) + ": " + problem);
}

/// "<name>: byte <offset>: <problem>".
[[noreturn]] inline void fail_at_byte(const std::string& name, std::size_t offset,
                                      const std::string& problem) {
  throw MeshError(name + ": byte " + std::to_string(offset) + ": " + problem);
}

/// "<name>: <problem>".
[[noreturn]] inline void fail(const std::string& name, const std::string& problem) {
  throw MeshError(name + ": " + problem);
}

/// Appends the fan (v0, vi, vi+1) of one polygon to the mesh, all from source face `face`.
template <class Indices>
void append_fan(Mesh& mesh, const Indices& polygon, std::uint32_t face) {
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    mesh.indices.insert(mesh.indices.end(), {polygon[0], polygon[i], polygon[i + 1]});
    mesh.source_faces.push_back(face);
  }
}

/// Formats a float for messages.
inline std::string describe(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(value));
  return buffer;
}

}  // namespace trisect::io_detail
