#pragma once
/// \file
/// Up to four triangles side by side in the form a ray's edge test reads: each triangle's first
/// vertex, its two edges from it and their cross product, structure-of-arrays (the Möller–Trumbore
/// form, "Fast, Minimum Storage Ray/Triangle Intersection", 1997, which Embree's `Triangle4`
/// leaves keep too; Wald et al., "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014).

#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"

#include <glm/vec3.hpp>

namespace trisect {

/// Up to four triangles (a, b, c) as rows of four lanes: row `corner + axis` (rows 0–2) holds a
/// exactly; rows `first_edge + axis` and `second_edge + axis` hold b - a and c - a, and rows
/// `normal + axis` their cross product (b - a) × (c - a), each computed exactly or in double and
/// rounded once to float (an edge or normal beyond the float range becomes infinite). Row r of
/// lane i is `values[r * count + i]`.
struct EdgeGroup {
  static constexpr int width = 4;        ///< Triangles in a full group.
  static constexpr int rows = 12;        ///< Floats per triangle.
  static constexpr int corner = 0;       ///< First row of vertex a.
  static constexpr int first_edge = 3;   ///< First row of b - a.
  static constexpr int second_edge = 6;  ///< First row of c - a.
  static constexpr int normal = 9;       ///< First row of (b - a) × (c - a).
  const float* values;                   ///< The group's `rows * count` floats.
  int count;                             ///< Triangles in the group: 1 to 4.

  /// Row `row` of the four lanes. Lanes from `count` on hold other values (finite or
  /// infinite, or 0 past the last group): callers mask them out.
  [[nodiscard]] Float4 lanes(int row) const noexcept {
    return Float4::load_unaligned(values + row * count);
  }
  /// Bit i set for each lane i < count.
  [[nodiscard]] unsigned lane_mask() const noexcept { return (1u << count) - 1; }

  /// Writes the rows of `triangle` into lane `lane` of the group of `count` lanes whose floats
  /// start at `at`.
  static void write_lane(float* at, int count, int lane, const Triangle& triangle) noexcept {
    // Differences of floats are exact in double unless their exponents are more than 29
    // apart; then they are rounded once, by at most 2^-53 of their size.
    const glm::dvec3 a(triangle.a);
    const glm::dvec3 first = glm::dvec3(triangle.b) - a, second = glm::dvec3(triangle.c) - a;
    const glm::dvec3 normal_of = {first.y * second.z - first.z * second.y,
                                  first.z * second.x - first.x * second.z,
                                  first.x * second.y - first.y * second.x};
    for (int axis = 0; axis < 3; ++axis) {
      at[(corner + axis) * count + lane] = triangle.a[axis];
      at[(first_edge + axis) * count + lane] = static_cast<float>(first[axis]);
      at[(second_edge + axis) * count + lane] = static_cast<float>(second[axis]);
      at[(normal + axis) * count + lane] = static_cast<float>(normal_of[axis]);
    }
  }
};

}  // namespace trisect
