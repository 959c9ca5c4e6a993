#pragma once
/// \file
/// The planes' sides of the self-overlap filter (`self_overlap_filter.hpp`), four lanes at a
/// time: a triangle's plane in float with the magnitudes of the products that make it, the
/// sides of points certified against it by a float error bound, and what the sides of one
/// triangle's three vertices show about a pair: apart (they meet only in what they share), or
/// crossing at one shared vertex. Not part of the API (no stability promised).
///
/// Why a certified lane is exact. Let N = (b - a) × (c - a) be the exact normal of s and
/// side(p) = N·(p - a). Call a vertex of t shared when its position equals a vertex of s (exact
/// float ==, so -0 equals +0); a shared vertex lies in the plane of s, side = 0. Suppose every
/// vertex of t is shared or has side > 0, and one has side > 0 (or the same with < 0). A point
/// x = sum l_k t_k of t (l_k >= 0, sum 1) has side(x) = sum l_k side(t_k), which is 0 only when
/// every unshared vertex has weight 0: the only points of t in the plane of s, and so the only
/// points t may share with s, lie in the hull of the shared positions, which is what the pair
/// shares. The rule reports contact outside that hull only (and two triangles with the same
/// three positions, which are excluded: one vertex is not shared). So the rule answers false,
/// whether s has shared positions or not (none shared: t lies strictly on one side, no contact
/// at all). A zero-area s has N = 0 and is never certified, as side is exactly 0 everywhere.
///
/// The bound. side(t_k) is computed in float as Shewchuk's orient3d ("Adaptive Precision
/// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997): the differences
/// e = b - a, f = c - a, d = t_k - a rounded, the minors N_i = e_j f_l - e_l f_j, then
/// (N_x d_x + N_y d_y) + N_z d_z. Each monomial e_j f_l d_i passes through at most 8 roundings
/// (three differences, its product, the minor, the product with d, two sums), so with
/// u = 2^-24 the error is at most gamma_8 P, P the sum of the monomials' absolute values
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, §3.1). The same chain
/// computes P' = (|d_x| m_x + |d_y| m_y) + |d_z| m_z with m_i = |e_j f_l| + |e_l f_j|, so
/// P' >= (1 - gamma_8) P and the error is below 16 u P' = 2^-20 P' (twice what is needed, which
/// also covers the rounding of the bound itself). Underflow adds at most a few times
/// 2^-150 (|d_x| + |d_y| + |d_z| + 1), far below the added 2^-100 (that sum + 1), a normal
/// float; differences whose result is subnormal are exact. Overflow makes P' or the value
/// infinite or NaN (|computed value| <= P' by the monotony of rounding), and then neither
/// comparison below holds: such lanes are left to the exact rule. A fused multiply-add only
/// removes roundings, so the bound holds with or without contraction.
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"

#include <cmath>

namespace trisect::detail {

/// The plane of a triangle in float for `LaneVerdicts`: its computed normal (b - a) × (c - a)
/// and, per component, |e_j f_l| + |e_l f_j| of the two products that make it.
struct FloatPlane {
  float normal[3];     ///< Component i: fl(fl(e_j f_l) - fl(e_l f_j)).
  float magnitude[3];  ///< Component i: fl(|fl(e_j f_l)| + |fl(e_l f_j)|).

  /// The plane of `t`, rounded as the file's analysis says.
  [[nodiscard]] static FloatPlane of(const Triangle& t) noexcept {
    const float e[3] = {t.b.x - t.a.x, t.b.y - t.a.y, t.b.z - t.a.z};
    const float f[3] = {t.c.x - t.a.x, t.c.y - t.a.y, t.c.z - t.a.z};
    FloatPlane plane{};
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      const float p = e[j] * f[l], q = e[l] * f[j];
      plane.normal[i] = p - q;
      plane.magnitude[i] = std::fabs(p) + std::fabs(q);
    }
    return plane;
  }
};

/// Four planes side by side: the normal's components and their magnitudes as `FloatPlane` has
/// them, and the vertex a the normal is taken at.
struct PlaneLanes {
  Float4 normal[3], magnitude[3], origin[3];
};

/// A point in each lane (or one point in every lane).
struct PointLanes {
  Float4 x, y, z;
};

/// Bits 0..3 where `point` lies certainly above `plane` (side > bound), bits 4..7 where
/// certainly below, by the file's bound.
[[nodiscard]] inline unsigned certain_sides(const PlaneLanes& plane,
                                            const PointLanes& point) noexcept {
  const Float4 dx = point.x - plane.origin[0], dy = point.y - plane.origin[1],
               dz = point.z - plane.origin[2];
  const Float4 side = (plane.normal[0] * dx + plane.normal[1] * dy) + plane.normal[2] * dz;
  const Float4 size =
      (plane.magnitude[0] * abs(dx) + plane.magnitude[1] * abs(dy)) + plane.magnitude[2] * abs(dz);
  const Float4 reach = (abs(dx) + abs(dy)) + abs(dz);
  const Float4 bound =
      size * Float4::splat(0x1p-20f) + (reach + Float4::splat(1.0f)) * Float4::splat(0x1p-100f);
  return less_mask(bound, side) | less_mask(side, Float4::splat(0.0f) - bound) << 4;
}

/// Bit i set when exactly one of the three masks has bit i.
[[nodiscard]] constexpr unsigned exactly_one(const unsigned (&masks)[3]) noexcept {
  return (masks[0] ^ masks[1] ^ masks[2]) & ~(masks[0] & masks[1]) & ~(masks[1] & masks[2]) &
         ~(masks[0] & masks[2]);
}

/// Three points (one triangle's vertices) against the lanes' planes (the other's): the lanes
/// where the points show the triangles apart, and those where exactly one point is shared and
/// the other two are certainly on opposite sides.
struct PlaneVerdict {
  unsigned apart;     ///< Each point shared or certainly on one side, the same, one off it.
  unsigned crossing;  ///< One point shared, the other two certainly on opposite sides.

  /// The verdict of `points`, whose lanes `shared[k]` are at a vertex of the other triangle.
  [[nodiscard]] static PlaneVerdict of(const PlaneLanes& plane, const PointLanes (&points)[3],
                                       const unsigned (&shared)[3]) noexcept {
    unsigned above_or_shared = 0xfu, below_or_shared = 0xfu, some_above = 0, some_below = 0;
    for (int k = 0; k < 3; ++k) {
      const unsigned sides = certain_sides(plane, points[k]);
      const unsigned above = sides & 0xfu, below = sides >> 4;
      above_or_shared &= above | shared[k];
      below_or_shared &= below | shared[k];
      some_above |= above;
      some_below |= below;
    }
    // With one point shared (never certain: it is on the plane), both sides seen means one of
    // the other two on each.
    return {(above_or_shared & some_above) | (below_or_shared & some_below),
            exactly_one(shared) & some_above & some_below};
  }
};

}  // namespace trisect::detail
