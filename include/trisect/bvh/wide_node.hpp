#pragma once
/// \file
/// The 8-wide node layout the queries traverse: eight child boxes side by side so that a few
/// SIMD tests decide all eight (Wald, Benthin & Boulos, "Getting Rid of Packets", 2008; Dammertz
/// et al., "Shallow Bounding Volume Hierarchies for Fast SIMD Ray Tracing of Incoherent Rays",
/// 2008), with the child boxes quantised to 8 bits on a grid of the node's own (Ylitie, Karras
/// & Laine, "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG
/// 2017; Embree's compressed QBVH nodes). The builders write these nodes directly, top down.

#include "trisect/math/aabb.hpp"
#include "trisect/math/float4.hpp"

#include <bit>
#include <cstdint>

namespace trisect {

/// Up to eight children, 128 bytes (two cache lines).
///
/// Child boxes are stored as faces on a per-node grid: on axis a, face value q (0..255)
/// decodes to `origin[a] + q * step(a)`, where the step is a power of two. The product is
/// exact (a lower face's always; see below), so the one rounding is the addition's and every
/// way of evaluating the decode (a multiplication then an addition, or one fused
/// multiply-add) gives the same float: queries decode with whatever instructions they have and
/// agree. The builder rounds each face outward and checks the decoded value, so a decoded
/// child box always contains the triangles below the child (it may stick out of its parent's
/// box by a grid step). Only where a node spans more than 255 * 2^120 (about 3.4e38) on an
/// axis can an upper face's product exceed the float range; it then decodes to +inf, or with
/// a fused multiply-add to the finite value the builder checked: either way outward.
///
/// Faces are structure-of-arrays, ordered so that a ray picks each axis's entry and exit
/// planes by offset: `faces[2 * axis]` holds the lower faces and `faces[2 * axis + 1]` the
/// upper ones. Children are in slot order: child i's subtree covers slots
/// [first[i], first[i + 1]), the last one's ends where the node's own range ends (its parent
/// knows; the root's is `Bvh::size()`). Used lanes come first and have their bit set in
/// `used`; unused lanes have all faces 0, `child` = `unused`, and `first` = the node's end.
struct alignas(64) WideNode {
  static constexpr int width = 8;
  /// Groups of four lanes, each tested with one `Float4` operation per row.
  static constexpr int groups = width / 4;
  /// `child` value of a leaf: its triangles are the slots of its range.
  static constexpr std::uint32_t leaf = 0x7fffffffu;
  /// `child` value of an unused lane.
  static constexpr std::uint32_t unused = 0xffffffffu;

  float origin[3];               ///< The grid's corner: face 0 on each axis.
  std::uint8_t exponent[3];      ///< Biased like a float's: step(a) = 2^(exponent[a] - 127).
  std::uint8_t used;             ///< Bit i set for every used lane.
  std::uint8_t faces[6][width];  ///< [2a]: lower face on axis a; [2a + 1]: upper; in steps.
  std::uint32_t child[width];    ///< Index into `Bvh::wide`, or `leaf`, or `unused`.
  std::uint32_t first[width];    ///< First slot of each child's subtree.

  /// The grid step on `axis`: a normal power of two, 2^-126 to 2^127.
  [[nodiscard]] float step(int axis) const noexcept {
    return std::bit_cast<float>(std::uint32_t{exponent[axis]} << 23);
  }
  /// The decoded face `row` (2 * axis, + 1 for the upper face) of child `lane`.
  [[nodiscard]] float face(int row, int lane) const noexcept {
    const int axis = row / 2;
    return origin[axis] + float(faces[row][lane]) * step(axis);
  }
  /// The decoded faces `row` of lanes 4 * group .. 4 * group + 3, the same floats as `face`.
  [[nodiscard]] Float4 face_row(int row, int group) const noexcept {
    const int axis = row / 2;
    return Float4::splat(origin[axis]) +
           Float4::from_bytes(faces[row] + 4 * group) * Float4::splat(step(axis));
  }
  /// Child `i`'s decoded closed box (a point, meaningless, for an unused lane).
  [[nodiscard]] Aabb child_bounds(int i) const noexcept {
    return {{face(0, i), face(2, i), face(4, i)}, {face(1, i), face(3, i), face(5, i)}};
  }
  /// Bit i set for every used lane.
  [[nodiscard]] unsigned used_mask() const noexcept { return used; }
  /// True when every used lane is a leaf: a node just above the leaves.
  [[nodiscard]] bool holds_only_leaves() const noexcept {
    for (int i = 0; i < width; ++i)
      if ((used >> i & 1) != 0 && child[i] != leaf) return false;
    return true;
  }
  /// End of child `i`'s slot range, given `end`, the end of this node's range.
  [[nodiscard]] std::uint32_t child_end(int i, std::uint32_t end) const noexcept {
    return i + 1 < width ? first[i + 1] : end;
  }
};

static_assert(sizeof(WideNode) == 128);

/// The child boxes of a wide node as floats, structure-of-arrays like `WideNode::faces`
/// (`bounds[2 * axis]` lower faces, `bounds[2 * axis + 1]` upper ones): what a query that
/// changes the boxes (such as a transformed overlap query) tests in the node's place.
struct alignas(16) ChildBoxes {
  float bounds[6][WideNode::width];

  /// The decoded boxes of `node`'s children (points for unused lanes).
  [[nodiscard]] static ChildBoxes of(const WideNode& node) noexcept {
    ChildBoxes boxes;
    for (int row = 0; row < 6; ++row)
      for (int group = 0; group < WideNode::groups; ++group)
        node.face_row(row, group).store(boxes.bounds[row] + 4 * group);
    return boxes;
  }
  /// Faces `row` of lanes 4 * group .. 4 * group + 3.
  [[nodiscard]] Float4 face_row(int row, int group) const noexcept {
    return Float4::load(bounds[row] + 4 * group);
  }
  /// Child `i`'s box.
  [[nodiscard]] Aabb child_bounds(int i) const noexcept {
    return {{bounds[0][i], bounds[2][i], bounds[4][i]}, {bounds[1][i], bounds[3][i], bounds[5][i]}};
  }
  /// Every box cut down to its common part with `box` (which holds the triangles below, so
  /// that no answer changes): finite wherever `box` is, even where a decoded face is +inf.
  void clip(const Aabb& box) noexcept {
    for (int axis = 0; axis < 3; ++axis) {
      for (int group = 0; group < WideNode::groups; ++group) {
        float* lower = bounds[2 * axis] + 4 * group;
        float* upper = bounds[2 * axis + 1] + 4 * group;
        max_ignoring_nan(Float4::load(lower), Float4::splat(box.min[axis])).store(lower);
        min_ignoring_nan(Float4::load(upper), Float4::splat(box.max[axis])).store(upper);
      }
    }
  }
  /// Sets child `i`'s box.
  void set(int i, const Aabb& box) noexcept {
    for (int axis = 0; axis < 3; ++axis) {
      bounds[2 * axis][i] = box.min[axis];
      bounds[2 * axis + 1][i] = box.max[axis];
    }
  }
};

}  // namespace trisect
