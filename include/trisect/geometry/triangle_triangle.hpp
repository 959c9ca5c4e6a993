#pragma once
/// \file
/// Exact intersection of two closed triangles, each possibly of zero area (a segment or a
/// point), decided with exact orientation predicates.

#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {
namespace detail {

/// Exact orient3d: the sign of ((q - p) × (r - p))·(s - p).
[[nodiscard]] inline int orientation(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& s) {
  return normal_side(Triangle{p, q, r}, s);
}

/// Exact orient2d of p, q, r seen along `axis` (that coordinate dropped): the sign of component
/// `axis` of (q - p) × (r - p).
[[nodiscard]] inline int orientation_along(const Vec3& p, const Vec3& q, const Vec3& r, int axis) {
  return normal_component_sign(Triangle{p, q, r}, axis);
}

/// An axis along which the plane of `t` projects one to one (a non-zero normal component), or
/// -1 when `t` has zero area.
[[nodiscard]] inline int projection_axis(const Triangle& t) {
  for (int axis = 0; axis < 3; ++axis)
    if (normal_component_sign(t, axis) != 0) return axis;
  return -1;
}

/// True when `x` lies in the closed box spanned by `p` and `q` (exact float comparisons).
[[nodiscard]] inline bool in_box_of(const Vec3& x, const Vec3& p, const Vec3& q) noexcept {
  for (int axis = 0; axis < 3; ++axis) {
    const float lo = p[axis] < q[axis] ? p[axis] : q[axis];
    const float hi = p[axis] < q[axis] ? q[axis] : p[axis];
    if (x[axis] < lo || x[axis] > hi) return false;
  }
  return true;
}

/// True when `t` has zero area. Repeated vertices decide it without arithmetic (the exact
/// zero determinants would otherwise take the exact fallback).
[[nodiscard]] inline bool is_flat(const Triangle& t) {
  return t.a == t.b || t.b == t.c || t.c == t.a || is_degenerate(t);
}

/// True when `x` lies on the closed segment [p, q] (a point when p == q).
[[nodiscard]] inline bool on_segment(const Vec3& x, const Vec3& p, const Vec3& q) {
  if (p == q || x == p || x == q) return x == p || x == q;
  return in_box_of(x, p, q) && is_degenerate(Triangle{p, q, x});
}

/// The closed segment (or point) a zero-area triangle spans: its two farthest vertices. Of
/// three collinear points, the pair whose box holds the third spans them all.
[[nodiscard]] inline Triangle hull_segment(const Triangle& t) noexcept {
  if (in_box_of(t.c, t.a, t.b)) return {t.a, t.b, t.b};
  if (in_box_of(t.a, t.b, t.c)) return {t.b, t.c, t.c};
  return {t.c, t.a, t.a};
}

/// Two closed collinear segments share a point: an endpoint of one lies on the other.
[[nodiscard]] inline bool collinear_segments_meet(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                                  const Vec3& q2) {
  return on_segment(p2, p1, q1) || on_segment(q2, p1, q1) || on_segment(p1, p2, q2);
}

/// Two closed segments of non-zero length in one plane that projects one to one along `axis`
/// share a point (the classic orient2d test, collinear overlaps included).
[[nodiscard]] inline bool segments_meet_in_plane(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                                 const Vec3& q2, int axis) {
  const int o1 = orientation_along(p1, q1, p2, axis), o2 = orientation_along(p1, q1, q2, axis);
  if (o1 * o2 > 0) return false;
  if (o1 == 0 && o2 == 0) return collinear_segments_meet(p1, q1, p2, q2);
  const int o3 = orientation_along(p2, q2, p1, axis), o4 = orientation_along(p2, q2, q1, axis);
  return o3 * o4 <= 0;
}

/// Two closed segments, each possibly a point, share a point.
[[nodiscard]] inline bool segments_meet(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                        const Vec3& q2) {
  if (p1 == q1) return on_segment(p1, p2, q2);
  if (p2 == q2) return on_segment(p2, p1, q1);
  if (orientation(p1, q1, p2, q2) != 0) return false;
  // Coplanar: a plane through all four, from three of them that are not collinear.
  int axis = projection_axis(Triangle{p1, q1, p2});
  if (axis < 0) axis = projection_axis(Triangle{p1, q1, q2});
  if (axis < 0) return collinear_segments_meet(p1, q1, p2, q2);
  return segments_meet_in_plane(p1, q1, p2, q2, axis);
}

/// `x`, in the plane of the non-degenerate `t`, lies in the closed triangle; `axis` projects
/// that plane one to one and `sign` is the sign of the normal's component on it.
[[nodiscard]] inline bool in_triangle_in_plane(const Vec3& x, const Triangle& t, int axis,
                                               int sign) {
  return orientation_along(t.a, t.b, x, axis) != -sign &&
         orientation_along(t.b, t.c, x, axis) != -sign &&
         orientation_along(t.c, t.a, x, axis) != -sign;
}

/// The closed segment [p, q] (a point when p == q), in the plane of the non-degenerate `t`,
/// meets the closed triangle.
[[nodiscard]] inline bool segment_meets_triangle_in_plane(const Vec3& p, const Vec3& q,
                                                          const Triangle& t, int axis) {
  const int sign = normal_component_sign(t, axis);
  if (in_triangle_in_plane(p, t, axis, sign)) return true;
  if (p == q) return false;
  // Starting outside, the segment meets the triangle only through its boundary.
  return segments_meet_in_plane(p, q, t.a, t.b, axis) ||
         segments_meet_in_plane(p, q, t.b, t.c, axis) ||
         segments_meet_in_plane(p, q, t.c, t.a, axis);
}

/// The closed segment [p, q] (a point when p == q) meets the closed non-degenerate triangle
/// `t`, given the exact sides `side_p`, `side_q` of p and q relative to its plane.
[[nodiscard]] inline bool segment_meets_triangle(const Vec3& p, const Vec3& q, int side_p,
                                                 int side_q, const Triangle& t) {
  if (side_p * side_q > 0) return false;
  if (side_p == 0 && side_q == 0)
    return segment_meets_triangle_in_plane(p, q, t, projection_axis(t));
  // The segment crosses the plane at one point; its line passes through the closed triangle
  // when the three edge orientations have no two strictly opposite signs.
  const int s1 = orientation(p, q, t.a, t.b), s2 = orientation(p, q, t.b, t.c);
  if (s1 * s2 < 0) return false;
  const int s3 = orientation(p, q, t.c, t.a);
  return s1 * s3 >= 0 && s2 * s3 >= 0;
}

/// The closed segment [p, q] (a point when p == q) meets the closed non-degenerate `t`.
[[nodiscard]] inline bool segment_meets_triangle(const Vec3& p, const Vec3& q, const Triangle& t) {
  return segment_meets_triangle(p, q, normal_side(t, p), normal_side(t, q), t);
}

/// True when `t` has zero area; `normal` (its normal in double) decides the usual case.
[[nodiscard]] inline bool is_flat(const Triangle& t, const ApproximateNormal& normal) {
  for (int k = 0; k < 3; ++k)
    if (normal.certain_sign(k) != 2) return false;  // a certainly non-zero component
  return is_flat(t);
}

/// The closed segment [p, q] (a point when p == q) meets the closed triangle `t`, which may
/// have zero area; `normal` is t's normal in double.
[[nodiscard]] inline bool segment_meets(const Vec3& p, const Vec3& q, const Triangle& t,
                                        const ApproximateNormal& normal) {
  if (!is_flat(t, normal))
    return segment_meets_triangle(p, q, normal.side(t, p), normal.side(t, q), t);
  const Triangle hull = hull_segment(t);
  return segments_meet(p, q, hull.a, hull.b);
}

/// The closed segment [p, q] (a point when p == q) meets the closed triangle `t`, which may
/// have zero area.
[[nodiscard]] inline bool segment_meets(const Vec3& p, const Vec3& q, const Triangle& t) {
  return segment_meets(p, q, t, ApproximateNormal::of(t));
}

/// Two closed non-degenerate triangles share a point; `s_normal` and `t_normal` are their
/// normals in double (the plane sides are decided in double when the bound allows).
[[nodiscard]] inline bool proper_triangles_meet(const Triangle& s, const Triangle& t,
                                                const ApproximateNormal& s_normal,
                                                const ApproximateNormal& t_normal) {
  const int t_sides[3] = {s_normal.side(s, t.a), s_normal.side(s, t.b), s_normal.side(s, t.c)};
  if (t_sides[0] * t_sides[1] > 0 && t_sides[0] * t_sides[2] > 0) return false;
  const int s_sides[3] = {t_normal.side(t, s.a), t_normal.side(t, s.b), t_normal.side(t, s.c)};
  if (s_sides[0] * s_sides[1] > 0 && s_sides[0] * s_sides[2] > 0) return false;
  const Vec3 s_vertices[3] = {s.a, s.b, s.c}, t_vertices[3] = {t.a, t.b, t.c};
  if (t_sides[0] == 0 && t_sides[1] == 0 && t_sides[2] == 0) {
    // Coplanar: an edge of s meets t, or t lies inside s.
    const int axis = projection_axis(s);
    for (int k = 0; k < 3; ++k)
      if (segment_meets_triangle_in_plane(s_vertices[k], s_vertices[(k + 1) % 3], t, axis))
        return true;
    return in_triangle_in_plane(t.a, s, axis, normal_component_sign(s, axis));
  }
  // The intersection is a segment or point whose ends lie on edges of s or of t.
  for (int k = 0; k < 3; ++k) {
    const int next = (k + 1) % 3;
    if (segment_meets_triangle(s_vertices[k], s_vertices[next], s_sides[k], s_sides[next], t))
      return true;
    if (segment_meets_triangle(t_vertices[k], t_vertices[next], t_sides[k], t_sides[next], s))
      return true;
  }
  return false;
}

/// `intersects(s, t)` given the triangles' normals in double (`ApproximateNormal::of` each),
/// for callers that reuse them across many pairs; the bounding boxes are not compared.
[[nodiscard]] inline bool triangles_meet(const Triangle& s, const Triangle& t,
                                         const ApproximateNormal& s_normal,
                                         const ApproximateNormal& t_normal) {
  if (is_flat(s, s_normal)) {
    const Triangle hull = hull_segment(s);
    return segment_meets(hull.a, hull.b, t, t_normal);
  }
  if (is_flat(t, t_normal)) {
    const Triangle hull = hull_segment(t);
    return segment_meets_triangle(hull.a, hull.b, s);
  }
  return proper_triangles_meet(s, t, s_normal, t_normal);
}

}  // namespace detail

/// True when the closed triangles share at least one point (touching counts: a vertex on the
/// other's face, an edge along an edge, coplanar overlap). A zero-area triangle is the segment
/// or point it spans. Exact: every decision is the sign of an orientation determinant
/// (orient3d, or orient2d in a coordinate plane onto which the shared plane projects one to
/// one), evaluated by `exact::sign_of`. Two triangles meet exactly when an edge of one meets
/// the other, as the ends of their intersection lie on edges (the reduction of Möller, "A
/// Fast Triangle-Triangle Intersection Test", 1997, and Guigue & Devillers, "Fast and Robust
/// Triangle-Triangle Overlap Test Using Orientation Predicates", 2003, whose plane-side
/// rejections come first here); a zero-area triangle is tested as its hull segment.
[[nodiscard]] inline bool intersects(const Triangle& s, const Triangle& t) {
  if (!s.bounds().overlaps(t.bounds())) return false;
  return detail::triangles_meet(s, t, detail::ApproximateNormal::of(s),
                                detail::ApproximateNormal::of(t));
}

}  // namespace trisect
