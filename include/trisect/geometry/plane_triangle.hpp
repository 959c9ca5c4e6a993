#pragma once
/// \file
/// Exact triangle–plane intersection.

#include "trisect/geometry/plane_point.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {

/// True when the closed triangle touches the plane: its vertices are not all strictly on one
/// side (a vertex or edge on the plane counts). Exact; degenerate triangles are the segment or
/// point they span.
[[nodiscard]] inline bool intersects(const Triangle& triangle, const Plane& plane) {
  const Side a = classify(plane, triangle.a);
  if (a == Side::on) return true;
  const Side b = classify(plane, triangle.b);
  if (b != a) return true;
  return classify(plane, triangle.c) != a;
}

/// Symmetric form of `intersects(triangle, plane)`.
[[nodiscard]] inline bool intersects(const Plane& plane, const Triangle& triangle) {
  return intersects(triangle, plane);
}

}  // namespace trisect
