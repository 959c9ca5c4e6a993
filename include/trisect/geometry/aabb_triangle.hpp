#pragma once
/// \file
/// Exact AABB–triangle intersection by the 13-axis separating-axis test.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trisect {
namespace detail {

/// The box and a triangle edge p→q, seen along the axis L = (q - p) × unit_k, with i, j the
/// other two axes in cyclic order so that L_i = e_j and L_j = -e_i. The projection of a point v
/// is f(v) = e_j v_i - e_i v_j. Holds the edge's (i, j) coordinates, so that no vector is
/// indexed by a run-time axis.
struct EdgeAxis {
  float pi, pj, qi, qj;

  /// Exact sign of f(v) - f(corner) = e_j (v_i - corner_i) - e_i (v_j - corner_j).
  ///
  /// Fast path in double: each difference and product of the float inputs rounds once
  /// (relative error u = 2^-53, no underflow or overflow for float inputs), so the computed
  /// t1 - t2 is within 4.01 u (|t1| + |t2|) of the exact value (Higham, "Accuracy and Stability
  /// of Numerical Algorithms", 2002, §3.1); beyond twice that the sign is certain, otherwise the
  /// exact expansion decides.
  [[nodiscard]] int compare(float vi, float vj, float corner_i, float corner_j) const {
    const double t1 = (double(qj) - double(pj)) * (double(vi) - double(corner_i));
    const double t2 = (double(qi) - double(pi)) * (double(vj) - double(corner_j));
    const double value = t1 - t2;
    const double bound = 8.0 * exact::unit_roundoff * (std::fabs(t1) + std::fabs(t2));
    if (value > bound) return 1;
    if (value < -bound) return -1;
    return compare_exactly(vi, vj, corner_i, corner_j);
  }

  /// `compare` in exact arithmetic.
  [[nodiscard]] int compare_exactly(float vi, float vj, float corner_i, float corner_j) const {
    return exact::sign_of([&](auto lift) {
      return (lift(qj) - lift(pj)) * (lift(vi) - lift(corner_i)) -
             (lift(qi) - lift(pi)) * (lift(vj) - lift(corner_j));
    });
  }

  /// True when the box [lo_i, hi_i] x [lo_j, hi_j] projects strictly on one side of both p and
  /// r = (ri, rj) (the triangle's projection is {f(p) = f(q), f(r)}): this axis separates them.
  [[nodiscard]] bool separates(float ri, float rj, float lo_i, float hi_i, float lo_j,
                               float hi_j) const {
    const bool ei_nonnegative = qi >= pi;
    const bool ej_nonnegative = qj >= pj;
    // Corner maximising f: v_i as large as its coefficient e_j allows, v_j as small as e_i's.
    const float top_i = ej_nonnegative ? hi_i : lo_i, top_j = ei_nonnegative ? lo_j : hi_j;
    const float bottom_i = ej_nonnegative ? lo_i : hi_i, bottom_j = ei_nonnegative ? hi_j : lo_j;
    if (compare(pi, pj, top_i, top_j) > 0) return compare(ri, rj, top_i, top_j) > 0;
    return compare(pi, pj, bottom_i, bottom_j) < 0 && compare(ri, rj, bottom_i, bottom_j) < 0;
  }
};

/// True when the axis edge × unit_k separates, for `edge` 0, 1, 2 (a→b, b→c, c→a) and k the
/// axis other than I and J.
template <int I, int J>
[[nodiscard]] bool edge_axis_separates(const Triangle& t, const Aabb& box, int edge) {
  const float vi[3] = {t.a[I], t.b[I], t.c[I]}, vj[3] = {t.a[J], t.b[J], t.c[J]};
  const int next = (edge + 1) % 3, other = (edge + 2) % 3;
  const EdgeAxis along{vi[edge], vj[edge], vi[next], vj[next]};
  return along.separates(vi[other], vj[other], box.min[I], box.max[I], box.min[J], box.max[J]);
}

/// True when one of the three axes edge × unit_k (k the axis other than I and J) separates.
template <int I, int J>
[[nodiscard]] bool edge_axes_separate_around(const Triangle& t, const Aabb& box) {
  for (int edge = 0; edge < 3; ++edge)
    if (edge_axis_separates<I, J>(t, box, edge)) return true;
  return false;
}

/// The two cheapest exact answers, from comparisons of the inputs alone (a vertex per Float4,
/// lanes x, y, z): 1 when a vertex lies in the closed box, -1 when one of the three box face
/// normals separates the closed sets, 0 otherwise. Finite inputs.
[[nodiscard]] inline int vertices_against_box(const Triangle& t, const Aabb& box) noexcept {
  const Float4 lo = Float4::xyz(box.min.x, box.min.y, box.min.z);
  const Float4 hi = Float4::xyz(box.max.x, box.max.y, box.max.z);
  const Float4 a = Float4::xyz(t.a.x, t.a.y, t.a.z), b = Float4::xyz(t.b.x, t.b.y, t.b.z),
               c = Float4::xyz(t.c.x, t.c.y, t.c.z);
  const auto inside = [&](Float4 v) {
    return (less_equal_mask(lo, v) & less_equal_mask(v, hi) & 0x7u) == 0x7u;
  };
  const Float4 low = min_ignoring_nan(min_ignoring_nan(a, b), c);
  const Float4 high = max_ignoring_nan(max_ignoring_nan(a, b), c);
  const bool apart = ((less_mask(high, lo) | less_mask(hi, low)) & 0x7u) != 0;
  return (inside(a) | inside(b) | inside(c)) ? 1 : (apart ? -1 : 0);
}

/// True when one of the three box face normals separates the closed sets (exact comparisons).
[[nodiscard]] inline bool box_normals_separate(const Triangle& t, const Aabb& box) noexcept {
  return vertices_against_box(t, box) < 0;
}

/// True when the triangle's plane has the whole box strictly on one side (exact arithmetic).
[[nodiscard]] inline bool triangle_normal_separates_exactly(const Triangle& t, const Aabb& box) {
  const int sx = normal_component_sign(t, 0), sy = normal_component_sign(t, 1),
            sz = normal_component_sign(t, 2);
  if (sx == 0 && sy == 0 && sz == 0) return false;  // zero-area triangle: no normal axis
  const Vec3 highest(sx >= 0 ? box.max.x : box.min.x, sy >= 0 ? box.max.y : box.min.y,
                     sz >= 0 ? box.max.z : box.min.z);
  const Vec3 lowest(sx >= 0 ? box.min.x : box.max.x, sy >= 0 ? box.min.y : box.max.y,
                    sz >= 0 ? box.min.z : box.max.z);
  return normal_side(t, highest) < 0 || normal_side(t, lowest) > 0;
}

/// The triangle normal in double, with a bound on each component's error.
struct ApproximateNormal {
  double n[3];          ///< (b - a) × (c - a), each component within 4.01 u magnitude[k].
  double magnitude[3];  ///< |t1| + |t2| of each component's two products.

  [[nodiscard]] static ApproximateNormal of(const Triangle& t) noexcept {
    const double e1[3] = {double(t.b.x) - double(t.a.x), double(t.b.y) - double(t.a.y),
                          double(t.b.z) - double(t.a.z)};
    const double e2[3] = {double(t.c.x) - double(t.a.x), double(t.c.y) - double(t.a.y),
                          double(t.c.z) - double(t.a.z)};
    ApproximateNormal normal{};
    for (int k = 0; k < 3; ++k) {
      const int i = (k + 1) % 3, j = (k + 2) % 3;
      const double t1 = e1[i] * e2[j], t2 = e1[j] * e2[i];
      normal.n[k] = t1 - t2;
      normal.magnitude[k] = std::fabs(t1) + std::fabs(t2);
    }
    return normal;
  }

  /// Sign of component k when the double value decides it, else 2.
  [[nodiscard]] int certain_sign(int k) const noexcept {
    const double bound = 8.0 * exact::unit_roundoff * magnitude[k];
    return n[k] > bound ? 1 : (n[k] < -bound ? -1 : 2);
  }

  /// Exact sign of N·(point - a) when the double value decides it, else the exact fallback.
  [[nodiscard]] int side(const Triangle& t, const Vec3& point) const {
    const double d[3] = {double(point.x) - double(t.a.x), double(point.y) - double(t.a.y),
                         double(point.z) - double(t.a.z)};
    const double value = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    // Each n[k] errs by 4.01 u magnitude[k], d[k] and the products by u, the two sums by u:
    // below 8.1 u sum magnitude[k] |d[k]|; twice that, for the rounding of the bound too.
    const double bound = 16.0 * exact::unit_roundoff *
                         (magnitude[0] * std::fabs(d[0]) + magnitude[1] * std::fabs(d[1]) +
                          magnitude[2] * std::fabs(d[2]));
    if (value > bound) return 1;
    if (value < -bound) return -1;
    return normal_side(t, point);
  }
};

/// True when the triangle's plane has the whole box strictly on one side; `normal` is the
/// triangle's (`ApproximateNormal::of`). The largest and smallest N·(x - a) over the box are
/// sums over the axes of the larger and smaller of N_k (lo_k - a_k) and N_k (hi_k - a_k); as
/// the larger (smaller) of two numbers moves by at most the larger of their errors, each sum
/// errs by less than `ApproximateNormal::side`'s bound taken with max(|lo_k - a_k|,
/// |hi_k - a_k|), whatever the signs of the normal's components. Decided in double when that
/// bound allows (the usual case, even for axis-aligned triangles), exactly otherwise.
[[nodiscard]] inline bool triangle_normal_separates(const Triangle& t,
                                                    const ApproximateNormal& normal,
                                                    const Aabb& box) {
  const double a[3] = {double(t.a.x), double(t.a.y), double(t.a.z)};
  double highest = 0, lowest = 0, error = 0;
  for (int k = 0; k < 3; ++k) {
    const double below = double(box.min[k]) - a[k], above = double(box.max[k]) - a[k];
    const double p = normal.n[k] * below, q = normal.n[k] * above;
    highest += std::max(p, q);
    lowest += std::min(p, q);
    error += normal.magnitude[k] * std::max(std::fabs(below), std::fabs(above));
  }
  const double bound = 16.0 * exact::unit_roundoff * error;
  if (highest < -bound || lowest > bound) return true;
  if (highest > bound && lowest < -bound) return false;
  return triangle_normal_separates_exactly(t, box);
}

/// True when the triangle's plane has the whole box strictly on one side.
[[nodiscard]] inline bool triangle_normal_separates(const Triangle& t, const Aabb& box) {
  return triangle_normal_separates(t, ApproximateNormal::of(t), box);
}

/// True when one of the nine axes edge × box axis separates the closed sets.
[[nodiscard]] inline bool edge_axes_separate(const Triangle& t, const Aabb& box) {
  return edge_axes_separate_around<1, 2>(t, box) || edge_axes_separate_around<2, 0>(t, box) ||
         edge_axes_separate_around<0, 1>(t, box);
}

/// `intersects(triangle, box)` without the float filter: the box normals, then the triangle
/// normal and the nine edge axes in double with their exact fallbacks. The exact home of the
/// test, and the oracle of the filter's tests.
[[nodiscard, gnu::noinline]] inline bool intersects_without_float_filter(const Triangle& t,
                                                                         const Aabb& box) {
  if (box_normals_separate(t, box)) return false;
  if (triangle_normal_separates(t, box)) return false;
  return !edge_axes_separate(t, box);
}

// The float filter. Most triangles are decided in float, before any double or exact work: each
// sign below is taken from a float value only when that value exceeds a bound on its error,
// and an axis whose value is within the bound is handed to the double and exact path above, so
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
/// inputs, is computed within 4.01 u m_k + 2.01 eta, m_k = |t1| + |t2| as computed (three
/// roundings and an underflow per product, one rounding for the difference). With d_k = x_k -
/// a_k for a box corner x (one rounding), each product n_k d_k errs by at most 6.03 u m_k D_k +
/// 2.02 eta D_k + eta, D_k = max(|min_k - a_k|, |max_k - a_k|); as in the double version, the
/// larger (smaller) of the two corner products moves by at most the larger of their errors.
/// The two roundings of the sum add 2.02 u sum m_k D_k. In all, the largest and the smallest
/// n·(x - a) over the box err by less than 8.06 u sum m_k D_k + 2.03 eta sum D_k + 3.01 eta;
/// `bound` = 16 u sum m_k D_k + 2^-126 (1 + sum D_k) exceeds that even after its own
/// roundings and underflows (2^-126 = 2^24 eta: the smallest normal float, where 8 eta would
/// do, since arithmetic on subnormal operands is slow on x86).
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
  const float bound = 16.0f * float_unit_roundoff * weighted + 0x1p-126f * reach;
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
/// larger of two moves the value by at most the larger error; the difference rounds once. So
/// f(v) - f(x) at the extreme corner errs by less than 4.01 u M + 2.02 eta, M the sum of the
/// larger magnitudes of the two pairs of products, computed as |e_j| reach_i + |e_i| reach_j
/// (rounding is monotone and odd, so the rounded product of the larger factor is the larger
/// rounded product); `bound` = 8 u M + 2^-126 exceeds that after its own roundings (2^-126 =
/// 2^24 eta, the smallest normal float, where 16 eta would do).
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
        magnitude * Float4::splat(8.0f * float_unit_roundoff) + Float4::splat(0x1p-126f)};
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

/// True when the closed triangle and the closed box share at least one point (touching counts:
/// a vertex on a box face, an edge along a box edge). Exact: the separating-axis test of
/// Akenine-Möller ("Fast 3D Triangle-Box Overlap Testing", 2001) over the 13 axes (3 box
/// normals, the triangle normal, the 9 cross products of triangle edges with box axes), each
/// axis decided with strict inequalities in exact arithmetic. Degenerate triangles (segments,
/// points) and degenerate boxes (slabs, points) are answered correctly: the 13 axes contain
/// every facet normal of their Minkowski difference, and a zero axis never separates.
/// The box must not be empty; inputs must be finite. A vertex inside the box or a separating
/// box normal answers at once (`detail::vertices_against_box`); most other triangles are decided
/// in float with proven error bounds (`detail::VertexLanes`, `detail::triangle_normal_in_float`,
/// `detail::edge_axes_in_float`); the rest, and vertices farther than 2^40 from the box's bounds,
/// in double and exact arithmetic
/// (`detail::intersects_without_float_filter`), with the same answers.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Aabb& box) {
  const int early = detail::vertices_against_box(triangle, box);
  if (early != 0) return early > 0;
  const detail::VertexLanes vertices = detail::VertexLanes::of(triangle, box);
  if (!vertices.within_float_range()) return detail::intersects_without_float_filter(triangle, box);
  return detail::no_axis_but_box_normals_separates(triangle, box, vertices);
}

/// Symmetric form of `intersects(triangle, box)`.
[[nodiscard]] inline bool intersects(const Aabb& box, const Triangle& triangle) {
  return intersects(triangle, box);
}

}  // namespace trisect
