#pragma once
/// \file
/// Inside, outside or on a closed mesh, decided exactly by the even-odd rule, and the signed
/// distance built on it.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/vec.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace trisect {

/// Where a point lies with respect to a closed mesh.
enum class PointSide : std::uint8_t {
  outside,  ///< Rays from the point cross an even number of triangles.
  inside,   ///< Rays from the point cross an odd number of triangles.
  surface,  ///< The point lies on a triangle (a zero-area one included).
};

/// The name of a side: "outside", "inside" or "surface".
[[nodiscard]] const char* to_string(PointSide side) noexcept;

/// An edge that keeps a mesh from being closed: its two vertex positions and how many
/// triangles of non-zero area use it (an odd number).
struct OpenEdge {
  Vec3 first{0.0f};           ///< One end (the one the first triangle using the edge starts at).
  Vec3 second{0.0f};          ///< The other end.
  std::size_t triangles = 0;  ///< Triangles of non-zero area that have this edge.
};

/// An edge of `soup` used by an odd number of its triangles of non-zero area, with vertices
/// welded by exact position (`weld`), or `nullopt` when there is none: the mesh is then closed
/// in the sense `side_of` needs (a mesh with no triangles is closed). Zero-area triangles are
/// left out, decided exactly. The edge returned is the first such one in triangle order. O(n)
/// expected. The soup must be valid.
[[nodiscard]] std::optional<OpenEdge> find_open_edge(const TriangleSoup& soup);

/// Throws `InvalidInput` when `find_open_edge(soup)` finds an edge: "MESH is not closed: edge
/// (x y z)-(x y z) belongs to N triangles of non-zero area", with `mesh` for MESH.
void require_closed(const TriangleSoup& soup, const std::string& mesh);

/// Where `point` lies with respect to the mesh in `bvh`, exactly: `surface` when it lies on a
/// triangle; otherwise the parity of the triangles of non-zero area that a ray from it crosses,
/// for a ray that touches no edge or vertex and lies in no triangle's plane (one ray in a fixed
/// direction, perturbed symbolically where it would touch one: every test exact, no give-up).
/// The answer is the same for every such ray when the mesh is closed (`find_open_edge`); on an
/// open mesh it is the parity along that perturbed ray, which depends on it. Orientation and
/// self-intersections do not matter. Throws `InvalidInput` for a non-finite point, nothing
/// else.
[[nodiscard]] PointSide side_of(const Bvh& bvh, const Vec3& point);

/// `sides[i] = side_of(bvh, points[i])` for every i, in parallel (TBB); points are validated
/// first (an error names the index), and so is the size of `sides`.
void sides_of(const Bvh& bvh, std::span<const Vec3> points, std::span<PointSide> sides);

/// The distance from `point` to the mesh (as `closest_point`), negative when `side_of` says
/// `inside`, 0 on the surface, +inf for an empty mesh.
[[nodiscard]] double signed_distance(const Bvh& bvh, const Vec3& point);

}  // namespace trisect
