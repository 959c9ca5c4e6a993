#pragma once
/// \file
/// The leaves as the ray test reads them: each group of up to four triangles of `LeafTriangles`
/// again, as an `EdgeGroup` (a vertex, two edges and the normal, precomputed), so that the ray's
/// float pre-test does not recompute them for every ray (Embree's `Triangle4` leaves; Wald et
/// al., "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). A view of the leaf
/// storage made on request (`BuildOptions::ray_leaves`, `refresh_ray_leaves`) and kept in step
/// by `refit`; the exact tests still read the vertices from `LeafTriangles`.

#include "trisect/bvh/bvh_array.hpp"
#include "trisect/bvh/leaf_triangles.hpp"
#include "trisect/math/edge_group.hpp"

#include <algorithm>
#include <cstdint>

namespace trisect {

/// Edge groups in slot order, grouped exactly as the `LeafTriangles` they were made from: the
/// group of `count` triangles starting at slot s takes the floats [12 s, 12 (s + count)).
class RayLeaves {
 public:
  /// None.
  RayLeaves() = default;

  /// The edge groups of every leaf of `triangles`, made in parallel on the calling task arena.
  [[nodiscard]] static RayLeaves of(const LeafTriangles& triangles);

  /// Number of slots (0 when none were made).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// The group that starts at slot `first` of a leaf ending at `leaf_end`, as
  /// `LeafTriangles::group` names groups.
  [[nodiscard]] EdgeGroup group(std::uint32_t first, std::uint32_t leaf_end) const noexcept {
    return {values_.data() + EdgeGroup::rows * std::size_t{first},
            static_cast<int>(std::min<std::uint32_t>(EdgeGroup::width, leaf_end - first))};
  }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept { return values_.bytes(); }

 private:
  std::size_t size_ = 0;
  // 12 floats per slot, then EdgeGroup::width - 1 zeros, so that a group's last lanes load
  // without reading past the end.
  BvhArray<float> values_;
};

}  // namespace trisect
