#pragma once
/// \file
/// Exact AABB–plane intersection.

#include "trisect/geometry/plane_point.hpp"
#include "trisect/math/aabb.hpp"

namespace trisect {

/// The corner of `box` lowest along `normal` (the "n-vertex"): per axis, min where the
/// normal's component is >= 0 and max where it is negative (exact: only signs are used).
[[nodiscard]] inline Vec3 lowest_corner(const Aabb& box, const Vec3& normal) noexcept {
  return {normal.x >= 0 ? box.min.x : box.max.x, normal.y >= 0 ? box.min.y : box.max.y,
          normal.z >= 0 ? box.min.z : box.max.z};
}

/// The corner of `box` highest along `normal` (the "p-vertex"), the opposite of
/// `lowest_corner`.
[[nodiscard]] inline Vec3 highest_corner(const Aabb& box, const Vec3& normal) noexcept {
  return {normal.x >= 0 ? box.max.x : box.min.x, normal.y >= 0 ? box.max.y : box.min.y,
          normal.z >= 0 ? box.max.z : box.min.z};
}

/// True when the closed box touches the plane: some point of the box satisfies n·x = d exactly
/// (a box face or corner on the plane counts). The box must not be empty.
///
/// Decided from the two corners extreme along the normal (the "n- and p-vertex" of Haines &
/// Wallace, "Shaft Culling for Efficient Ray-Traced Radiosity", 1991): the box touches the plane
/// iff the lowest corner is not above it and the highest is not below it. The corner choice
/// uses only the exact signs of the normal's components, and each side test is exact.
[[nodiscard]] inline bool intersects(const Aabb& box, const Plane& plane) {
  return classify(plane, lowest_corner(box, plane.normal)) != Side::above &&
         classify(plane, highest_corner(box, plane.normal)) != Side::below;
}

/// `intersects(box, plane)` with each corner's side from `classify(plane, corner,
/// error_bound)`: the same exact answer, usually from two double evaluations. `error_bound`
/// must bound the error of `plane_value` at both corners (see `classify`).
[[nodiscard]] inline bool intersects(const Aabb& box, const Plane& plane, double error_bound) {
  return classify(plane, lowest_corner(box, plane.normal), error_bound) != Side::above &&
         classify(plane, highest_corner(box, plane.normal), error_bound) != Side::below;
}

/// Same question as `intersects(box, plane)`, in the centre/extents form of Akenine-Möller et
/// al. ("Real-Time Rendering", §22.10): touching iff |n·c - d| <= |n|·e with c the centre and e
/// the half-size. Scaled by 2 so that no rounding enters: with s = n·(min + max) - 2d and
/// r = |n|·(max - min), touching iff s - r <= 0 and s + r >= 0. Kept as a second, independent
/// formulation that tests compare against the corner form.
[[nodiscard]] inline bool intersects_center_extents(const Aabb& box, const Plane& plane) {
  const Vec3& n = plane.normal;
  const auto s_plus_sign_times_r = [&](float sign) {
    return exact::sign_of([&](auto lift) {
      const auto axis = [&](float normal, float low, float high) {
        const auto twice_center = lift(low) + lift(high);
        const auto twice_extent = lift(high) - lift(low);
        return lift(normal) * twice_center + lift(sign * std::fabs(normal)) * twice_extent;
      };
      return axis(n.x, box.min.x, box.max.x) + axis(n.y, box.min.y, box.max.y) +
             axis(n.z, box.min.z, box.max.z) - (lift(plane.d) + lift(plane.d));
    });
  };
  return s_plus_sign_times_r(-1.0f) <= 0 && s_plus_sign_times_r(1.0f) >= 0;
}

/// Symmetric form of `intersects(box, plane)`.
[[nodiscard]] inline bool intersects(const Plane& plane, const Aabb& box) {
  return intersects(box, plane);
}

}  // namespace trisect
