#pragma once
/// \file
/// The separating axes of the exact AABB–triangle test (`intersects` of aabb_triangle.hpp), each
/// decided in double with a proven error bound and in exact arithmetic where that bound does not
/// decide: the three box normals, the triangle normal and the nine edge axes. Also
/// `ApproximateNormal`, which the triangle–triangle tests share.
/// Not part of the API (installed because the public test is inline; no stability promised).

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

}  // namespace detail
}  // namespace trisect
