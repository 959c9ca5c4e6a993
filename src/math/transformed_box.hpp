#pragma once
// Boxes mapped by a `Transform` with outward rounding, so that no mapped vertex falls outside
// (for the mesh-against-mesh walks: overlap, mesh distance). Math only: the check of a
// transform against a tree's vertices is bvh/checked_transform.hpp. Internal to the library;
// compiled with -ffp-contract=off by its users (every operation must round once).
#include "trisect/math/aabb.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/transform.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect::detail {

/// A box holding `transform.apply(v)` for every float point v of `box`. Per output row, the
/// exact extremes are sums of per-axis extremes; the computed sums, and each vertex's own
/// computed row, are within 3 roundings of 2^-53 · M of the exact values, M = sum of the
/// largest |terms| (products of floats are exact in double). Widening by 8·2^-53·M in double
/// and rounding outward to float (`float_at_most`, `float_at_least`) covers both.
[[nodiscard]] inline Aabb transformed_box(const Transform& transform, const Aabb& box) noexcept {
  Aabb result;
  for (int r = 0; r < 3; ++r) {
    const float* row = transform.rows.data() + 4 * r;
    double low = 0, high = 0, magnitude = std::fabs(double(row[3]));
    for (int k = 0; k < 3; ++k) {
      const double p = double(row[k]) * double(box.min[k]), q = double(row[k]) * double(box.max[k]);
      low += std::min(p, q);
      high += std::max(p, q);
      magnitude += std::max(std::fabs(p), std::fabs(q));
    }
    const double slack = 8 * exact::unit_roundoff * magnitude;
    result.min[r] = detail::float_at_most(low + double(row[3]) - slack);
    result.max[r] = detail::float_at_least(high + double(row[3]) + slack);
  }
  return result;
}

/// `box` cut down to the finite floats, for a box holding mapped vertices, which are finite
/// (`checked_transform`): it holds the same vertices. Needed because the outward rounding of
/// `transformed_box` reaches ±inf where a mapped extreme widened by its slack lies beyond
/// ±FLT_MAX (a mesh spanning the float range, mirrored), and the exact leaf tests (the triangle
/// normal against a leaf's box) take finite boxes: with an infinite face they computed 0·inf and
/// dropped pairs.
[[nodiscard]] inline Aabb within_float_range(const Aabb& box) noexcept {
  constexpr float largest = std::numeric_limits<float>::max();
  Aabb result;
  for (int axis = 0; axis < 3; ++axis) {
    result.min[axis] = std::max(box.min[axis], -largest);
    result.max[axis] = std::min(box.max[axis], largest);
  }
  return result;
}

}  // namespace trisect::detail
