#pragma once
/// \file
/// The exact squared distance from a point to a closed triangle, as the distance to the
/// triangle's part nearest the point (a vertex, the line through an edge, or the face's plane).

#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/geometry/squared_distance.hpp"
#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/exact.hpp"

namespace trisect {
namespace detail {

/// Exact sign of (to - from)·(point - from).
[[nodiscard]] inline int projection_sign(const Vec3& from, const Vec3& to, const Vec3& point) {
  return exact::sign_of([&](auto lift) {
    return (lift(to.x) - lift(from.x)) * (lift(point.x) - lift(from.x)) +
           (lift(to.y) - lift(from.y)) * (lift(point.y) - lift(from.y)) +
           (lift(to.z) - lift(from.z)) * (lift(point.z) - lift(from.z));
  });
}

/// The squared distance from `point` to the closed segment [u, v] (a point when u == v).
[[nodiscard]] inline SquaredDistance segment_squared_distance(const Vec3& point, const Vec3& u,
                                                              const Vec3& v) {
  if (u == v || projection_sign(u, v, point) <= 0) return SquaredDistance::between(point, u);
  if (projection_sign(v, u, point) <= 0) return SquaredDistance::between(point, v);
  return {DistanceForm::point_line, {point, u, v, Vec3(0.0f)}};
}

}  // namespace detail

/// The squared distance from `point` to the closed triangle, in the form of the triangle's part
/// nearest the point, chosen exactly: the Voronoi regions of the vertices, edges and face
/// (Ericson, "Real-Time Collision Detection", §5.1.5), each test an exact sign. A zero-area
/// triangle is the segment or point it spans: the nearest of its three sides.
[[nodiscard]] inline SquaredDistance squared_distance(const Vec3& point, const Triangle& t) {
  using namespace detail;
  if (is_degenerate(t)) {
    SquaredDistance best = segment_squared_distance(point, t.a, t.b);
    for (const auto& side :
         {segment_squared_distance(point, t.b, t.c), segment_squared_distance(point, t.c, t.a)})
      if (compare(side, best) < 0) best = side;
    return best;
  }
  // Ericson's d1..d6 as signs: d1 = ab·ap, d2 = ac·ap, d3 = ab·bp = -(ba·bp),
  // d4 - d3 = bc·bp, d6 = ac·cp = -(ca·cp), d5 - d6 = cb·cp.
  const int d1 = projection_sign(t.a, t.b, point), d2 = projection_sign(t.a, t.c, point);
  if (d1 <= 0 && d2 <= 0) return SquaredDistance::between(point, t.a);
  const int d3 = -projection_sign(t.b, t.a, point);
  const int d4_minus_d3 = projection_sign(t.b, t.c, point);
  if (d3 >= 0 && d4_minus_d3 <= 0) return SquaredDistance::between(point, t.b);
  const int d6 = -projection_sign(t.c, t.a, point);
  const int d5_minus_d6 = projection_sign(t.c, t.b, point);
  if (d6 >= 0 && d5_minus_d6 <= 0) return SquaredDistance::between(point, t.c);
  // Ericson's vc = d1·d4 - d3·d2 (edge ab), vb = d5·d2 - d1·d6 (edge ac) and
  // va = d3·d6 - d5·d4 (edge bc), by Lagrange's identity n·((b - a) × (p - a)) and so on: the
  // same signs from a form that does not cancel when the point is far away.
  if (d1 >= 0 && d3 <= 0 && edge_side_in_plane(t, t.a, t.b, point) <= 0)
    return {DistanceForm::point_line, {point, t.a, t.b, Vec3(0.0f)}};
  if (d2 >= 0 && d6 <= 0 && edge_side_in_plane(t, t.c, t.a, point) <= 0)
    return {DistanceForm::point_line, {point, t.a, t.c, Vec3(0.0f)}};
  if (d4_minus_d3 >= 0 && d5_minus_d6 >= 0 && edge_side_in_plane(t, t.b, t.c, point) <= 0)
    return {DistanceForm::point_line, {point, t.b, t.c, Vec3(0.0f)}};
  return {DistanceForm::point_plane, {point, t.a, t.b, t.c}};
}

/// The point of the closed triangle nearest `point` (see `nearest_point_of`), given the
/// squared distance `squared_distance(point, triangle)` returned.
[[nodiscard]] inline Vec3 nearest_point(const SquaredDistance& distance, const Triangle& triangle) {
  return nearest_point_of(distance, triangle.bounds());
}

}  // namespace trisect
