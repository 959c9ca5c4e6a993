#pragma once
/// \file
/// Conservative ray–box slab test for BVH traversal.

#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"

#include <cmath>

namespace trisect {

/// Per-ray constants of the slab test.
struct RaySlabs {
  Vec3 origin;   ///< Ray origin.
  Vec3 inverse;  ///< 1 / direction per axis (±inf on axes where the direction is 0).

  /// Constants for `ray`.
  [[nodiscard]] static RaySlabs of(const Ray& ray) noexcept {
    return {ray.origin, Vec3(1.0f) / ray.direction};
  }

  /// The parameter interval [near, far] where the ray's line is inside the closed box, clipped
  /// to [t_min, t_max]; empty (near > far) when it misses. Conservative: each slab's interval is
  /// widened by 2·gamma_3 of its magnitude so that rounding never culls a box the exact ray touches
  /// (Ize, "Robust BVH Ray Traversal", JCGT 2013). A 0·inf product (origin on a slab plane with the
  /// direction parallel to it) gives NaN, which fmin/fmax ignore: that slab does not constrain the
  /// ray.
  [[nodiscard]] bool overlaps(const Aabb& box, float t_min, float t_max, float& near) const {
    float far = t_max;
    near = t_min;
    for (int axis = 0; axis < 3; ++axis) {
      const float t0 = (box.min[axis] - origin[axis]) * inverse[axis];
      const float t1 = (box.max[axis] - origin[axis]) * inverse[axis];
      const float entry = std::fmin(t0, t1), exit = std::fmax(t0, t1);
      near = std::fmax(near, entry - std::fabs(entry) * relative_slack);
      far = std::fmin(far, exit + std::fabs(exit) * relative_slack);
    }
    return near <= far;
  }

  /// 2·gamma_3 for float (3.6e-7), rounded up.
  static constexpr float relative_slack = 4e-7f;
};

}  // namespace trisect
