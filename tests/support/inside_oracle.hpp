#pragma once
/// \file
/// Exact oracles of the inside query: the edges of a soup with their triangle counts (closed
/// or not), the even-odd parity along one ray, and the side of a convex polyhedron, in GMP
/// rational arithmetic on the given floats. No trisect predicate is called.

#include "support/exact_oracle.hpp"

#include <trisect/mesh/triangle_soup.hpp>
#include <trisect/nearest/inside.hpp>

#include <optional>
#include <span>
#include <vector>

namespace trisect::oracle {

/// An edge (two distinct positions, compared as floats compare: -0 equals 0) with how many
/// triangles of non-zero area use it.
struct EdgeCount {
  Vec3 first{0.0f};               ///< Where the first triangle using the edge walks it from.
  Vec3 second{0.0f};              ///< Where that triangle walks it to.
  TriangleId first_triangle = 0;  ///< The smallest id of a triangle using it.
  std::size_t triangles = 0;      ///< Triangles of non-zero area (exactly) that use it.
};

/// Every edge of the triangles of non-zero area of `soup` (each such triangle has three distinct
/// corners and uses its sides a-b, b-c, c-a), in order of first use. Zero-area triangles are
/// left out; the mesh is closed when every count is even.
[[nodiscard]] std::vector<EdgeCount> edge_counts(const TriangleSoup& soup);

/// True when the two unordered edges join the same two positions.
[[nodiscard]] bool same_edge(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1);

/// True when `point` lies on a triangle of `soup` (a zero-area one included): exact distance 0.
[[nodiscard]] bool on_surface(const TriangleSoup& soup, const Vec3& point);

/// The parity of the triangles of non-zero area the ray point + t·direction (t > 0) crosses at
/// a point strictly inside them: true for odd. nullopt when the ray is unfit and another
/// direction must be tried: it touches an edge or vertex of such a triangle, lies in one's
/// plane, or starts on one. Boxes are skipped in double with a wide margin, so only candidate
/// triangles are tested exactly.
[[nodiscard]] std::optional<bool> ray_parity(const TriangleSoup& soup, const Vec3& point,
                                             const Vec3& direction);

/// The side of a closed convex polyhedron, given as the triangles of its boundary and a point
/// strictly inside it: outside when strictly beyond some face's plane, otherwise surface when on
/// some face's plane, otherwise inside. Zero-area triangles are left out.
[[nodiscard]] PointSide convex_side(const TriangleSoup& soup, const QVec3& interior,
                                    const Vec3& point);

/// The side in a union of shells (nested or apart) by the even-odd rule, from each shell's own
/// side: surface when on any shell, otherwise inside when inside an odd number of them.
[[nodiscard]] PointSide even_odd(std::span<const PointSide> sides);

}  // namespace trisect::oracle
