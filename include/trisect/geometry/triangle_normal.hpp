#pragma once
/// \file
/// The triangle normal (b - a) × (c - a), its exact component signs and exact orientation.

#include "trisect/math/exact.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {
namespace detail {

/// Component `axis` (0, 1, 2 for x, y, z) of a vector.
[[nodiscard]] constexpr float component(const Vec3& v, int axis) noexcept {
  return axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
}

/// The triangle normal N = (b - a) × (c - a) as a generic exact-predicate expression.
template <class Lift>
[[nodiscard]] auto triangle_normal(const Triangle& t, const Lift& lift) {
  const auto e1x = lift(t.b.x) - lift(t.a.x), e1y = lift(t.b.y) - lift(t.a.y),
             e1z = lift(t.b.z) - lift(t.a.z);
  const auto e2x = lift(t.c.x) - lift(t.a.x), e2y = lift(t.c.y) - lift(t.a.y),
             e2z = lift(t.c.z) - lift(t.a.z);
  struct Normal {
    decltype(e1y * e2z - e1z * e2y) x, y, z;
  };
  return Normal{e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x};
}

/// Exact sign of component `axis` of the triangle normal (b - a) × (c - a).
[[nodiscard]] inline int normal_component_sign(const Triangle& t, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return exact::sign_of([&](auto lift) {
    return (lift(component(t.b, i)) - lift(component(t.a, i))) *
               (lift(component(t.c, j)) - lift(component(t.a, j))) -
           (lift(component(t.b, j)) - lift(component(t.a, j))) *
               (lift(component(t.c, i)) - lift(component(t.a, i)));
  });
}

/// Exact sign of ((b - a) × (c - a))·(point - a): Shewchuk's orient3d up to sign.
[[nodiscard]] inline int normal_side(const Triangle& t, const Vec3& point) {
  return exact::sign_of([&](auto lift) {
    const auto n = triangle_normal(t, lift);
    return n.x * (lift(point.x) - lift(t.a.x)) + n.y * (lift(point.y) - lift(t.a.y)) +
           n.z * (lift(point.z) - lift(t.a.z));
  });
}

}  // namespace detail

/// True when the triangle has zero area exactly (collinear or repeated vertices): then it is
/// the segment or point its vertices span.
[[nodiscard]] inline bool is_degenerate(const Triangle& triangle) {
  return detail::normal_component_sign(triangle, 0) == 0 &&
         detail::normal_component_sign(triangle, 1) == 0 &&
         detail::normal_component_sign(triangle, 2) == 0;
}

}  // namespace trisect
