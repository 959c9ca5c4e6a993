#pragma once
/// \file
/// Numbers read from text and text quoted in error messages, alike for the mesh readers and
/// the query file of the `trisect` command.

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace trisect {

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
