#pragma once
// Cheap bounds of squared distances to triangles (from a point, between two triangles): lower
// bounds to skip the exact distance where it cannot beat the best so far or lies beyond a
// clearance, and an upper bound that settles a pair well within a clearance. Internal to the
// library (the nearest queries, clearance).
#include "trisect/math/aabb.hpp"
#include "trisect/math/triangle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect::detail {

/// A lower bound of the squared distance between the closed triangles `s` and `t` from
/// separating planes (the separating axis theorem: the gap between two projections onto any
/// direction is at most the distance): `s`'s plane against `t`'s vertices, and the other way
/// round; 0 when neither separates. Each normal component is a difference of exact products
/// of float differences, and each projection a sum of three products, so the computed gap is
/// within 16·2^-53·M of the exact one, M = the sum over axes of |n_i|·(|x_i| + |y_i|) for the
/// points projected; the gap is lowered by 2^-40·M (and the square by a relative 2^-40) to
/// stay below it. A zero normal (zero area) gives no bound.
/// A lower bound of the squared distance between two closed boxes: the gaps in double are
/// within a relative 2^-53 of the exact ones (differences of floats), their squares and sum
/// within a few more roundings; lowered by 1e-12 to cover them.
[[nodiscard]] inline double box_gap_lower_bound(const Aabb& a, const Aabb& b) noexcept {
  double sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const double gap = std::max({double(a.min[axis]) - double(b.max[axis]),
                                 double(b.min[axis]) - double(a.max[axis]), 0.0});
    sum += gap * gap;
  }
  return sum * (1 - 1e-12);
}

/// A lower bound of the squared distance from the points `others` (count of them, at least
/// one) to the closed triangle `plane`: their smallest gap to its plane when all lie strictly
/// on one side (a triangle is in its plane), else 0. Each normal component is a difference of
/// exact products of float differences, and each projection a sum of three products, so the
/// computed gap is within 16·2^-53·M of the exact one, M = the sum over axes of
/// |n_i|·(|x_i| + |y_i|) for the points projected; the gap is lowered by 2^-40·M (and the
/// square by a relative 2^-40) to stay below it. A zero normal (zero area) gives no bound.
[[nodiscard]] inline double plane_gap_lower_bound(const Triangle& plane, const Vec3* others,
                                                  int count) noexcept {
  const double ux = double(plane.b.x) - double(plane.a.x),
               uy = double(plane.b.y) - double(plane.a.y),
               uz = double(plane.b.z) - double(plane.a.z);
  const double vx = double(plane.c.x) - double(plane.a.x),
               vy = double(plane.c.y) - double(plane.a.y),
               vz = double(plane.c.z) - double(plane.a.z);
  const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const double length2 = nx * nx + ny * ny + nz * nz;
  if (!(length2 > 0)) return 0.0;
  const auto along = [&](const Vec3& p) {
    return nx * double(p.x) + ny * double(p.y) + nz * double(p.z);
  };
  const auto magnitude = [&](const Vec3& p) {
    return std::fabs(nx) * std::fabs(double(p.x)) + std::fabs(ny) * std::fabs(double(p.y)) +
           std::fabs(nz) * std::fabs(double(p.z));
  };
  const double base = along(plane.a);
  double low = along(others[0]) - base, high = low, largest = magnitude(others[0]);
  for (int i = 1; i < count; ++i) {
    const double d = along(others[i]) - base;
    low = std::min(low, d);
    high = std::max(high, d);
    largest = std::max(largest, magnitude(others[i]));
  }
  const double gap = std::max(low, -high) - 0x1p-40 * (magnitude(plane.a) + largest);
  if (!(gap > 0)) return 0.0;
  return gap * gap / length2 * (1 - 0x1p-40);
}

/// A lower bound of the squared distance between the closed triangles `s` and `t` from
/// separating planes (the separating axis theorem: the gap between two projections onto any
/// direction is at most the distance): `s`'s plane against `t`'s vertices, and the other way
/// round (`plane_gap_lower_bound`); 0 when neither separates.
[[nodiscard]] inline double separation_lower_bound(const Triangle& s, const Triangle& t) noexcept {
  const Vec3 s_vertices[3] = {s.a, s.b, s.c}, t_vertices[3] = {t.a, t.b, t.c};
  return std::max(plane_gap_lower_bound(s, t_vertices, 3), plane_gap_lower_bound(t, s_vertices, 3));
}

/// An upper bound of the squared distance between the closed triangles `s` and `t`: the
/// smallest squared distance between a vertex of one and a vertex of the other (any two points
/// of the triangles are at least as far apart as the triangles). Each computed square sums three
/// squares of float differences in double, within 6 roundings of 2^-53 of itself (no overflow
/// or underflow from float inputs); raised by 2^-49 to stay above it.
[[nodiscard]] inline double vertex_gap_upper_bound(const Triangle& s, const Triangle& t) noexcept {
  const Vec3 ours[3] = {s.a, s.b, s.c}, theirs[3] = {t.a, t.b, t.c};
  double least = std::numeric_limits<double>::infinity();
  for (const Vec3& p : ours)
    for (const Vec3& q : theirs) {
      const double dx = double(p.x) - double(q.x), dy = double(p.y) - double(q.y),
                   dz = double(p.z) - double(q.z);
      least = std::min(least, dx * dx + dy * dy + dz * dz);
    }
  return least * (1 + 0x1p-49);
}

}  // namespace trisect::detail
