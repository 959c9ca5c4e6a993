#pragma once
/// \file
/// Up to four triangles side by side, structure-of-arrays, for SIMD tests of all of them at
/// once.

#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"

#include <algorithm>

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
  /// The box of the group's triangles (finite): the union of `triangle(lane).bounds()` over
  /// the lanes below `count`, its vertices compared four lanes at a time.
  [[nodiscard]] Aabb bounds() const noexcept {
    Aabb box = Aabb::empty();
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 a = lanes(0, axis), b = lanes(1, axis), c = lanes(2, axis);
      float low[width], high[width];
      min_ignoring_nan(min_ignoring_nan(a, b), c).store(low);
      max_ignoring_nan(max_ignoring_nan(a, b), c).store(high);
      for (int lane = 0; lane < count; ++lane) {
        box.min[axis] = std::min(box.min[axis], low[lane]);
        box.max[axis] = std::max(box.max[axis], high[lane]);
      }
    }
    return box;
  }
  /// Bit i set for each lane i < count.
  [[nodiscard]] unsigned lane_mask() const noexcept { return (1u << count) - 1; }
};

}  // namespace trisect
