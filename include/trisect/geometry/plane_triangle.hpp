#pragma once
/// \file
/// Exact triangle–plane intersection.

#include "trisect/geometry/plane_point.hpp"
#include "trisect/math/triangle.hpp"

#include <optional>

namespace trisect {

/// True when a triangle whose vertices lie on the sides `side_of(vertex)` gives (a `Side`)
/// touches the plane: its vertices are not all strictly on one side. Asks for as few sides as
/// it can, in the order a, b, c.
template <class SideOf>
[[nodiscard]] bool touches_by_sides(const Triangle& triangle, SideOf side_of) {
  const Side a = side_of(triangle.a);
  if (a == Side::on) return true;
  const Side b = side_of(triangle.b);
  if (b != a) return true;
  return side_of(triangle.c) != a;
}

namespace detail {
/// The exact sides of a triangle some of whose vertices lie within `error_bound` of the plane:
/// the rare case of the filtered `intersects`, kept out of line.
[[gnu::noinline]] inline bool touches_near_plane(const Triangle& triangle, const Plane& plane,
                                                 double error_bound) {
  return touches_by_sides(triangle,
                          [&](const Vec3& vertex) { return classify(plane, vertex, error_bound); });
}
}  // namespace detail

/// True when the closed triangle touches the plane: its vertices are not all strictly on one
/// side (a vertex or edge on the plane counts). Exact; degenerate triangles are the segment or
/// point they span.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Plane& plane) {
  return touches_by_sides(triangle, [&](const Vec3& vertex) { return classify(plane, vertex); });
}

/// Whether three computed values of dot(normal, v) - d at a triangle's vertices, each within
/// `bound` of the exact value, decide that the triangle touches the plane: false when all
/// three are beyond `bound` on one side, true when some are beyond it on each side, nothing
/// when a value within `bound` of 0 leaves it open. For any arithmetic type (float or double
/// fast paths).
template <class Real>
[[nodiscard]] std::optional<bool> touches_by_values(Real a, Real b, Real c, Real bound) noexcept {
  if ((a > bound && b > bound && c > bound) || (a < -bound && b < -bound && c < -bound))
    return false;
  if ((a > bound || b > bound || c > bound) && (a < -bound || b < -bound || c < -bound))
    return true;
  return std::nullopt;
}

/// `intersects(triangle, plane)` from `plane_value` at the vertices when they decide it
/// (`touches_by_values`), and from the vertices' exact sides otherwise: the same exact answer.
/// `error_bound` must bound the error of `plane_value` at the three vertices (see `classify`).
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Plane& plane,
                                     double error_bound) {
  const auto value = [&](const Vec3& v) { return plane_value(plane, v.x, v.y, v.z); };
  if (const std::optional<bool> decided =
          touches_by_values(value(triangle.a), value(triangle.b), value(triangle.c), error_bound))
    return *decided;
  return detail::touches_near_plane(triangle, plane, error_bound);
}

/// Symmetric form of `intersects(triangle, plane)`.
[[nodiscard]] inline bool intersects(const Plane& plane, const Triangle& triangle) {
  return intersects(triangle, plane);
}

}  // namespace trisect
