#pragma once
// Numbers in the command's inputs (query files, arguments), read as strtof reads them.

#include <optional>
#include <string_view>

namespace trisect::cli {

/// The float strtof reads from the whole token (rounded straight to float; overflow gives
/// ±inf, underflow the rounded tiny value), or nothing when the token is not entirely a number:
/// `read_float`, as the mesh readers and query files read numbers.
[[nodiscard]] std::optional<float> parse_float(std::string_view token);

}  // namespace trisect::cli
