#pragma once
// The exact ray–box oracle of the broadphase tests, in GMP rationals and written independently
// of src/broadphase/ray_box.hpp: each slab's parameter interval computed as exact quotients and
// intersected with [t_min, t_max].
#include "support/exact_oracle.hpp"

#include <trisect/math/aabb.hpp>
#include <trisect/math/ray.hpp>

#include <cmath>
#include <optional>
#include <utility>

namespace trisect::testing {

/// Exact: some real t with t_min <= t <= t_max puts origin + t·direction in the closed box.
inline bool exact_ray_meets_box(const Ray& ray, const Aabb& box) {
  if (ray.t_min == INFINITY || ray.t_max == -INFINITY) return false;  // no real t
  std::optional<mpq_class> low, high;                                 // none: unbounded
  if (std::isfinite(ray.t_min)) low = oracle::rational(ray.t_min);
  if (std::isfinite(ray.t_max)) high = oracle::rational(ray.t_max);
  for (int axis = 0; axis < 3; ++axis) {
    const mpq_class origin = oracle::rational(ray.origin[axis]);
    const mpq_class direction = oracle::rational(ray.direction[axis]);
    const mpq_class min = oracle::rational(box.min[axis]), max = oracle::rational(box.max[axis]);
    if (direction == 0) {
      if (origin < min || origin > max) return false;
      continue;
    }
    mpq_class enter = (min - origin) / direction, leave = (max - origin) / direction;
    if (enter > leave) std::swap(enter, leave);
    if (!low || enter > *low) low = enter;
    if (!high || leave < *high) high = leave;
  }
  return !low || !high || *low <= *high;
}

}  // namespace trisect::testing
