#pragma once
/// \file
/// The triangles of a BVH in slot order, stored leaf by leaf as structure-of-arrays groups of
/// up to four, so that a leaf's triangles load straight into SIMD lanes (Wald et al., "Embree:
/// A Kernel Framework for Efficient CPU Ray Tracing", 2014, keeps its leaves as such blocks).

#include "trisect/bvh/detail/default_init_allocator.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace trisect {

/// Slot range [begin, end) of one leaf.
struct LeafRange {
  std::uint32_t begin;  ///< First slot.
  std::uint32_t end;    ///< One past the last slot.
};

/// The triangles of a BVH in slot order. Each leaf's slots [begin, end) form groups of four
/// from its first slot on, [begin, begin + 4), [begin + 4, begin + 8), ..., the last one
/// shorter when the leaf's size is not a multiple of four; a group of `count` triangles
/// starting at slot s takes the floats [9 s, 9 (s + count)), laid out as `TriangleGroup`
/// says. So the floats are exactly 9 per triangle, as many as an array of `Triangle`, with no
/// padding lanes, and a leaf reads the bytes it would as such an array. Which slots start a
/// leaf is kept as one bit per slot, for access to one slot's triangle.
class LeafTriangles {
 public:
  /// No triangles.
  LeafTriangles() = default;

  /// The triangles `soup.triangle(ids[slot])` for every slot, grouped by `leaves`, which
  /// must tile [0, ids.size()) (in any order); copied in parallel on the calling task arena.
  /// The ids must be valid ids of `soup`.
  [[nodiscard]] static LeafTriangles of(const TriangleSoup& soup, std::span<const TriangleId> ids,
                                        std::span<const LeafRange> leaves);

  /// Number of slots.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// The group that starts at slot `first` of a leaf ending at `leaf_end` (`first` is the
  /// leaf's first slot or 4, 8, ... slots after it).
  [[nodiscard]] TriangleGroup group(std::uint32_t first, std::uint32_t leaf_end) const noexcept {
    return {coordinates_.data() + 9 * std::size_t{first},
            static_cast<int>(std::min<std::uint32_t>(TriangleGroup::width, leaf_end - first))};
  }
  /// Calls `f(first, group)` for the groups of the leaf slots [begin, end) in order, `first`
  /// being the group's first slot; stops when `f` returns false (if it returns a bool).
  /// Returns false when stopped.
  template <class F>
  bool for_each_group(std::uint32_t begin, std::uint32_t end, F&& f) const {
    for (std::uint32_t first = begin; first < end; first += TriangleGroup::width) {
      if constexpr (std::is_same_v<std::invoke_result_t<F&, std::uint32_t, TriangleGroup>, bool>) {
        if (!f(first, group(first, end))) return false;
      } else {
        f(first, group(first, end));
      }
    }
    return true;
  }
  /// The triangle in `slot` (< size()).
  [[nodiscard]] Triangle triangle(std::uint32_t slot) const noexcept;
  /// Where `slot`'s leaf begins and ends (slot < size()).
  [[nodiscard]] LeafRange leaf_of(std::uint32_t slot) const noexcept;
  /// The first byte of slot `slot`'s group's floats, for prefetching a leaf that starts there.
  [[nodiscard]] const void* address(std::uint32_t slot) const noexcept {
    return coordinates_.data() + 9 * std::size_t{slot};
  }
  /// Bytes held (capacities).
  [[nodiscard]] std::size_t bytes() const noexcept {
    return coordinates_.capacity() * sizeof(float) +
           leaf_starts_.capacity() * sizeof(std::uint64_t);
  }

 private:
  // Where `slot` lies: its group's first slot and size, and its lane in the group.
  struct Place {
    std::uint32_t first;
    int count, lane;
  };
  [[nodiscard]] Place place_of(std::uint32_t slot) const noexcept;
  void mark_leaf_start(std::uint32_t slot) noexcept {
    leaf_starts_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }

  std::size_t size_ = 0;
  // 9 floats per slot, then TriangleGroup::width - 1 zeros, so that a group's last lanes
  // load without reading past the end. Sized without zeroing: `of` writes every float.
  std::vector<float, detail::DefaultInitAllocator<float>> coordinates_;
  // Bit s set when a leaf starts at slot s; bit size_ set too.
  std::vector<std::uint64_t> leaf_starts_;
};

}  // namespace trisect
