// The --transform argument and the pair printing shared by `overlap`, `clearance` and `distance`.
#include "mesh_pair.hpp"

#include "progress.hpp"

#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>

#include <cmath>
#include <cstdio>
#include <optional>

namespace trisect::cli {

/// The 12 numbers after --transform, rounded to float; each must be finite.
Transform parse_transform(const std::vector<std::string>& tokens) {
  if (tokens.size() != 12)
    throw UsageError(
        "--transform takes 12 numbers (R00 R01 R02 T0 R10 R11 R12 T1 R20 R21 "
        "R22 T2), got " +
        std::to_string(tokens.size()));
  Transform transform;
  for (std::size_t k = 0; k < 12; ++k) {
    const std::optional<float> value = read_float(tokens[k]);
    const std::string which =
        "--transform number " + std::to_string(k + 1) + " " + quoted_excerpt(tokens[k]);
    if (!value) throw UsageError(which + " is not a number");
    if (!std::isfinite(*value)) throw UsageError(which + " is not finite");
    transform.rows[k] = *value;
  }
  return transform;
}

std::string format_pairs(const std::vector<TrianglePair>& pairs, bool count) {
  if (count) return std::to_string(pairs.size()) + '\n';
  std::string text;
  text.reserve(pairs.size() * 14);
  char buffer[32];
  for (const TrianglePair& pair : pairs) {
    const int length = std::snprintf(buffer, sizeof buffer, "%u %u\n", pair.a, pair.b);
    text.append(buffer, static_cast<std::size_t>(length));
  }
  return text;
}

}  // namespace trisect::cli
