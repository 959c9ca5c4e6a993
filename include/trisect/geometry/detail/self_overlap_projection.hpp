#pragma once
/// \file
/// The projected separation of the self-overlap filter (`self_overlap_filter.hpp`): two
/// triangles seen along an axis, and a line of the projection with them certainly on its two
/// sides (an edge line, a line through a shared vertex), decided by float orientations whose
/// sign a bound certifies, or left undecided. For the flat and nearly flat neighbours the
/// planes' sides cannot tell apart. Not part of the API (no stability promised).

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

/// A point seen along an axis: its other two coordinates, in cyclic order.
struct SeenPoint {
  float u, v;

  /// `p` seen along `axis`.
  [[nodiscard]] static SeenPoint of(const Vec3& p, int axis) noexcept {
    return {p[(axis + 1) % 3], p[(axis + 2) % 3]};
  }
};

/// A triangle's vertices seen along an axis.
struct SeenTriangle {
  SeenPoint vertex[3];

  /// `t` seen along `axis`.
  [[nodiscard]] static SeenTriangle of(const Triangle& t, int axis) noexcept {
    return {{SeenPoint::of(t.a, axis), SeenPoint::of(t.b, axis), SeenPoint::of(t.c, axis)}};
  }
};

/// The sign of orient2d(p, q, r) when a float bound decides it, else 0
/// (`certain_difference_sign`).
[[nodiscard]] inline int certain_turn(SeenPoint p, SeenPoint q, SeenPoint r) noexcept {
  return certain_difference_sign((q.u - p.u) * (r.v - p.v), (q.v - p.v) * (r.u - p.u));
}

/// The sign of d × (p - o) (d a float vector taken as exact) when a float bound decides it,
/// else 0 (`certain_difference_sign`).
[[nodiscard]] inline int certain_cross(SeenPoint d, SeenPoint o, SeenPoint p) noexcept {
  return certain_difference_sign(d.u * (p.v - o.v), d.v * (p.u - o.u));
}

/// s = conv{v, a1, a2} and t = conv{v, b1, b2} seen along an axis, and the line through v
/// along `d`: true when a1 and a2 are certainly on one side and b1 and b2 on the other. Then
/// the projections meet only at v's, and a point of s projecting there has no weight on a1 or
/// a2 (their sides add up): the triangles meet only at v.
[[nodiscard]] inline bool direction_separates(SeenPoint d, SeenPoint v, SeenPoint a1, SeenPoint a2,
                                              SeenPoint b1, SeenPoint b2) noexcept {
  const int side = certain_cross(d, v, a1);
  return side != 0 && certain_cross(d, v, a2) == side && certain_cross(d, v, b1) == -side &&
         certain_cross(d, v, b2) == -side;
}

/// As `direction_separates`, for the line through v and a1 (exactly: orient2d): a2 certainly
/// on one side, b1 and b2 on the other.
[[nodiscard]] inline bool line_separates(SeenPoint v, SeenPoint a1, SeenPoint a2, SeenPoint b1,
                                         SeenPoint b2) noexcept {
  const int side = certain_turn(v, a1, a2);
  return side != 0 && certain_turn(v, a1, b1) == -side && certain_turn(v, a1, b2) == -side;
}

/// One shared position v of s = conv{v, a1, a2} and t = conv{v, b1, b2}, seen along an axis: a
/// line through v with the triangles certainly on its two sides, among the lines of the four
/// edges at v and the four sums of an edge of each (which pass between two triangles of a fan
/// even where edges line up, as in a subdivided mesh).
[[nodiscard]] inline bool vertex_fans_apart(SeenPoint v, SeenPoint a1, SeenPoint a2, SeenPoint b1,
                                            SeenPoint b2) noexcept {
  if (line_separates(v, a1, a2, b1, b2) || line_separates(v, a2, a1, b1, b2) ||
      line_separates(v, b1, b2, a1, a2) || line_separates(v, b2, b1, a1, a2))
    return true;
  for (const SeenPoint a : {a1, a2}) {
    for (const SeenPoint b : {b1, b2}) {
      // (a - v) + (b - v), each component rounded as the 3-D sum rounds it.
      const SeenPoint d{(a.u - v.u) + (b.u - v.u), (a.v - v.v) + (b.v - v.v)};
      if (direction_separates(d, v, a1, a2, b1, b2)) return true;
    }
  }
  return false;
}

/// No shared position, seen along an axis: the line of an edge of s with s's third vertex
/// certainly on one side and the three of t on the other: the projections, and so the
/// triangles, are disjoint (for two convex polygons in a plane, an edge line of one separates
/// them when anything does; call it with s and t swapped too).
[[nodiscard]] inline bool edge_line_separates(const SeenTriangle& s,
                                              const SeenTriangle& t) noexcept {
  for (int e = 0; e < 3; ++e) {
    const SeenPoint p = s.vertex[e], q = s.vertex[(e + 1) % 3];
    const int side = certain_turn(p, q, s.vertex[(e + 2) % 3]);
    if (side != 0 && certain_turn(p, q, t.vertex[0]) == -side &&
        certain_turn(p, q, t.vertex[1]) == -side && certain_turn(p, q, t.vertex[2]) == -side)
      return true;
  }
  return false;
}

}  // namespace trisect::detail
