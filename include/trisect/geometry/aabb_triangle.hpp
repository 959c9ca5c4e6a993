#pragma once
/// \file
/// Exact AABB–triangle intersection by the 13-axis separating-axis test.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {
namespace detail {

/// The box and a triangle edge p→q, seen along the axis L = (q - p) × unit_k, with i, j the
/// other two axes in cyclic order so that L_i = e_j and L_j = -e_i. The projection of a point v
/// is f(v) = e_j v_i - e_i v_j; these helpers give exact signs of f(v) - f(corner).
struct EdgeAxis {
  Vec3 p, q;
  int i, j;

  /// Exact sign of f(v) - f(corner) = e_j (v_i - corner_i) - e_i (v_j - corner_j).
  [[nodiscard]] int compare(const Vec3& v, float corner_i, float corner_j) const {
    const float pi = component(p, i), pj = component(p, j);
    const float qi = component(q, i), qj = component(q, j);
    const float vi = component(v, i), vj = component(v, j);
    return exact::sign_of([&](auto lift) {
      return (lift(qj) - lift(pj)) * (lift(vi) - lift(corner_i)) -
             (lift(qi) - lift(pi)) * (lift(vj) - lift(corner_j));
    });
  }

  /// True when the box projects strictly on one side of both p and r (the triangle's projection
  /// is {f(p) = f(q), f(r)}): this axis separates them.
  [[nodiscard]] bool separates(const Vec3& r, const Aabb& box) const {
    const bool ei_nonnegative = component(q, i) >= component(p, i);
    const bool ej_nonnegative = component(q, j) >= component(p, j);
    const float lo_i = component(box.min, i), hi_i = component(box.max, i);
    const float lo_j = component(box.min, j), hi_j = component(box.max, j);
    // Corner maximising f: v_i as large as its coefficient e_j allows, v_j as small as e_i's.
    const float top_i = ej_nonnegative ? hi_i : lo_i, top_j = ei_nonnegative ? lo_j : hi_j;
    const float bottom_i = ej_nonnegative ? lo_i : hi_i, bottom_j = ei_nonnegative ? hi_j : lo_j;
    if (compare(p, top_i, top_j) > 0) return compare(r, top_i, top_j) > 0;
    return compare(p, bottom_i, bottom_j) < 0 && compare(r, bottom_i, bottom_j) < 0;
  }
};

/// True when one of the three box face normals separates the closed sets (exact comparisons).
[[nodiscard]] inline bool box_normals_separate(const Triangle& t, const Aabb& box) noexcept {
  const Aabb bounds = t.bounds();
  return bounds.max.x < box.min.x || bounds.min.x > box.max.x || bounds.max.y < box.min.y ||
         bounds.min.y > box.max.y || bounds.max.z < box.min.z || bounds.min.z > box.max.z;
}

/// True when the triangle's plane has the whole box strictly on one side.
[[nodiscard]] inline bool triangle_normal_separates(const Triangle& t, const Aabb& box) {
  const int sx = normal_component_sign(t, 0), sy = normal_component_sign(t, 1),
            sz = normal_component_sign(t, 2);
  if (sx == 0 && sy == 0 && sz == 0) return false;  // zero-area triangle: no normal axis
  const Vec3 highest(sx >= 0 ? box.max.x : box.min.x, sy >= 0 ? box.max.y : box.min.y,
                     sz >= 0 ? box.max.z : box.min.z);
  const Vec3 lowest(sx >= 0 ? box.min.x : box.max.x, sy >= 0 ? box.min.y : box.max.y,
                    sz >= 0 ? box.min.z : box.max.z);
  return normal_side(t, highest) < 0 || normal_side(t, lowest) > 0;
}

/// True when one of the nine axes edge × box axis separates the closed sets.
[[nodiscard]] inline bool edge_axes_separate(const Triangle& t, const Aabb& box) {
  const Vec3* vertices[3] = {&t.a, &t.b, &t.c};
  for (int edge = 0; edge < 3; ++edge) {
    const Vec3& p = *vertices[edge];
    const Vec3& q = *vertices[(edge + 1) % 3];
    const Vec3& r = *vertices[(edge + 2) % 3];
    for (int axis = 0; axis < 3; ++axis) {
      const EdgeAxis along{p, q, (axis + 1) % 3, (axis + 2) % 3};
      if (along.separates(r, box)) return true;
    }
  }
  return false;
}

}  // namespace detail

/// True when the closed triangle and the closed box share at least one point (touching counts:
/// a vertex on a box face, an edge along a box edge). Exact: the separating-axis test of
/// Akenine-Möller ("Fast 3D Triangle-Box Overlap Testing", 2001) over the 13 axes (3 box
/// normals, the triangle normal, the 9 cross products of triangle edges with box axes), each
/// axis decided with strict inequalities in exact arithmetic. Degenerate triangles (segments,
/// points) and degenerate boxes (slabs, points) are answered correctly: the 13 axes contain
/// every facet normal of their Minkowski difference, and a zero axis never separates.
/// The box must not be empty.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Aabb& box) {
  if (detail::box_normals_separate(triangle, box)) return false;
  if (detail::triangle_normal_separates(triangle, box)) return false;
  return !detail::edge_axes_separate(triangle, box);
}

/// Symmetric form of `intersects(triangle, box)`.
[[nodiscard]] inline bool intersects(const Aabb& box, const Triangle& triangle) {
  return intersects(triangle, box);
}

}  // namespace trisect
