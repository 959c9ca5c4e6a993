// Option values read from text.
#include "option_values.hpp"

#include "errors.hpp"

#include <trisect/io/text_token.hpp>

#include <charconv>
#include <cmath>
#include <optional>

namespace trisect::cli {

float finite_number(const std::string& option, const std::string& text) {
  const std::optional<float> value = read_float(text);
  if (!value) throw UsageError(option + ": " + quoted_excerpt(text) + " is not a number");
  if (!std::isfinite(*value))
    throw UsageError(option + ": " + quoted_excerpt(text) + " is not finite");
  return *value;
}

std::size_t whole_number(const std::string& option, const std::string& text, std::size_t low,
                         std::size_t high) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || value < low || value > high)
    throw UsageError(option + ": " + quoted_excerpt(text) + " is not a whole number from " +
                     std::to_string(low) + " to " + std::to_string(high));
  return value;
}

}  // namespace trisect::cli
