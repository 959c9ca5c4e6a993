#pragma once
/// \file
/// The projected separation of the self-overlap filter (`self_overlap_filter.hpp`): two
/// triangles seen along an axis, and a line of the projection with them certainly on its two
/// sides (an edge line, a line through a shared vertex), decided by float orientations whose
/// sign a bound certifies, or left undecided. For the flat and nearly flat neighbours the
/// planes' sides cannot tell apart. Not part of the API (no stability promised).

#include "trisect/geometry/self_overlap.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/vec.hpp"

#include <cmath>

namespace trisect::detail {

/// The sign of left - right, two rounded products of rounded differences of floats (at most
/// four roundings per monomial with the subtraction), when a float bound decides it; 0 when it
/// does not (so 0 is never a certain sign). The error is below gamma_4 of the monomials'
/// absolute sum, itself computed through as many roundings: below 2^-20 times |left| + |right|
/// as computed; underflow adds at most 2^-149 (below the added 2^-100); overflow makes the
/// value or the bound infinite or NaN, and then neither comparison holds.
[[nodiscard]] inline int certain_difference_sign(float left, float right) noexcept {
  const float value = left - right;
  const float bound = (std::fabs(left) + std::fabs(right)) * 0x1p-20f + 0x1p-100f;
  return value > bound ? 1 : (value < -bound ? -1 : 0);
}

/// The sign of orient2d(p, q, r) seen along `axis` (the other two coordinates, in cyclic
/// order) when a float bound decides it, else 0 (`certain_difference_sign`).
[[nodiscard]] inline int certain_turn(const Vec3& p, const Vec3& q, const Vec3& r,
                                      int axis) noexcept {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return certain_difference_sign((q[i] - p[i]) * (r[j] - p[j]), (q[j] - p[j]) * (r[i] - p[i]));
}

/// The sign of the component `axis` of d × (p - o) (d a float vector taken as exact) when a
/// float bound decides it, else 0 (`certain_difference_sign`).
[[nodiscard]] inline int certain_cross(const Vec3& d, const Vec3& o, const Vec3& p,
                                       int axis) noexcept {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return certain_difference_sign(d[i] * (p[j] - o[j]), d[j] * (p[i] - o[i]));
}

/// s = conv{v, a1, a2} and t = conv{v, b1, b2} seen along `axis`, and the line through v along
/// `d`: true when a1 and a2 are certainly on one side and b1 and b2 on the other. Then the
/// projections meet only at v's, and a point of s projecting there has no weight on a1 or a2
/// (their sides add up): the triangles meet only at v.
[[nodiscard]] inline bool direction_separates(const Vec3& d, const Vec3& v,
                                              const TwoVertices& s_rest, const TwoVertices& t_rest,
                                              int axis) noexcept {
  const int side = certain_cross(d, v, s_rest.first, axis);
  return side != 0 && certain_cross(d, v, s_rest.second, axis) == side &&
         certain_cross(d, v, t_rest.first, axis) == -side &&
         certain_cross(d, v, t_rest.second, axis) == -side;
}

/// As `direction_separates`, for the line through v and a1 (exactly: orient2d): a2 certainly
/// on one side, b1 and b2 on the other.
[[nodiscard]] inline bool line_separates(const Vec3& v, const Vec3& a1, const Vec3& a2,
                                         const TwoVertices& other, int axis) noexcept {
  const int side = certain_turn(v, a1, a2, axis);
  return side != 0 && certain_turn(v, a1, other.first, axis) == -side &&
         certain_turn(v, a1, other.second, axis) == -side;
}

/// One shared position v, seen along `axis`: a line through v with the triangles certainly on
/// its two sides, among the lines of the four edges at v and the four sums of an edge of each
/// (which pass between two triangles of a fan even where edges line up, as in a subdivided
/// mesh).
[[nodiscard]] inline bool vertex_fans_apart(const Vec3& v, const TwoVertices& s_rest,
                                            const TwoVertices& t_rest, int axis) noexcept {
  const Vec3 &a1 = s_rest.first, &a2 = s_rest.second, &b1 = t_rest.first, &b2 = t_rest.second;
  if (line_separates(v, a1, a2, t_rest, axis) || line_separates(v, a2, a1, t_rest, axis) ||
      line_separates(v, b1, b2, s_rest, axis) || line_separates(v, b2, b1, s_rest, axis))
    return true;
  for (const Vec3& a : {a1, a2})
    for (const Vec3& b : {b1, b2})
      if (direction_separates((a - v) + (b - v), v, s_rest, t_rest, axis)) return true;
  return false;
}

/// No shared position, seen along `axis`: the line of an edge of s with s's third vertex
/// certainly on one side and the three of t on the other (or the same with s and t swapped):
/// the projections, and so the triangles, are disjoint (for two convex polygons in a plane, an
/// edge line of one separates them when anything does).
[[nodiscard]] inline bool edge_line_separates(const Triangle& s, const Triangle& t,
                                              int axis) noexcept {
  const Vec3 sv[3] = {s.a, s.b, s.c};
  for (int e = 0; e < 3; ++e) {
    const Vec3 &p = sv[e], &q = sv[(e + 1) % 3];
    const int side = certain_turn(p, q, sv[(e + 2) % 3], axis);
    if (side != 0 && certain_turn(p, q, t.a, axis) == -side &&
        certain_turn(p, q, t.b, axis) == -side && certain_turn(p, q, t.c, axis) == -side)
      return true;
  }
  return false;
}

}  // namespace trisect::detail
