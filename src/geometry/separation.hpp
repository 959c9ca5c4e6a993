#pragma once
// Cheap bounds of squared distances to triangles (from a point, between two triangles): lower
// bounds to skip the exact distance where it cannot beat the best so far or lies beyond a
// clearance, and an upper bound that settles a pair well within a clearance. Internal to the
// library (the nearest queries, clearance).
#include "approximate_closest.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/triangle.hpp"

#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect::detail {

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
/// on one side (a triangle is in its plane), else 0. In double, with every rounding accounted
/// for (u = 2^-53):
/// - the edge vectors u = b - a, v = c - a are float differences, each within u of itself;
/// - each normal component n_i = (u_j v_k - u_k v_j) is a difference of two products, each of
///   which may round (a difference of floats far apart in magnitude carries more than 24
///   bits, and its product with another more than 53), so n_i is within e_i = 2^-49 (|u_j v_k|
///   + |u_k v_j|) of the exact normal N_i (the edge vectors' own roundings included);
/// - the gap N·(p - a) is then within E = Σ e_i (|p_i| + |a_i|) of n·(p - a), and computing
///   n·p - n·a adds at most 2^-48 M, M = Σ |n_i| (|p_i| + |a_i|);
/// - the exact squared distance to the plane is (N·(p - a))² / |N|², |N| <= |n| + Σ e_i.
/// The gap is lowered by E + 2^-40 M and the denominator raised likewise, so the result stays
/// below the exact squared distance. A zero normal (zero area) gives no bound.
[[nodiscard]] inline double plane_gap_lower_bound(const Triangle& plane, const Vec3* others,
                                                  int count) noexcept {
  const double ux = double(plane.b.x) - double(plane.a.x),
               uy = double(plane.b.y) - double(plane.a.y),
               uz = double(plane.b.z) - double(plane.a.z);
  const double vx = double(plane.c.x) - double(plane.a.x),
               vy = double(plane.c.y) - double(plane.a.y),
               vz = double(plane.c.z) - double(plane.a.z);
  const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const double ex = 0x1p-49 * (std::fabs(uy * vz) + std::fabs(uz * vy)),
               ey = 0x1p-49 * (std::fabs(uz * vx) + std::fabs(ux * vz)),
               ez = 0x1p-49 * (std::fabs(ux * vy) + std::fabs(uy * vx));
  const double length2 = nx * nx + ny * ny + nz * nz;
  if (!(length2 > 0)) return 0.0;
  const auto along = [&](const Vec3& p) {
    return nx * double(p.x) + ny * double(p.y) + nz * double(p.z);
  };
  // Per point: the error of its computed gap, E + 2^-40 M (see above).
  const auto slack = [&](const Vec3& p) {
    const double sx = std::fabs(double(p.x)) + std::fabs(double(plane.a.x)),
                 sy = std::fabs(double(p.y)) + std::fabs(double(plane.a.y)),
                 sz = std::fabs(double(p.z)) + std::fabs(double(plane.a.z));
    return (ex * sx + ey * sy + ez * sz) +
           0x1p-40 * (std::fabs(nx) * sx + std::fabs(ny) * sy + std::fabs(nz) * sz);
  };
  const double base = along(plane.a);
  double low = along(others[0]) - base, high = low, largest = slack(others[0]);
  for (int i = 1; i < count; ++i) {
    const double d = along(others[i]) - base;
    low = std::min(low, d);
    high = std::max(high, d);
    largest = std::max(largest, slack(others[i]));
  }
  const double gap = std::max(low, -high) - largest;
  if (!(gap > 0)) return 0.0;
  const double normal_high = (std::sqrt(length2) + (ex + ey + ez)) * (1 + 0x1p-40);
  return gap * gap / (normal_high * normal_high) * (1 - 0x1p-40);
}

/// A lower bound of the squared distance between the closed triangles `s` and `t` from the gap
/// between their projections onto `d` (any double vector, taken as exact; by the separating
/// axis theorem no direction's gap exceeds the distance, and for two convex sets apart the
/// direction between their closest points gives the distance itself). 0 when the projections
/// overlap or anything overflowed. With u = 2^-53:
/// - each projection d·p (three products, two sums) is within gamma_3 M < 2^-51 M of itself,
///   M the largest Σ |d_i p_i| over the six vertices; underflow adds below 2^-1070;
/// - the gap between the extreme projections, a difference, is then within 2^-50 M + 2^-1070
///   plus its own rounding, u |gap|: the gap is lowered by 2^-50 M + 2^-52 |gap| + 2^-1000;
/// - |d|² is computed within gamma_5 < 2^-50 of itself and raised by 2^-49; the square and the
///   quotient round twice more, and the result is lowered by a relative 2^-48 and an absolute
///   2^-1000 (a subnormal quotient's rounding).
[[nodiscard]] inline double direction_gap_lower_bound(const Triangle& s, const Triangle& t,
                                                      const glm::dvec3& d) noexcept {
  double s_low = std::numeric_limits<double>::infinity(), s_high = -s_low;
  double t_low = s_low, t_high = -s_low, largest = 0;
  const auto project = [&](const Vec3& p, double& low, double& high) {
    const double x = d.x * double(p.x), y = d.y * double(p.y), z = d.z * double(p.z);
    const double along = (x + y) + z;
    low = std::min(low, along);
    high = std::max(high, along);
    largest = std::max(largest, (std::fabs(x) + std::fabs(y)) + std::fabs(z));
  };
  for (const Vec3& p : {s.a, s.b, s.c}) project(p, s_low, s_high);
  for (const Vec3& p : {t.a, t.b, t.c}) project(p, t_low, t_high);
  const double gap = std::max(t_low - s_high, s_low - t_high);
  const double low = gap - (0x1p-50 * largest + 0x1p-52 * std::fabs(gap) + 0x1p-1000);
  if (!(low > 0) || !std::isfinite(low)) return 0.0;
  const double length2 = (d.x * d.x + d.y * d.y + d.z * d.z) * (1 + 0x1p-49);
  const double bound = low * low / length2 * (1 - 0x1p-48) - 0x1p-1000;
  return std::isfinite(bound) && bound > 0 ? bound : 0.0;
}

/// True when the squared distance between the closed triangles `s` and `t` certainly exceeds
/// `limit`: by the gap along the direction between their nearest vertices, else along the one
/// between their approximately closest points (`nearest_vertices_direction`,
/// `approximate_nearest_direction`, `direction_gap_lower_bound`; the second is close to the
/// distance for triangles apart). Costlier than the plane bound (up to a few hundred operations),
/// far cheaper than the exact distance.
[[nodiscard]] inline bool directions_show_farther(const Triangle& s, const Triangle& t,
                                                  double limit) noexcept {
  return direction_gap_lower_bound(s, t, nearest_vertices_direction(s, t)) > limit ||
         direction_gap_lower_bound(s, t, approximate_nearest_direction(s, t)) > limit;
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
