#include "number.hpp"

#include <trisect/io/text_token.hpp>

namespace trisect::cli {

std::optional<float> parse_float(std::string_view token) { return read_float(token); }

}  // namespace trisect::cli
