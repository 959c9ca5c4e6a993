#pragma once
/// \file
/// Up to four triangles side by side, structure-of-arrays, for SIMD tests of all of them at
/// once.

#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {

/// Up to four triangles side by side (a leaf's, in `LeafTriangles`): coordinate j of lane i is
/// `coordinates[j * count + i]`, with j = 3 * vertex + axis (vertices a, b, c; axes x, y, z).
struct TriangleGroup {
  static constexpr int width = 4;  ///< Triangles in a full group.
  const float* coordinates;        ///< The group's 9 * count floats.
  int count;                       ///< Triangles in the group: 1 to 4.

  /// Coordinate `axis` of `vertex` (0 = a, 1 = b, 2 = c) of the four lanes. Lanes from `count`
  /// on hold other coordinates of the BVH (finite, or 0 past the last triangle): callers mask
  /// them out.
  [[nodiscard]] Float4 lanes(int vertex, int axis) const noexcept {
    return Float4::load_unaligned(coordinates + (3 * vertex + axis) * count);
  }
  /// The triangle in lane `lane` (< count).
  [[nodiscard]] Triangle triangle(int lane) const noexcept {
    const auto vertex = [&](int v) {
      const float* at = coordinates + 3 * v * count + lane;
      return Vec3(at[0], at[count], at[2 * count]);
    };
    return {vertex(0), vertex(1), vertex(2)};
  }
  /// Bit i set for each lane i < count.
  [[nodiscard]] unsigned lane_mask() const noexcept { return (1u << count) - 1; }
};

}  // namespace trisect
