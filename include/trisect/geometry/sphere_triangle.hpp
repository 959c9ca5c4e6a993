#pragma once
/// \file
/// Exact sphere–triangle intersection.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/sphere.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {
namespace detail {

/// True when the ball's bounding box misses the triangle's bounds on some axis (exact).
[[nodiscard]] inline bool sphere_bounds_separate(const Triangle& t, const Sphere& s) {
  const Aabb bounds = t.bounds();
  const auto beyond = [&](float lower, float upper) {  // exact sign of lower - upper - r
    return exact::sign_of([&](auto lift) { return lift(lower) - lift(upper) - lift(s.radius); }) >
           0;
  };
  return beyond(bounds.min.x, s.center.x) || beyond(s.center.x, bounds.max.x) ||
         beyond(bounds.min.y, s.center.y) || beyond(s.center.y, bounds.max.y) ||
         beyond(bounds.min.z, s.center.z) || beyond(s.center.z, bounds.max.z);
}

/// |v - center|^2 <= radius^2, exactly.
[[nodiscard]] inline bool vertex_in_ball(const Vec3& v, const Sphere& s) {
  return exact::sign_of([&](auto lift) {
           const auto dx = lift(v.x) - lift(s.center.x), dy = lift(v.y) - lift(s.center.y),
                      dz = lift(v.z) - lift(s.center.z);
           return dx * dx + dy * dy + dz * dz - lift(s.radius) * lift(s.radius);
         }) <= 0;
}

/// The centre projects strictly inside segment p→q and lies within radius of its line, exactly:
/// (c - p)·u > 0, (q - c)·u > 0 and |u × (c - p)|^2 <= r^2 |u|^2 with u = q - p.
[[nodiscard]] inline bool edge_in_ball(const Vec3& p, const Vec3& q, const Sphere& s) {
  const Vec3& c = s.center;
  const auto along = [&](const Vec3& from, const Vec3& to) {  // (to - from)·u
    return exact::sign_of([&](auto lift) {
      return (lift(to.x) - lift(from.x)) * (lift(q.x) - lift(p.x)) +
             (lift(to.y) - lift(from.y)) * (lift(q.y) - lift(p.y)) +
             (lift(to.z) - lift(from.z)) * (lift(q.z) - lift(p.z));
    });
  };
  if (along(p, c) <= 0 || along(c, q) <= 0) return false;
  return exact::sign_of([&](auto lift) {
           const auto ux = lift(q.x) - lift(p.x), uy = lift(q.y) - lift(p.y),
                      uz = lift(q.z) - lift(p.z);
           const auto wx = lift(c.x) - lift(p.x), wy = lift(c.y) - lift(p.y),
                      wz = lift(c.z) - lift(p.z);
           const auto cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
           return cx * cx + cy * cy + cz * cz -
                  lift(s.radius) * lift(s.radius) * (ux * ux + uy * uy + uz * uz);
         }) <= 0;
}

/// Exact sign of ((q - p) × (point - p))·N: >= 0 when the point projects onto the inner side
/// of edge p→q within the triangle's plane.
[[nodiscard]] inline int edge_side_in_plane(const Triangle& t, const Vec3& p, const Vec3& q,
                                            const Vec3& point) {
  return exact::sign_of([&](auto lift) {
    const auto n = triangle_normal(t, lift);
    const auto ux = lift(q.x) - lift(p.x), uy = lift(q.y) - lift(p.y), uz = lift(q.z) - lift(p.z);
    const auto wx = lift(point.x) - lift(p.x), wy = lift(point.y) - lift(p.y),
               wz = lift(point.z) - lift(p.z);
    return (uy * wz - uz * wy) * n.x + (uz * wx - ux * wz) * n.y + (ux * wy - uy * wx) * n.z;
  });
}

/// Exact sign of (N·(center - a))^2 - r^2 |N|^2: <= 0 when the plane is within the radius.
[[nodiscard]] inline int plane_distance_vs_radius(const Triangle& t, const Sphere& s) {
  return exact::sign_of([&](auto lift) {
    const auto n = triangle_normal(t, lift);
    const auto offset = n.x * (lift(s.center.x) - lift(t.a.x)) +
                        n.y * (lift(s.center.y) - lift(t.a.y)) +
                        n.z * (lift(s.center.z) - lift(t.a.z));
    return offset * offset - lift(s.radius) * lift(s.radius) * (n.x * n.x + n.y * n.y + n.z * n.z);
  });
}

}  // namespace detail

/// True when the closed triangle and the closed ball share a point: the squared distance from
/// the centre to the triangle is at most radius² (tangent counts). Exact. The closest point is
/// the projection onto the plane when that falls inside the triangle, otherwise on an edge or
/// a vertex (Ericson, "Real-Time Collision Detection", §5.1.5); each case is compared in a
/// division-free form so that it can be decided exactly. Degenerate triangles are the segment
/// or point they span. The radius must be >= 0.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Sphere& sphere) {
  using namespace detail;
  if (sphere_bounds_separate(triangle, sphere)) return false;
  if (vertex_in_ball(triangle.a, sphere) || vertex_in_ball(triangle.b, sphere) ||
      vertex_in_ball(triangle.c, sphere))
    return true;
  const Vec3& center = sphere.center;
  if (!is_degenerate(triangle) &&
      edge_side_in_plane(triangle, triangle.a, triangle.b, center) >= 0 &&
      edge_side_in_plane(triangle, triangle.b, triangle.c, center) >= 0 &&
      edge_side_in_plane(triangle, triangle.c, triangle.a, center) >= 0)
    return plane_distance_vs_radius(triangle, sphere) <= 0;
  return edge_in_ball(triangle.a, triangle.b, sphere) ||
         edge_in_ball(triangle.b, triangle.c, sphere) ||
         edge_in_ball(triangle.c, triangle.a, sphere);
}

/// Symmetric form of `intersects(triangle, sphere)`.
[[nodiscard]] inline bool intersects(const Sphere& sphere, const Triangle& triangle) {
  return intersects(triangle, sphere);
}

}  // namespace trisect
