#pragma once
// An owning triangle mesh for tests and benchmarks: the scene type of the scenes library.
#include <trisect/math/aabb.hpp>
#include <trisect/math/triangle.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include <glm/geometric.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace trisect::scenes {

/// A named triangle mesh that owns its data: `positions` with `indices` (3 per triangle), or,
/// when `indices` is empty, a plain soup of 3 positions per triangle.
struct Scene {
  std::string name;
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> indices = {};

  /// A view of the triangles, valid while the scene lives unchanged.
  [[nodiscard]] TriangleSoup soup() const { return {positions, indices}; }
  /// The number of triangles.
  [[nodiscard]] std::size_t size() const { return soup().size(); }
  /// Triangle `id` (0-based, below `size()`).
  [[nodiscard]] Triangle triangle(std::size_t id) const { return soup().triangle(id); }
  /// The box of all positions (empty for no positions).
  [[nodiscard]] Aabb bounds() const {
    Aabb box = Aabb::empty();
    for (const Vec3& p : positions) box.extend(p);
    return box;
  }
  /// The length of the diagonal of `bounds()`.
  [[nodiscard]] float diagonal() const {
    const Aabb box = bounds();
    return glm::length(box.max - box.min);
  }
};

}  // namespace trisect::scenes
