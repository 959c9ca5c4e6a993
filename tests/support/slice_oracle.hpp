#pragma once
/// \file
/// An independent oracle for slicing: segments from exact rational arithmetic and chaining by
/// brute-force edge matching. No trisect slicing code is called.

#include <trisect/math/plane.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include "support/exact_oracle.hpp"

#include <map>
#include <optional>
#include <vector>

namespace trisect::oracle {

/// A triangle's segment in a plane: from the exact point of its falling edge to the exact point
/// of its rising edge, with each edge as its (below, above) vertex positions.
struct ExactSegment {
  TriangleId triangle;
  QVec3 from;
  QVec3 to;
  std::array<Vec3, 2> from_edge;  ///< The falling edge: (below vertex, above vertex).
  std::array<Vec3, 2> to_edge;    ///< The rising edge: (below vertex, above vertex).
};

/// Every contributing triangle's segment, ascending by triangle id (the slice contract of
/// docs/contracts.md, decided in rationals: sides of n·v - d, then the exact edge points).
[[nodiscard]] std::vector<ExactSegment> exact_segments(const TriangleSoup& soup,
                                                       const Plane& plane);

/// Number of contributing triangles that have each edge (keyed by its below and above vertex
/// positions, -0 as 0), counted by brute force over all segments.
[[nodiscard]] std::map<std::array<float, 6>, int> edge_uses(
    const std::vector<ExactSegment>& segments);

/// The key of an edge for `edge_uses`.
[[nodiscard]] std::array<float, 6> edge_key(const std::array<Vec3, 2>& edge);

/// The number of contours: connected components of segments joined at edges with exactly two
/// contributing triangles (segments grouped by edge in an ordered map, then a union-find).
[[nodiscard]] std::size_t contour_count(const std::vector<ExactSegment>& segments);

}  // namespace trisect::oracle
