#pragma once
// The exact ray–box test of `DynamicAabbTree::query(Ray)`: does some real t in the closed
// interval [t_min, t_max] put origin + t·direction in the closed box, in exact arithmetic on
// the given floats?
//
// The line is inside the slab of an axis along which it moves for t between the slab's entry
// and exit parameters, each (bound - origin) / direction; on an axis along which it does not
// move, it is inside for every t or for none. The ray meets the box exactly when every entry
// (t_min among them) is no later than every exit (t_max among them): Kay & Kajiya's slab test
// ("Ray Tracing Complex Scenes", SIGGRAPH 1986), decided pair by pair. A double fast path
// settles most boxes; a pair of parameters it cannot order is compared exactly by
// `exact::sign_of` on the cross-multiplied difference (as `exactly_within` of
// geometry/detail/ray_parameter.hpp compares a triangle's t with the ray's bounds).

#include "trisect/broadphase/detail/ray_box_filter.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/ray.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

namespace trisect::detail {

// A parameter (point - origin) / direction, with its double approximation: for a slab's end,
// the bound, the ray's origin and direction on that axis; for t_min or t_max, {t, 0, 1}.
struct SlabEnd {
  float point, origin, direction;
  int axis;  // 0..2 for a slab, 3 for the ray's own bounds
  double approximation;
};

// A double computed as fl(fl(point - origin) / direction) from floats carries two roundings,
// fewer than the three `slab_slack` allows for (ray_box_filter.hpp).

// The exact sign of entry - exit: of (pe - oe)·de' - (px - ox)·de, times the directions' signs
// (pe, oe, de of the entry; px, ox, dx of the exit; both directions non-zero).
inline int exact_order(const SlabEnd& entry, const SlabEnd& exit) {
  const int sign = exact::sign_of([&](auto lift) {
    return (lift(entry.point) - lift(entry.origin)) * lift(exit.direction) -
           (lift(exit.point) - lift(exit.origin)) * lift(entry.direction);
  });
  return (entry.direction > 0) == (exit.direction > 0) ? sign : -sign;
}

// The entries and exits of the ray's finite bounds and of the slabs it moves along; false when
// a slab it does not move along excludes it (then `entries` and `exits` are incomplete).
struct SlabEnds {
  std::array<SlabEnd, 4> entries, exits;
  std::size_t entry_count = 0, exit_count = 0;

  bool add(const Ray& ray, const Aabb& box) noexcept {
    if (std::isfinite(ray.t_min)) entries[entry_count++] = {ray.t_min, 0, 1, 3, ray.t_min};
    if (std::isfinite(ray.t_max)) exits[exit_count++] = {ray.t_max, 0, 1, 3, ray.t_max};
    for (int axis = 0; axis < 3; ++axis) {
      const float origin = ray.origin[axis], direction = ray.direction[axis];
      const float low = box.min[axis], high = box.max[axis];
      if (direction == 0) {
        if (origin < low || origin > high) return false;
        continue;
      }
      const float near = direction > 0 ? low : high, far = direction > 0 ? high : low;
      entries[entry_count++] = {near, origin, direction, axis, quotient(near, origin, direction)};
      exits[exit_count++] = {far, origin, direction, axis, quotient(far, origin, direction)};
    }
    return true;
  }

  static double quotient(float point, float origin, float direction) noexcept {
    return (double(point) - double(origin)) / double(direction);
  }
};

// Exact: every entry is no later than every exit. Pairs on one axis need no test (a slab's
// entry never follows its exit; t_min <= t_max is checked first); pairs whose approximations
// settle the order are not compared exactly.
inline bool entries_before_exits(const SlabEnds& ends) {
  for (std::size_t i = 0; i < ends.entry_count; ++i)
    for (std::size_t j = 0; j < ends.exit_count; ++j) {
      const SlabEnd& entry = ends.entries[i];
      const SlabEnd& exit = ends.exits[j];
      if (entry.axis == exit.axis) continue;
      if (no_less_than(entry.approximation) <= no_more_than(exit.approximation)) continue;
      if (no_more_than(entry.approximation) > no_less_than(exit.approximation)) return false;
      if (exact_order(entry, exit) > 0) return false;
    }
  return true;
}

// The exact test. Fast path: the latest entry against the earliest exit, each widened by the
// error bound; only when their widened ranges overlap are the pairs compared one by one.
inline bool ray_meets_box(const Ray& ray, const Aabb& box) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const double t_min = ray.t_min, t_max = ray.t_max;
  if (!(t_min <= t_max) || t_min == infinity || t_max == -infinity) return false;  // no real t
  SlabEnds ends;
  if (!ends.add(ray, box)) return false;
  double enter = -infinity, leave = infinity;
  for (std::size_t i = 0; i < ends.entry_count; ++i)
    enter = std::max(enter, ends.entries[i].approximation);
  for (std::size_t i = 0; i < ends.exit_count; ++i)
    leave = std::min(leave, ends.exits[i].approximation);
  if (no_less_than(enter) <= no_more_than(leave)) return true;
  if (no_more_than(enter) > no_less_than(leave)) return false;
  return entries_before_exits(ends);
}

}  // namespace trisect::detail
