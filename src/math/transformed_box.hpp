#pragma once
// Mapping one mesh's boxes and vertices by a `Transform` for the mesh-against-mesh walks
// (overlap, mesh distance): validation of the transform against the mesh, and boxes mapped
// with outward rounding so that no mapped vertex falls outside. Internal to the library;
// compiled with -ffp-contract=off by its users (every operation must round once).
#include "math/transform_rows.hpp"
#include "trisect/bvh/bvh.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/transform.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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

/// The transform to apply, or null for the identity; throws for a non-finite number or a
/// vertex mapped to infinity.
inline const Transform* checked_transform(const Bvh& second, const Transform& transform) {
  validate(transform, "transform");
  if (transform.is_identity()) return nullptr;
  // Every mapped vertex lies in the mapped root box: when that is finite, so are they all.
  if (second.empty()) return &transform;
  const Aabb mapped_bounds = transformed_box(transform, second.bounds());
  if (is_finite(mapped_bounds.min) && is_finite(mapped_bounds.max)) return &transform;
  for (std::uint32_t slot = 0; slot < second.triangles.size(); ++slot) {
    const Triangle t = second.triangles.triangle(slot);
    for (const Vec3& v : {t.a, t.b, t.c})
      if (!is_finite(detail::transform_point(transform, v)))
        throw InvalidInput("transform: maps a vertex of triangle " +
                           std::to_string(second.ids[slot]) + " to infinity");
  }
  return &transform;
}

}  // namespace trisect::detail
