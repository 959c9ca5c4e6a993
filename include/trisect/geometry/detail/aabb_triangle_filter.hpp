#pragma once
/// \file
/// The float filter of the AABB–triangle test: the triangle normal and the nine edge axes decided
/// in float with proven error bounds, before any double or exact work (aabb_triangle_axes.hpp).
/// Not part of the API (installed because the public test is inline; no stability promised).

#include "trisect/geometry/detail/aabb_triangle_axes.hpp"

namespace trisect {
namespace detail {

// The float filter. Most triangles are decided in float, before any double or exact work: each
// sign below is taken from a float value only when that value exceeds a bound on its error,
// and an axis whose value is within the bound is handed to the double and exact path
// (aabb_triangle_axes.hpp), so
// that every answer is the exact one.
//
// Error model (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, §2.1 and §3.1,
// with gradual underflow): an operation on floats returns (x op y)(1 + d) + h with |d| <= u =
// 2^-24 and |h| <= eta = 2^-150, half the smallest subnormal. h = 0 for sums and differences (a
// sum in the subnormal range is exact: Hauser, "Handling Floating-Point Exceptions in Numeric
// Programs", TOPLAS 1996) and for products by powers of two whose result is normal. Overflow is
// kept out by `VertexLanes::within_float_range`: every quantity below is built from differences
// of inputs, vertex minus box bound (at most 2^40 in magnitude, as checked) and vertex minus
// vertex (at most 2^41, up to rounding); the normal's components stay below 2^84, and every
// value and bound below 2^126. A compiler that fuses a product into a sum only removes
// roundings from these bounds.

/// The float filter's unit roundoff, 2^-24.
inline constexpr float float_unit_roundoff = 0x1p-24f;

/// The triangle's vertices against the box, one vertex per lane (a, b, c; the fourth lane is
/// ignored), axis by axis: what the float filter's edge axes start from.
struct VertexLanes {
  Float4 position[3];  ///< v_k.
  Float4 below[3];     ///< v_k - min_k.
  Float4 above[3];     ///< v_k - max_k.

  [[nodiscard]] static VertexLanes of(const Triangle& t, const Aabb& box) noexcept {
    VertexLanes v;
    v.position[0] = Float4::lanes(t.a.x, t.b.x, t.c.x, 0.0f);
    v.position[1] = Float4::lanes(t.a.y, t.b.y, t.c.y, 0.0f);
    v.position[2] = Float4::lanes(t.a.z, t.b.z, t.c.z, 0.0f);
    for (int k = 0; k < 3; ++k) {
      v.below[k] = v.position[k] - Float4::splat(box.min[k]);
      v.above[k] = v.position[k] - Float4::splat(box.max[k]);
    }
    return v;
  }

  /// True when every |v_k - min_k| and |v_k - max_k| is at most 2^40 (false for NaN and
  /// infinities): then nothing that the float filter computes overflows.
  [[nodiscard]] bool within_float_range() const noexcept {
    const Float4 limit = Float4::splat(0x1p40f);
    unsigned within = 0x7u;
    for (int k = 0; k < 3; ++k)
      within &= less_equal_mask(abs(below[k]), limit) & less_equal_mask(abs(above[k]), limit);
    return within == 0x7u;
  }
};

/// What the edge axes add to `VertexLanes`: per axis k, the edges' components and each
/// vertex's reach.
struct EdgeLanes {
  Float4 edge[3];         ///< Component k of the edges b - a, c - b, a - c.
  Float4 edge_length[3];  ///< |edge[k]|.
  Float4 reach[3];        ///< max(|v_k - min_k|, |v_k - max_k|), of the rounded differences.

  [[nodiscard]] static EdgeLanes of(const VertexLanes& v) noexcept {
    EdgeLanes e;
    for (int k = 0; k < 3; ++k) {
      e.edge[k] = shuffle<1, 2, 0, 3>(v.position[k]) - v.position[k];
      e.edge_length[k] = abs(e.edge[k]);
      // v - min >= v - max (the box is not empty): the larger magnitude is v - min or max - v.
      e.reach[k] = max_ignoring_nan(v.below[k], Float4::splat(0.0f) - v.above[k]);
    }
    return e;
  }
};

/// The float filter of the triangle normal axis (`triangle_normal_separates`): 1 when it
/// certainly separates, 0 when it certainly does not, 2 when undecided. Needs the triangle and
/// box's `VertexLanes::within_float_range`.
///
/// Bound. Each normal component n_k = t1 - t2, t1 and t2 products of two differences of
/// inputs, is computed within 4.01 u m_k + 2.02 eta, m_k = |t1| + |t2| as computed (three
/// roundings and an underflow per product, one rounding for the difference). With d_k = x_k -
/// a_k for a box corner x (one rounding), each product n_k d_k errs by at most 6.03 u m_k D_k +
/// 2.03 eta D_k + eta, D_k = max(|min_k - a_k|, |max_k - a_k|); as in the double version, the
/// larger (smaller) of the two corner products moves by at most the larger of their errors.
/// Of the sum's three additions the first (to 0) is exact and the second adds 1.01 u (m_0 D_0
/// + m_1 D_1); the third cannot change the sign of what it rounds, only scale it by at most
/// 1 + u, which only the comparison with the bound sees. So before that last rounding the
/// largest and the smallest n·(x - a) over the box lie within 7.04 u W + 2.03 eta D + 3.01 eta
/// of the exact ones, W = sum m_k D_k, D = sum D_k, and a sign is certain when the computed
/// value exceeds 1 + u times that. `bound` = 8 u W + 2^-126 (1 + D) does, after its own
/// roundings: W as computed is at least (1 - 4u) W - 3 eta, the scaling by 8u = 2^-21 is exact
/// but for an underflow (eta), 2^-126 (1 + D) is at least 2^-126 (1 + D)(1 - 3u) and the last
/// sum rounds once, and 8 (1 - 5u) > 7.04 (1 + u) while 2^-126 = 2^24 eta dwarfs the eta
/// terms (the smallest normal float, where 8 eta would do, since arithmetic on subnormal
/// operands is slow on x86). (16 u W, twice as much, was used before the last rounding's
/// sign was taken into account; random near-ties, constructed at a point of the plane, reach
/// a wrong sign of 2.8 u W at most.)
[[nodiscard]] inline int triangle_normal_in_float(const Triangle& t, const Aabb& box) noexcept {
  const float e1[3] = {t.b.x - t.a.x, t.b.y - t.a.y, t.b.z - t.a.z};
  const float e2[3] = {t.c.x - t.a.x, t.c.y - t.a.y, t.c.z - t.a.z};
  float highest = 0, lowest = 0, weighted = 0, reach = 1;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const float t1 = e1[i] * e2[j], t2 = e1[j] * e2[i];
    const float n = t1 - t2, magnitude = std::fabs(t1) + std::fabs(t2);
    const float below = box.min[k] - t.a[k], above = box.max[k] - t.a[k];
    const float p = n * below, q = n * above;
    highest += std::max(p, q);
    lowest += std::min(p, q);
    const float d = std::max(std::fabs(below), std::fabs(above));
    weighted += magnitude * d;
    reach += d;
  }
  const float bound = 8.0f * float_unit_roundoff * weighted + 0x1p-126f * reach;
  if (highest < -bound || lowest > bound) return 1;
  if (highest > bound && lowest < -bound) return 0;
  return 2;
}

/// The float filter of the three axes edge × unit_k (k the axis other than I and J), one edge
/// per lane (a→b, b→c, c→a): the lanes whose axis certainly separates in bits 0-2, the
/// undecided ones in bits 4-6. Needs `v.within_float_range()`; `e` is `EdgeLanes::of(v)`.
///
/// As in `EdgeAxis`, f(v) = e_j v_i - e_i v_j for the edge p→q, e = q - p, and the axis
/// separates when f(p) and f(r) (r the third vertex) both exceed the box's largest f or both
/// fall below its smallest. f(v) - f(x) = e_j (v_i - x_i) - e_i (v_j - x_j) for a box corner x
/// is smallest at the smaller of the two products e_j (v_i - x_i) minus the larger of the two
/// e_i (v_j - x_j), largest the other way round: no corner needs choosing by sign.
///
/// Bound. Each product errs by at most 3.01 u its computed magnitude + 1.01 eta (three
/// roundings: the two differences and the product, and an underflow); taking the smaller or
/// larger of two moves the value by at most the larger error. So the difference of the two
/// chosen products, f(v) - f(x) at the extreme corner, lies within 3.01 u M + 2.02 eta of the
/// exact value before it is rounded, M the sum of the larger magnitudes of the two pairs of
/// products, computed as |e_j| reach_i + |e_i| reach_j (rounding is monotone and odd, so the
/// rounded product of the larger factor is the larger rounded product). Rounding the
/// difference keeps its sign and scales it by at most 1 + u (it errs by u times its own
/// magnitude, which matters only for the comparison with the bound), so a sign is certain
/// when the computed difference exceeds (1 + u)(3.01 u M + 2.02 eta). `bound` = 4 u M +
/// 2^-126 does, after its own roundings: M as computed is at least (1 - u) times the sum of
/// the two larger magnitudes, the scaling by 4u = 2^-22 is exact but for an underflow (eta),
/// the sum rounds once, and 4 (1 - 3u) > 3.01 (1 + u) while 2^-126 = 2^24 eta, the smallest
/// normal float, covers the eta terms where 4 eta would do. (8 u M, twice as much, counted
/// the difference's rounding as an error of u M; random and hill-climbed near-ties reach a
/// wrong sign of 2.0 u M at most.)
template <int I, int J>
[[nodiscard]] unsigned edge_axes_in_float(const VertexLanes& v, const EdgeLanes& e) noexcept {
  const Float4 ei = e.edge[I], ej = e.edge[J];
  struct Projection {
    Float4 above_top, above_bottom, bound;  // f(v) - largest f(x), f(v) - smallest f(x)
  };
  const auto project = [&](Float4 below_i, Float4 above_i, Float4 reach_i, Float4 below_j,
                           Float4 above_j, Float4 reach_j) {
    const Float4 si_lo = ej * below_i, si_hi = ej * above_i;
    const Float4 sj_lo = ei * below_j, sj_hi = ei * above_j;
    const Float4 magnitude = e.edge_length[J] * reach_i + e.edge_length[I] * reach_j;
    return Projection{
        min_ignoring_nan(si_lo, si_hi) - max_ignoring_nan(sj_lo, sj_hi),
        max_ignoring_nan(si_lo, si_hi) - min_ignoring_nan(sj_lo, sj_hi),
        magnitude * Float4::splat(4.0f * float_unit_roundoff) + Float4::splat(0x1p-126f)};
  };
  // p: each edge's first vertex (a, b, c); r: its third (c, a, b).
  const Projection p =
      project(v.below[I], v.above[I], e.reach[I], v.below[J], v.above[J], e.reach[J]);
  const auto third = [](Float4 lanes) { return shuffle<2, 0, 1, 3>(lanes); };
  const Projection r = project(third(v.below[I]), third(v.above[I]), third(e.reach[I]),
                               third(v.below[J]), third(v.above[J]), third(e.reach[J]));
  const Float4 zero = Float4::splat(0.0f);
  const Float4 p_floor = zero - p.bound, r_floor = zero - r.bound;
  const unsigned beyond_top = less_mask(p.bound, p.above_top) & less_mask(r.bound, r.above_top);
  const unsigned beyond_bottom =
      less_mask(p.above_bottom, p_floor) & less_mask(r.above_bottom, r_floor);
  const unsigned not_beyond_top = less_mask(p.above_top, p_floor) | less_mask(r.above_top, r_floor);
  const unsigned not_beyond_bottom =
      less_mask(p.bound, p.above_bottom) | less_mask(r.bound, r.above_bottom);
  const unsigned separating = (beyond_top | beyond_bottom) & 0x7u;
  const unsigned undecided = ~(separating | (not_beyond_top & not_beyond_bottom)) & 0x7u;
  return separating | undecided << 4;
}

/// True when one of the edge axes of `edge_axes_in_float<I, J>`'s undecided lanes (bits 4-6 of
/// `decided`) separates, each decided by `edge_axis_separates`.
template <int I, int J>
[[nodiscard]] bool undecided_edge_axes_separate(const Triangle& t, const Aabb& box,
                                                unsigned decided) {
  for (unsigned lanes = decided >> 4 & 0x7u; lanes != 0; lanes &= lanes - 1)
    if (edge_axis_separates<I, J>(t, box, std::countr_zero(lanes))) return true;
  return false;
}

/// `intersects(t, box)` when no vertex lies inside the box and no box normal separates
/// (`vertices_against_box` is 0), for `vertices` = `VertexLanes::of(t, box)` within the float
/// range: the triangle normal and the edge axes, filtered in float. Out of line, so that the common
/// early answers stay small.
[[gnu::noinline]] inline bool no_axis_but_box_normals_separates(const Triangle& t, const Aabb& box,
                                                                const VertexLanes& vertices) {
  const int normal = triangle_normal_in_float(t, box);
  if (normal == 1) return false;
  const EdgeLanes edges = EdgeLanes::of(vertices);
  const unsigned yz = edge_axes_in_float<1, 2>(vertices, edges);
  const unsigned zx = edge_axes_in_float<2, 0>(vertices, edges);
  const unsigned xy = edge_axes_in_float<0, 1>(vertices, edges);
  if (((yz | zx | xy) & 0x7u) != 0) return false;
  if (normal == 2 && triangle_normal_separates(t, box)) return false;
  return !undecided_edge_axes_separate<1, 2>(t, box, yz) &&
         !undecided_edge_axes_separate<2, 0>(t, box, zx) &&
         !undecided_edge_axes_separate<0, 1>(t, box, xy);
}

}  // namespace detail
}  // namespace trisect
