#pragma once
/// \file
/// The exact ray–box test of the broadphase's ray queries, made cheap for the many boxes one
/// ray meets: per ray, the reciprocal of each direction component in double; per box, the slab
/// parameters (bound - origin) · reciprocal and Kay & Kajiya's slab test ("Ray Tracing Complex
/// Scenes", SIGGRAPH 1986) on them, widened by a proven error bound. Only a box whose latest
/// entry and earliest exit are too close for that bound to order them goes to the exact test.

#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"

#include <algorithm>
#include <limits>

namespace trisect::detail {

/// A relative amount (2^-50, eight units in the last place of a double) by which moving a slab
/// parameter's double approximation away from (towards) zero gives a number no smaller (no
/// larger) than the exact parameter. The approximation fl(fl(bound - origin) · fl(1 /
/// direction)) from floats carries three roundings, within (1 + u)^3 - 1 < 3.01·u of the
/// exact value (u = 2^-53; no overflow or underflow: |bound - origin| ≤ 2^129, |1 / direction|
/// lies in [2^-128, 2^149], so a non-zero product lies in [2^-277, 2^278]); the rounded product
/// that moves it still moves it by at least (8 - 1 - 0.01)·u of it. Monotonic, so moving a
/// maximum or minimum moves every term's.
inline constexpr double slab_slack = 0x1p-50;

/// A number no smaller than the exact value `approximation` stands for (see `slab_slack`).
inline double no_less_than(double approximation) noexcept {
  return approximation * (approximation > 0 ? 1 + slab_slack : 1 - slab_slack);
}

/// A number no larger than the exact value `approximation` stands for (see `slab_slack`).
inline double no_more_than(double approximation) noexcept {
  return approximation * (approximation > 0 ? 1 - slab_slack : 1 + slab_slack);
}

/// True when some real t in [t_min, t_max] puts origin + t·direction in the closed box, decided
/// exactly (defined with `DynamicAabbTree::ray_meets`, which it is).
bool exact_ray_meets_box(const Ray& ray, const Aabb& box);

/// One ray's test against many boxes (the ray must be valid and outlive the filter).
class RayBoxFilter {
 public:
  explicit RayBoxFilter(const Ray& ray) noexcept
      : ray_(&ray), t_min_(ray.t_min), t_max_(ray.t_max) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    misses_all_ = !(t_min_ <= t_max_) || t_min_ == infinity || t_max_ == -infinity;
    for (int axis = 0; axis < 3; ++axis) {
      origin_[axis] = ray.origin[axis];
      reciprocal_[axis] = ray.direction[axis] != 0 ? 1.0 / double(ray.direction[axis]) : 0.0;
    }
  }

  /// +1 when the ray meets the closed box `box`, -1 when it does not, 0 when the error bound
  /// cannot tell (then only the exact test can).
  [[nodiscard]] int decide(const Aabb& box) const noexcept {
    if (misses_all_) return -1;
    double enter = t_min_, leave = t_max_;
    for (int axis = 0; axis < 3; ++axis) {
      if (reciprocal_[axis] == 0) {  // moves not along this axis: inside its slab or never
        const float origin = ray_->origin[axis];
        if (origin < box.min[axis] || origin > box.max[axis]) return -1;
        continue;
      }
      const double low = (double(box.min[axis]) - origin_[axis]) * reciprocal_[axis];
      const double high = (double(box.max[axis]) - origin_[axis]) * reciprocal_[axis];
      enter = std::max(enter, std::min(low, high));
      leave = std::min(leave, std::max(low, high));
    }
    if (no_less_than(enter) <= no_more_than(leave)) return 1;
    if (no_more_than(enter) > no_less_than(leave)) return -1;
    return 0;
  }

  /// True when the ray meets the closed box `box`, exactly.
  [[nodiscard]] bool meets(const Aabb& box) const {
    const int decided = decide(box);
    return decided != 0 ? decided > 0 : exact_ray_meets_box(*ray_, box);
  }

 private:
  const Ray* ray_;
  double origin_[3], reciprocal_[3];
  double t_min_, t_max_;
  bool misses_all_ = false;
};

}  // namespace trisect::detail
