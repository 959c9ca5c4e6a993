#pragma once
/// \file
/// Conservative ray–box slab test for BVH traversal.

#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"

#include <cmath>
#include <limits>

namespace trisect {

/// Per-ray constants of the slab test (Kay & Kajiya, "Ray Tracing Complex Scenes", 1986).
struct RaySlabs {
  Vec3 origin;  ///< Ray origin.
  /// 1 / direction per axis; +inf where the direction is ±0; NaN where it is non-zero but
  /// below 2^-128 in size, whose reciprocal overflows (to either infinity).
  Vec3 inverse;
  bool negative[3];  ///< Axes along which the ray moves towards smaller coordinates.

  /// Constants for `ray` (direction non-zero).
  [[nodiscard]] static RaySlabs of(const Ray& ray) noexcept {
    RaySlabs slabs{ray.origin, Vec3(0.0f), {}};
    const float direction[3] = {ray.direction.x, ray.direction.y, ray.direction.z};
    for (int axis = 0; axis < 3; ++axis) {
      // +inf for a zero direction of either sign: -0 + 0 is +0.
      const float inverse = 1.0f / (direction[axis] + 0.0f);
      // An infinite reciprocal of a tiny non-zero direction would put the slab's entry at
      // infinity although the ray enters it at a finite t (issue 10): NaN instead, so that this
      // axis constrains nothing (conservative).
      const bool overflowed = std::isinf(inverse) && direction[axis] != 0;
      slabs.inverse[axis] = overflowed ? std::numeric_limits<float>::quiet_NaN() : inverse;
      slabs.negative[axis] = direction[axis] < 0;
    }
    return slabs;
  }

  /// True when the ray's line, for t in [t_min, t_max], may touch the closed box; `near`
  /// receives the entry parameter. Conservative: each slab's entry and exit are moved outwards
  /// by 2·gamma_3 of their magnitude, so rounding never culls a box the exact ray touches (Ize,
  /// "Robust BVH Ray Traversal", JCGT 2013). On an axis the direction does not move along,
  /// the products are ±inf, or NaN when the origin lies on the slab's plane; the comparisons
  /// below ignore NaN, which is exactly right there (that plane does not constrain the ray).
  /// Underflow and overflow: a difference of floats that underflows is exact; one that
  /// overflows makes an entry +inf only for a box whose near face is beyond the float range
  /// from the origin (where the triangle test overflows too) and an exit ±inf only on the side
  /// that culls nothing; a product that underflows errs by at most 2^-150, which matters only
  /// for hits at t below about 1e-38.
  [[nodiscard]] bool overlaps(const Aabb& box, float t_min, float t_max, float& near) const {
    float far = t_max;
    near = t_min;
    clip(box.min.x, box.max.x, origin.x, inverse.x, negative[0], near, far);
    clip(box.min.y, box.max.y, origin.y, inverse.y, negative[1], near, far);
    clip(box.min.z, box.max.z, origin.z, inverse.z, negative[2], near, far);
    // Widening is monotonic, so widening the final interval equals widening every slab's.
    near *= near > 0 ? 1.0f - relative_slack : 1.0f + relative_slack;
    far *= far > 0 ? 1.0f + relative_slack : 1.0f - relative_slack;
    return near <= far;
  }

  /// 2·gamma_3 for float (3.6e-7), rounded up.
  static constexpr float relative_slack = 4e-7f;

 private:
  // One slab: narrows [near, far] to where the line is between the slab's two planes. Written
  // per axis with plain floats (glm's vec3 operator[] is a switch).
  static void clip(float min, float max, float origin, float inverse, bool negative, float& near,
                   float& far) {
    const float entry = ((negative ? max : min) - origin) * inverse;
    const float exit = ((negative ? min : max) - origin) * inverse;
    near = entry > near ? entry : near;
    far = exit < far ? exit : far;
  }
};

}  // namespace trisect
