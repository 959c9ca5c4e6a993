#pragma once
/// \file
/// Mesh topology from positions alone: vertices welded by exact position, the edges between
/// them with the triangles that use each, and what that says about the surface (boundary,
/// manifold, non-manifold, consistently oriented, collapsed triangles), and the one rule for
/// a closed mesh.

#include "trisect/mesh/triangle_soup.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace trisect {

/// Bit pattern of a coordinate for exact position comparisons: equal floats give equal
/// patterns (-0 and +0 are one value). Coordinates must not be NaN.
[[nodiscard]] inline std::uint32_t position_bits(float coordinate) noexcept {
  return std::bit_cast<std::uint32_t>(coordinate + 0.0f);  // -0 + 0 is +0
}

/// The distinct positions of a soup's triangle corners. Two corners are one vertex exactly when
/// their coordinates compare equal as floats (so -0 equals 0, whatever the file's indices: an STL
/// soup welds into a connected mesh).
struct WeldedVertices {
  /// One per distinct position, in the order the corners first use them.
  std::vector<Vec3> positions;
  /// 3 per triangle: the welded vertex of corner k of triangle t is corners[3t + k].
  std::vector<std::uint32_t> corners;

  /// Number of triangles.
  [[nodiscard]] std::size_t triangle_count() const noexcept { return corners.size() / 3; }
};

/// Welds the corners of `soup` by exact position in O(n) expected time (one hash table pass).
/// The soup must be valid (see `validate(const TriangleSoup&)`): finite coordinates.
[[nodiscard]] WeldedVertices weld(const TriangleSoup& soup);

/// A use of an edge by a triangle: triangle `triangle` walks from its corner `corner` to corner
/// (corner + 1) mod 3 along it.
struct EdgeUse {
  TriangleId triangle;  ///< Input id.
  std::uint8_t corner;  ///< 0, 1 or 2.
  bool forward;         ///< True when the walk goes from the edge's first vertex to its second.
};

/// Counts that summarise a topology (see `MeshTopology`).
struct TopologyCounts {
  std::size_t boundary_edges = 0;      ///< Edges with one use.
  std::size_t manifold_edges = 0;      ///< Edges with exactly two uses.
  std::size_t non_manifold_edges = 0;  ///< Edges with three or more uses.
  /// Manifold edges whose two uses walk the edge in the same direction (a flipped neighbour).
  std::size_t misoriented_edges = 0;
  /// Triangles with two or three corners at one position (a repeated vertex: no area, and at
  /// least one edge collapsed to a point).
  std::size_t collapsed_triangles = 0;
  /// Triangles of zero area, decided exactly: collinear corners or a repeated vertex (so the
  /// collapsed ones included).
  std::size_t zero_area_triangles = 0;
  /// Edges used by an odd number of triangles of non-zero area: what keeps a mesh from being
  /// closed (`MeshTopology::is_closed`).
  std::size_t odd_edges = 0;
};

/// An edge that keeps a mesh from being closed: its two vertex positions and how many
/// triangles of non-zero area use it (an odd number).
struct OpenEdge {
  Vec3 first{0.0f};           ///< One end (the one the first triangle using the edge starts at).
  Vec3 second{0.0f};          ///< The other end.
  std::size_t triangles = 0;  ///< Triangles of non-zero area that have this edge.
};

/// Edges of a welded soup. An edge joins two distinct welded vertices; each triangle with
/// three distinct corners uses three edges; a triangle with a repeated vertex uses only its
/// non-collapsed sides (a triangle (a, a, b) uses the edge a–b twice, once each way).
struct MeshTopology {
  WeldedVertices vertices;  ///< The welded corners.
  /// Each edge as (smaller, larger) welded vertex ids, sorted ascending.
  std::vector<std::array<std::uint32_t, 2>> edges;
  /// Uses of edge e are edge_uses[edge_use_offsets[e] .. edge_use_offsets[e + 1]), ascending
  /// by triangle then corner.
  std::vector<std::uint32_t> edge_use_offsets;
  std::vector<EdgeUse> edge_uses;  ///< See `edge_use_offsets`.
  /// 3 per triangle: the edge from corner k to corner k + 1 of triangle t is
  /// triangle_edges[3t + k], or `no_edge` when those corners are one vertex.
  std::vector<std::uint32_t> triangle_edges;
  /// One per triangle: true when it has zero area, decided exactly (`is_degenerate`).
  std::vector<bool> zero_area;
  TopologyCounts counts;  ///< Summary of the above.

  /// Marks a collapsed side in `triangle_edges`.
  static constexpr std::uint32_t no_edge = 0xFFFFFFFFu;

  /// Number of uses of edge `e`.
  [[nodiscard]] std::size_t use_count(std::size_t e) const noexcept {
    return edge_use_offsets[e + 1] - edge_use_offsets[e];
  }
  /// Number of uses of edge `e` by triangles of non-zero area.
  [[nodiscard]] std::size_t area_use_count(std::size_t e) const noexcept;
  /// The one rule for "closed", the one `side_of`, `signed_distance`, `trisect info`, the
  /// query file's `inside` and Python's `Mesh.is_closed` use: every edge is used by an even
  /// number of triangles of non-zero area (zero-area triangles are left out). A mesh with no
  /// triangles is closed; two closed meshes sharing an edge (four triangles on it) are closed;
  /// orientation does not matter. Then every ray from a point crosses the surface an odd
  /// number of times exactly when the point is enclosed.
  [[nodiscard]] bool is_closed() const noexcept { return counts.odd_edges == 0; }
  /// Closed and more: every edge used by exactly two triangles and no triangle of zero area,
  /// so that the surface is a 2-manifold at every edge (what "watertight" often means).
  [[nodiscard]] bool is_closed_manifold() const noexcept {
    return is_closed() && counts.boundary_edges == 0 && counts.non_manifold_edges == 0 &&
           counts.zero_area_triangles == 0;
  }
  /// The first edge, in triangle order (then corner order), that a triangle of non-zero area
  /// uses and that keeps the mesh from being closed; `nullopt` when it is closed.
  [[nodiscard]] std::optional<OpenEdge> first_open_edge() const;
  /// True when every manifold edge is walked in opposite directions by its two triangles.
  [[nodiscard]] bool is_consistently_oriented() const noexcept {
    return counts.misoriented_edges == 0;
  }
};

/// The topology of `soup` (welded by exact position, zero areas decided exactly) in O(n)
/// expected time. The soup must be valid (see `validate(const TriangleSoup&)`).
[[nodiscard]] MeshTopology topology(const TriangleSoup& soup);

}  // namespace trisect
