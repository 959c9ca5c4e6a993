#include "number.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace trisect::cli {

std::optional<float> parse_float(std::string_view token) {
  const std::string text(token);  // strtof needs a terminated string
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const float value = std::strtof(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

}  // namespace trisect::cli
