#pragma once
/// \file
/// Exact capsule-triangle intersection.

#include "trisect/geometry/triangle_distance.hpp"
#include "trisect/math/capsule.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {

/// True when the closed triangle and the closed capsule share a point: the exact distance
/// between the triangle and the capsule's axis segment [a, b] (the segment `squared_distance`;
/// a zero-area triangle is the segment or point it spans) is at most the radius. Exact for
/// any finite input; a capsule of radius 0 is its segment.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Capsule& capsule) {
  return segment_within_distance(capsule.a, capsule.b, Aabb::from_corners(capsule.a, capsule.b),
                                 triangle, triangle.bounds(), DistanceLimit::of(capsule.radius));
}

/// `intersects(triangle, capsule)`.
[[nodiscard]] inline bool intersects(const Capsule& capsule, const Triangle& triangle) {
  return intersects(triangle, capsule);
}

}  // namespace trisect
