#pragma once
// Cheap lower bounds of the squared distance between two triangles, to skip the exact
// distance for pairs that cannot beat the best so far. Internal to the nearest queries.
#include "trisect/math/triangle.hpp"

#include <algorithm>
#include <cmath>

namespace trisect::detail {

/// A lower bound of the squared distance between the closed triangles `s` and `t` from
/// separating planes (the separating axis theorem: the gap between two projections onto any
/// direction is at most the distance): `s`'s plane against `t`'s vertices, and the other way
/// round; 0 when neither separates. Each normal component is a difference of exact products
/// of float differences, and each projection a sum of three products, so the computed gap is
/// within 16·2^-53·M of the exact one, M = the sum over axes of |n_i|·(|x_i| + |y_i|) for the
/// points projected; the gap is lowered by 2^-40·M (and the square by a relative 2^-40) to
/// stay below it. A zero normal (zero area) gives no bound.
[[nodiscard]] inline double separation_lower_bound(const Triangle& s, const Triangle& t) noexcept {
  const auto one_way = [](const Triangle& plane, const Triangle& other) {
    const double ux = double(plane.b.x) - plane.a.x, uy = double(plane.b.y) - plane.a.y,
                 uz = double(plane.b.z) - plane.a.z;
    const double vx = double(plane.c.x) - plane.a.x, vy = double(plane.c.y) - plane.a.y,
                 vz = double(plane.c.z) - plane.a.z;
    const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const double length2 = nx * nx + ny * ny + nz * nz;
    if (!(length2 > 0)) return 0.0;
    const auto along = [&](const Vec3& p) { return nx * p.x + ny * p.y + nz * p.z; };
    const auto magnitude = [&](const Vec3& p) {
      return std::fabs(nx) * std::fabs(p.x) + std::fabs(ny) * std::fabs(p.y) +
             std::fabs(nz) * std::fabs(p.z);
    };
    const double base = along(plane.a);
    const double d0 = along(other.a) - base, d1 = along(other.b) - base, d2 = along(other.c) - base;
    const double margin =
        0x1p-40 * (magnitude(plane.a) +
                   std::max({magnitude(other.a), magnitude(other.b), magnitude(other.c)}));
    const double gap = std::max(std::min({d0, d1, d2}), -std::max({d0, d1, d2})) - margin;
    if (!(gap > 0)) return 0.0;
    return gap * gap / length2 * (1 - 0x1p-40);
  };
  return std::max(one_way(s, t), one_way(t, s));
}

}  // namespace trisect::detail
