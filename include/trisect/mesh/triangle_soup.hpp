#pragma once
/// \file
/// A non-owning view of a triangle soup: the input the BVH is built over.

#include "trisect/math/triangle.hpp"

#include <cstdint>
#include <span>

namespace trisect {

/// Index of a triangle in the input, 0-based in input order. Every answer is in these ids.
using TriangleId = std::uint32_t;

/// Non-owning view of triangles, either as 3 positions per triangle (`indices` empty) or as
/// shared `positions` with 3 indices per triangle. Triangle i is (positions[3i], [3i+1],
/// [3i+2]) or (positions[indices[3i]], ...). The viewed arrays must outlive the view and every
/// use of it; the BVH copies what it needs, so they need not outlive a built `Bvh`.
struct TriangleSoup {
  std::span<const Vec3> positions;           ///< Vertex positions.
  std::span<const std::uint32_t> indices{};  ///< 3 per triangle, or empty for a plain soup.

  /// Number of triangles.
  [[nodiscard]] std::size_t size() const noexcept {
    return (indices.empty() ? positions.size() : indices.size()) / 3;
  }

  /// True when there are no triangles.
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }

  /// Triangle `id`; `id` < size(), and indices must be in range (see `validate`).
  [[nodiscard]] Triangle triangle(std::size_t id) const noexcept {
    if (indices.empty()) return {positions[3 * id], positions[3 * id + 1], positions[3 * id + 2]};
    return {positions[indices[3 * id]], positions[indices[3 * id + 1]],
            positions[indices[3 * id + 2]]};
  }
};

/// Throws `InvalidInput` naming the offending index when the soup cannot be used: a length
/// that is not a multiple of 3, more than 2^32 - 1 triangles, an index out of range, or a
/// vertex used by a triangle with NaN or infinite coordinates.
void validate(const TriangleSoup& soup);

}  // namespace trisect
