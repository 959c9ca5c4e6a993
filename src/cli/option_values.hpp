#pragma once
// Reading option values that CLI11 hands over as text, with the contract's messages.
#include <cstddef>
#include <string>

namespace trisect::cli {

/// `text` as a float, or a `UsageError` "OPTION: 'TEXT' is not a number" (or "is not finite").
[[nodiscard]] float finite_number(const std::string& option, const std::string& text);

/// `text` as a whole number from `low` to `high` written in decimal digits, or a `UsageError`
/// "OPTION: 'TEXT' is not a whole number from LOW to HIGH".
[[nodiscard]] std::size_t whole_number(const std::string& option, const std::string& text,
                                       std::size_t low, std::size_t high);

}  // namespace trisect::cli
