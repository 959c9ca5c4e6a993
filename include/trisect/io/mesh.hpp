#pragma once
/// \file
/// An owning triangle mesh as read from a file.

#include "trisect/mesh/triangle_soup.hpp"

#include <cstdint>
#include <vector>

namespace trisect {

/// An owning triangle mesh as read from a file.
struct Mesh {
  std::vector<Vec3> positions;              ///< Vertex positions as read (rounded like strtof).
  std::vector<std::uint32_t> indices;       ///< 3 per triangle, file order, fans triangulated.
  std::vector<std::uint32_t> source_faces;  ///< Per triangle: 0-based face/facet/strip index.

  /// A view of the triangles for `build` (an empty view when there are none: a soup with no
  /// indices would read the positions as 3 per triangle).
  [[nodiscard]] TriangleSoup soup() const {
    return indices.empty() ? TriangleSoup{} : TriangleSoup{positions, indices};
  }
  /// Number of triangles.
  [[nodiscard]] std::size_t triangle_count() const { return indices.size() / 3; }
};

}  // namespace trisect
