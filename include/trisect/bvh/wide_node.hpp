#pragma once
/// \file
/// The 8-wide node layout the queries traverse: eight child boxes side by side so that a few
/// SIMD tests decide all eight (Wald, Benthin & Boulos, "Getting Rid of Packets", 2008; Dammertz
/// et al., "Shallow Bounding Volume Hierarchies for Fast SIMD Ray Tracing of Incoherent Rays",
/// 2008). Built by collapsing a builder's binary tree, whose slot order it keeps.

#include "trisect/math/aabb.hpp"

#include <cstdint>

namespace trisect {

/// Up to eight children, 256 bytes (four cache lines). Bounds are structure-of-arrays, ordered
/// so that a ray picks each axis's entry and exit planes by offset: `bounds[2 * axis]` holds
/// the lower faces and `bounds[2 * axis + 1]` the upper ones. Children are in slot order:
/// child i's subtree covers slots [first[i], first[i + 1]), the last one's ends where the
/// node's own range ends (its parent knows; the root's is `Bvh::size()`). Unused lanes have
/// the empty box (lower +inf, upper -inf), `child` = `unused`, and `first` = the node's end.
struct alignas(64) WideNode {
  static constexpr int width = 8;
  /// Groups of four lanes, each tested with one `Float4` operation per row.
  static constexpr int groups = width / 4;
  /// `child` value of a leaf: its triangles are the slots of its range.
  static constexpr std::uint32_t leaf = 0x7fffffffu;
  /// `child` value of an unused lane.
  static constexpr std::uint32_t unused = 0xffffffffu;

  float bounds[6][width];      ///< [2a]: lower face on axis a; [2a + 1]: upper face.
  std::uint32_t child[width];  ///< Index into `Bvh::wide`, or `leaf`, or `unused`.
  std::uint32_t first[width];  ///< First slot of each child's subtree.

  /// Child `i`'s closed box (the empty box for an unused lane).
  [[nodiscard]] Aabb child_bounds(int i) const noexcept {
    return {{bounds[0][i], bounds[2][i], bounds[4][i]}, {bounds[1][i], bounds[3][i], bounds[5][i]}};
  }
  /// Bit i set for every used lane.
  [[nodiscard]] unsigned used_mask() const noexcept {
    unsigned mask = 0;
    for (int i = 0; i < width; ++i) mask |= (child[i] != unused ? 1u : 0u) << i;
    return mask;
  }
  /// End of child `i`'s slot range, given `end`, the end of this node's range.
  [[nodiscard]] std::uint32_t child_end(int i, std::uint32_t end) const noexcept {
    return i + 1 < width ? first[i + 1] : end;
  }
};

static_assert(sizeof(WideNode) == 256);

}  // namespace trisect
