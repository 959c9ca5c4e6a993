#pragma once
/// \file
/// Exact AABB–triangle intersection by the 13-axis separating-axis test.

#include "trisect/geometry/detail/aabb_triangle_filter.hpp"

namespace trisect {

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
