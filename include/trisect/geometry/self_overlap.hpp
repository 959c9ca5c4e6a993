#pragma once
/// \file
/// The self-overlap rule: do two triangles of one mesh meet anywhere but at what they share?

#include "trisect/geometry/triangle_triangle.hpp"
#include "trisect/math/float4.hpp"

#include <bit>

namespace trisect {
namespace detail {

/// True when `s` and `t` have the same three vertex positions, in any order, counted with
/// multiplicity.
[[nodiscard]] inline bool same_vertex_multiset(const Triangle& s, const Triangle& t) noexcept {
  const Vec3 v[3] = {t.a, t.b, t.c};
  constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& order : orders)
    if (s.a == v[order[0]] && s.b == v[order[1]] && s.c == v[order[2]]) return true;
  return false;
}

/// The two vertices of `t` left when one vertex at position `v` (one of them) is taken away.
struct TwoVertices {
  Vec3 first, second;
};
[[nodiscard]] inline TwoVertices without(const Triangle& t, const Vec3& v) noexcept {
  if (t.a == v) return {t.b, t.c};
  if (t.b == v) return {t.a, t.c};
  return {t.a, t.b};
}

/// Triangle conv{v, a, b} and another closed convex set `other` that both contain v: does
/// `other` meet the triangle anywhere but at v? `far` is the part of the triangle where a ray
/// from v leaves it, taken within triangle \ {v}: the segment [a, b] when v is not on it,
/// otherwise the points a and b other than v. Any common point x != v lies on a ray from v
/// whose nearer exit, on one triangle's far part, is in both.
[[nodiscard]] inline bool far_part_meets(const Vec3& v, const TwoVertices& rest,
                                         const Triangle& other,
                                         const ApproximateNormal& other_normal) {
  const Vec3 &a = rest.first, &b = rest.second;
  if (!on_segment(v, a, b)) return segment_meets(a, b, other, other_normal);
  return (a != v && segment_meets(a, a, other, other_normal)) ||
         (b != v && segment_meets(b, b, other, other_normal));
}

/// One shared position v of s = conv{v, a1, a2} and t = conv{v, b1, b2}, with b1 and b2
/// strictly on opposite sides of the plane of s and a1 and a2 strictly on opposite sides of
/// the plane of t: do they meet anywhere but at v? Then the planes differ and meet in a line L
/// through v, s meets L in a segment [v, p] with p on (a1, a2), t in [v, q] with q on (b1,
/// b2); they meet off v exactly when p and q lie on one side of v along L. The plane H through
/// v, a1 and b1 meets L only at v (containing L and a1 it would be the plane of s, yet b1 is
/// off it), and p, q lie on H's side of a2 and of b2 (a1 and b1 are on H): two orientations
/// decide, as in the interval test of Guigue & Devillers ("Fast and Robust Triangle-Triangle
/// Overlap Test Using Orientation Predicates", 2003), here with the shared vertex as one end of
/// both intervals.
[[nodiscard]] inline bool straddling_meet_off_vertex(const Vec3& v, const TwoVertices& s_rest,
                                                     const TwoVertices& t_rest) {
  const Vec3 &a1 = s_rest.first, &b1 = t_rest.first;
  return orientation(v, a1, b1, s_rest.second) == orientation(v, a1, b1, t_rest.second);
}

/// One shared position v: do the triangles meet anywhere but at v? `s_rest` and `t_rest` are
/// their vertices other than v (one occurrence of v taken away); `s_normal` and `t_normal`
/// their normals in double.
[[nodiscard]] inline bool meet_off_shared_vertex(const Triangle& s, const Triangle& t,
                                                 const Vec3& v, const TwoVertices& s_rest,
                                                 const TwoVertices& t_rest,
                                                 const ApproximateNormal& s_normal,
                                                 const ApproximateNormal& t_normal) {
  // The usual case: one triangle's other vertices strictly on one side of the other's plane
  // (a point off a plane makes the triangle spanning it proper). Then t meets the plane of s,
  // and so s, only at v (or the same with s and t swapped).
  const int b1 = s_normal.side(s, t_rest.first), b2 = s_normal.side(s, t_rest.second);
  if (b1 != 0 && b1 == b2) return false;
  const int a1 = t_normal.side(t, s_rest.first), a2 = t_normal.side(t, s_rest.second);
  if (a1 != 0 && a1 == a2) return false;
  if (b1 * b2 < 0 && a1 * a2 < 0) return straddling_meet_off_vertex(v, s_rest, t_rest);
  return far_part_meets(v, s_rest, t, t_normal) || far_part_meets(v, t_rest, s, s_normal);
}

/// Two shared positions u != w, and the third vertices a of s and b of t: do the triangles meet
/// off the closed segment [u, w]?
[[nodiscard]] inline bool meet_off_shared_edge(const Vec3& u, const Vec3& w, const Vec3& a,
                                               const Vec3& b) {
  // Not coplanar: both are proper triangles in two planes that meet in the line uw, which each
  // meets only in [u, w] (the usual case, decided first).
  if (orientation(u, w, a, b) != 0) return false;
  // A triangle that is the segment [u, w] itself meets nothing off it.
  if (on_segment(a, u, w) || on_segment(b, u, w)) return false;
  const bool s_flat = is_flat(Triangle{u, w, a}), t_flat = is_flat(Triangle{u, w, b});
  // A proper triangle meets the line uw only in [u, w]; a flat one lies on that line.
  if (s_flat != t_flat) return false;
  if (s_flat) {  // both reach past [u, w] along its line: they meet there when past one end
    return (on_segment(w, u, a) && on_segment(w, u, b)) ||
           (on_segment(u, w, a) && on_segment(u, w, b));
  }
  // Two coplanar proper triangles on the edge uw: they overlap off it exactly when on the same
  // side of it (a fold onto itself); otherwise they meet only in the edge.
  return exact::sign_of([&](auto lift) {
           const auto m = triangle_normal(Triangle{u, w, a}, lift);
           const auto n = triangle_normal(Triangle{u, w, b}, lift);
           return m.x * n.x + m.y * n.y + m.z * n.z;
         }) > 0;
}

/// Bit 3 i + j set when vertex i of `s` and vertex j of `t` (a, b, c) have equal positions.
[[nodiscard]] inline unsigned equal_vertices(const Triangle& s, const Triangle& t) noexcept {
  // t's x, y and z in lanes 0..2 (a, b, c): each vertex of s against all three at once.
  const Float4 tx = Float4::xyz(t.a.x, t.b.x, t.c.x), ty = Float4::xyz(t.a.y, t.b.y, t.c.y),
               tz = Float4::xyz(t.a.z, t.b.z, t.c.z);
  unsigned mask = 0;
  int shift = 0;
  for (const Vec3& v : {s.a, s.b, s.c}) {
    const unsigned row = equal_mask(Float4::splat(v.x), tx) & equal_mask(Float4::splat(v.y), ty) &
                         equal_mask(Float4::splat(v.z), tz);
    mask |= (row & 7u) << shift;
    shift += 3;
  }
  return mask;
}

/// True when `equal` (of `equal_vertices`) matches every vertex of both triangles: only then
/// can their vertex multisets be the same.
[[nodiscard]] constexpr bool all_vertices_matched(unsigned equal) noexcept {
  return (equal & 0007u) != 0 && (equal & 0070u) != 0 && (equal & 0700u) != 0 &&
         (equal & 0111u) != 0 && (equal & 0222u) != 0 && (equal & 0444u) != 0;
}

/// One shared edge [u, w] of `s` (normal `s_normal`, third vertex a) and a triangle with third
/// vertex b: not coplanar when b is off the plane of s (then a proper triangle), the usual
/// case, decided by one plane side; otherwise `meet_off_shared_edge` decides.
[[nodiscard]] inline bool meet_off_edge(const Triangle& s, const ApproximateNormal& s_normal,
                                        const Vec3& u, const Vec3& w, const Vec3& a,
                                        const Vec3& b) {
  return s_normal.side(s, b) == 0 && meet_off_shared_edge(u, w, a, b);
}

/// `meet_beyond_shared` for any `equal` (of `equal_vertices`, not 0), repeated vertices
/// included: the distinct shared positions found by comparing them.
[[nodiscard]] inline bool meet_beyond_shared_positions(const Triangle& s, const Triangle& t,
                                                       unsigned equal,
                                                       const ApproximateNormal& s_normal,
                                                       const ApproximateNormal& t_normal) {
  if (all_vertices_matched(equal) && same_vertex_multiset(s, t)) return true;
  const Vec3 sv[3] = {s.a, s.b, s.c};
  Vec3 shared[3];
  int count = 0;
  for (int i = 0; i < 3; ++i) {
    bool seen = false;
    for (int k = 0; k < count; ++k) seen = seen || shared[k] == sv[i];
    if (!seen && (equal >> (3 * i) & 7u) != 0) shared[count++] = sv[i];
  }
  if (count == 1) {
    return meet_off_shared_vertex(s, t, shared[0], without(s, shared[0]), without(t, shared[0]),
                                  s_normal, t_normal);
  }
  // Two (three would make the multisets equal): the third vertex of each, after u and w.
  const Vec3 &u = shared[0], &w = shared[1];
  const TwoVertices s_rest = without(s, u), t_rest = without(t, u);
  const Vec3& a = s_rest.first == w ? s_rest.second : s_rest.first;
  const Vec3& b = t_rest.first == w ? t_rest.second : t_rest.first;
  return meet_off_edge(s, s_normal, u, w, a, b);
}

/// `intersects_beyond_shared_vertices(s, t)` given the triangles' normals in double
/// (`ApproximateNormal::of` each), for callers that reuse them across many pairs.
[[nodiscard]] inline bool meet_beyond_shared(const Triangle& s, const Triangle& t,
                                             const ApproximateNormal& s_normal,
                                             const ApproximateNormal& t_normal) {
  const unsigned equal = equal_vertices(s, t);
  if (equal == 0) return triangles_meet(s, t, s_normal, t_normal);
  // The usual pairs of a mesh: one or two vertices of each matched one to one (then none is
  // repeated), read off the bits.
  const Vec3 sv[3] = {s.a, s.b, s.c}, tv[3] = {t.a, t.b, t.c};
  const int first = std::countr_zero(equal), i = first / 3, j = first % 3;
  const unsigned rest = equal & (equal - 1);
  if (rest == 0) {
    return meet_off_shared_vertex(s, t, sv[i], {sv[(i + 1) % 3], sv[(i + 2) % 3]},
                                  {tv[(j + 1) % 3], tv[(j + 2) % 3]}, s_normal, t_normal);
  }
  const int second = std::countr_zero(rest), i2 = second / 3, j2 = second % 3;
  if ((rest & (rest - 1)) == 0 && i != i2 && j != j2)
    return meet_off_edge(s, s_normal, sv[i], sv[i2], sv[3 - i - i2], tv[3 - j - j2]);
  return meet_beyond_shared_positions(s, t, equal, s_normal, t_normal);
}

}  // namespace detail

/// The self-overlap rule of `trisect overlap --self`: true when the closed triangles `s` and
/// `t` of one mesh meet outside what their common vertex positions (exactly equal
/// coordinates) span. No common position: any contact counts; one, at v: contact anywhere but
/// v; two, u and w: contact off the closed segment [u, w] (a fold across the shared edge, a
/// coplanar overlap across it). Two triangles with the same three vertex positions (the same
/// multiset, in any order) always count. Exact, like `intersects`. Symmetric in s and t.
[[nodiscard]] inline bool intersects_beyond_shared_vertices(const Triangle& s, const Triangle& t) {
  return detail::meet_beyond_shared(s, t, detail::ApproximateNormal::of(s),
                                    detail::ApproximateNormal::of(t));
}

}  // namespace trisect
