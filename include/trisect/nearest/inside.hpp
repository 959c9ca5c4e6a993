#pragma once
/// \file
/// Inside, outside or on a closed mesh, decided exactly by the even-odd rule, and the signed
/// distance built on it.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/vec.hpp"
#include "trisect/mesh/topology.hpp"
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

/// `topology(soup).first_open_edge()`: an edge that keeps `soup` from being closed by the
/// one rule of `MeshTopology::is_closed` (every edge used by an even number of triangles of
/// non-zero area), or `nullopt` when it is closed. O(n) expected. The soup must be valid.
[[nodiscard]] std::optional<OpenEdge> find_open_edge(const TriangleSoup& soup);

/// Throws `InvalidInput` when `find_open_edge(soup)` finds an edge: "MESH is not closed: edge
/// (x y z)-(x y z) belongs to N triangles of non-zero area", with `mesh` for MESH.
void require_closed(const TriangleSoup& soup, const std::string& mesh);

/// Where `point` lies with respect to the mesh in `bvh`, exactly: `surface` when it lies on a
/// triangle; otherwise the parity of the triangles of non-zero area that a ray from it crosses,
/// for a ray that touches no edge or vertex and lies in no triangle's plane (one ray in a fixed
/// direction, perturbed symbolically where it would touch one: every test exact, no give-up).
/// The answer is the same for every such ray when the mesh is closed (`MeshTopology::is_closed`);
/// on an open mesh it is the parity along that perturbed ray, which depends on it. Orientation and
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
