#pragma once
// Where a soup's triangles keep their corners, and reading them while checking them as
// `validate(soup)` does, for the passes that read every triangle anyway (the builders' first
// pass, the slicer's bucketing): they need no separate validation pass, and call
// `validate(soup)` only to throw, naming the problem, once they have found one.

#include "trisect/math/vec.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <array>
#include <cstddef>
#include <limits>

namespace trisect::detail {

/// The position slots of triangle `id`'s corners: its indices, or 3 id .. 3 id + 2 for a plain
/// soup.
[[nodiscard]] inline std::array<std::size_t, 3> vertex_slots(const TriangleSoup& soup,
                                                             std::size_t id) noexcept {
  if (soup.indices.empty()) return {3 * id, 3 * id + 1, 3 * id + 2};
  return {soup.indices[3 * id], soup.indices[3 * id + 1], soup.indices[3 * id + 2]};
}

/// True when the soup's array lengths pass `validate(soup)`: a multiple of 3, and fewer
/// triangles than the largest id.
[[nodiscard]] inline bool soup_shape_is_valid(const TriangleSoup& soup) noexcept {
  const std::size_t length = soup.indices.empty() ? soup.positions.size() : soup.indices.size();
  return length % 3 == 0 && soup.size() < std::numeric_limits<TriangleId>::max();
}

/// Triangle `id` of a soup whose shape is valid (`soup_shape_is_valid`) in `triangle`, and
/// true; false, with `triangle` unchanged, when `validate(soup)` rejects it (an index out of
/// range or a corner with a NaN or infinite coordinate).
[[nodiscard]] inline bool read_checked(const TriangleSoup& soup, std::size_t id,
                                       Triangle& triangle) noexcept {
  const std::array<std::size_t, 3> slots = vertex_slots(soup, id);
  const std::size_t count = soup.positions.size();
  if (slots[0] >= count || slots[1] >= count || slots[2] >= count) return false;
  const Triangle read{soup.positions[slots[0]], soup.positions[slots[1]], soup.positions[slots[2]]};
  if (!is_finite(read.a) || !is_finite(read.b) || !is_finite(read.c)) return false;
  triangle = read;
  return true;
}

}  // namespace trisect::detail
