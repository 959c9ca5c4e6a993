#pragma once
/// \file
/// The triangles of a BVH in slot order, stored leaf by leaf as structure-of-arrays groups of
/// up to four, so that a leaf's triangles load straight into SIMD lanes (Wald et al., "Embree:
/// A Kernel Framework for Efficient CPU Ray Tracing", 2014, keeps its leaves as such blocks).

#include "trisect/bvh/bvh_array.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include "trisect/detail/thread_fallback.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

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
  /// Storage for `size` slots whose leaves are still to be written: fill every leaf with
  /// `rewrite_leaf` (leaves may be written from several threads at once: they share no bytes),
  /// then mark them with `mark_leaves`. How a builder that reads each leaf's triangles anyway
  /// copies them as it goes, instead of in a pass of its own.
  [[nodiscard]] static LeafTriangles unfilled(std::size_t size);
  /// Marks where `leaves` (which must tile [0, size()), in any order) begin, for `leaf_of` and
  /// the walks; every other slot is left where no leaf starts.
  void mark_leaves(std::span<const LeafRange> leaves);
  /// The triangles of `size` slots stored as `coordinates` and `leaf_starts` hold them (as
  /// `coordinate_array` and `leaf_start_array` give them out): for a tree read back from a file.
  /// Throws `InvalidInput` unless the arrays have the lengths `size` gives and the leaf starts
  /// mark slot 0 and `size` (so that `leaf_of` stays inside them).
  [[nodiscard]] static LeafTriangles from_arrays(std::size_t size, BvhArray<float> coordinates,
                                                 BvhArray<std::uint64_t> leaf_starts);

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
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return coordinates_.bytes() + leaf_starts_.bytes();
  }
  /// Writes `triangle_of(slot)` (a `Triangle`) into every slot of `leaf`, a leaf of this
  /// storage, keeping its grouping: how `of` fills the storage and `refit` moves triangles.
  template <class F>
  void rewrite_leaf(LeafRange leaf, F&& triangle_of) noexcept {
    for (std::uint32_t first = leaf.begin; first < leaf.end; first += TriangleGroup::width) {
      const int count = group(first, leaf.end).count;
      for (int lane = 0; lane < count; ++lane)
        write_lane(coordinates_.data() + 9 * std::size_t{first}, count, lane,
                   triangle_of(first + static_cast<std::uint32_t>(lane)));
    }
  }
  /// Calls `f(leaf)` (a `LeafRange`) once for every leaf, in parallel on the calling task
  /// arena: how the leaf storage and the views made from it (`RayLeaves`) are written.
  template <class F>
  void for_each_leaf_parallel(F&& f) const;
  /// The stored floats: 9 per slot, grouped by leaf, then `TriangleGroup::width - 1` zeros.
  [[nodiscard]] const BvhArray<float>& coordinate_array() const noexcept { return coordinates_; }
  /// One bit per slot, set where a leaf starts, and bit size() set too; 64 slots per word.
  [[nodiscard]] const BvhArray<std::uint64_t>& leaf_start_array() const noexcept {
    return leaf_starts_;
  }

 private:
  // Rewrites every slot's triangle as `soup.triangle(ids[slot])` (ids of size()), keeping the
  // grouping, in parallel on the calling task arena, reading the soup in slot order with its
  // memory asked for ahead of use: how `of` fills the storage.
  void rewrite(const TriangleSoup& soup, std::span<const TriangleId> ids);
  // Where `slot` lies: its group's first slot and size, and its lane in the group.
  struct Place {
    std::uint32_t first;
    int count, lane;
  };
  [[nodiscard]] Place place_of(std::uint32_t slot) const noexcept;
  // The first slot at or after `slot` (<= size()) where a leaf starts, or size().
  [[nodiscard]] std::uint32_t next_leaf_start(std::uint32_t slot) const noexcept;
  // Writes `triangle` into lane `lane` of the group of `count` lanes whose floats start at `at`.
  static void write_lane(float* at, int count, int lane, const Triangle& triangle) noexcept {
    const Vec3 vertices[3] = {triangle.a, triangle.b, triangle.c};
    for (int vertex = 0; vertex < 3; ++vertex)
      for (int axis = 0; axis < 3; ++axis)
        at[(3 * vertex + axis) * count + lane] = vertices[vertex][axis];
  }

  std::size_t size_ = 0;
  // 9 floats per slot, then TriangleGroup::width - 1 zeros, so that a group's last lanes
  // load without reading past the end.
  BvhArray<float> coordinates_;
  // Bit s set when a leaf starts at slot s; bit size_ set too.
  BvhArray<std::uint64_t> leaf_starts_;
};

template <class F>
void LeafTriangles::for_each_leaf_parallel(F&& f) const {
  // Each task takes the leaves that start in its range of slots.
  const auto leaves_from = [&](std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t first = next_leaf_start(begin); first < end;) {
      const std::uint32_t last = next_leaf_start(first + 1);
      f(LeafRange{first, last});
      first = last;
    }
  };
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(size_), 8192),
                      [&](const auto& range) { leaves_from(range.begin(), range.end()); });
  });
}

}  // namespace trisect
