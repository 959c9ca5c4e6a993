#pragma once
/// \file
/// Refitting a BVH to moved vertices: the same triangles and the same tree, new boxes. For
/// meshes that deform (cloth, skinned characters, soft bodies, parameter sweeps), at a fraction
/// of a build's cost; the tree's quality tells when a rebuild would pay again.

#include "trisect/bvh/bvh.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <span>

namespace trisect {

/// Moves every triangle of `bvh` to where `moved` has it, keeping the tree: the triangle in
/// each slot becomes `moved.triangle(id)` for the slot's id, every leaf and node box is
/// recomputed bottom-up from the triangles (the tightest boxes the tree allows, as a build
/// makes them), each wide node's children re-quantised, and `bvh.bounds()` updated. `moved`
/// must have the soup's triangles (its size, and normally its indices) with new positions; the
/// tree stays valid and every query exact for any positions, but its quality falls as
/// triangles move away from where they were built (see `refit_quality`). Runs in parallel on
/// the calling task arena; the result does not depend on the thread count. Sets
/// `bvh.built_sah_cost` first if it is 0. Throws `InvalidInput` when `moved` fails
/// `validate(moved)` or has another triangle count than `bvh`, and then leaves `bvh` as it was.
/// Reads `moved` in slot order, asking for its memory ahead of use (a refit is bound by those
/// reads); runs again on one thread when a worker thread cannot be started.
void refit(Bvh& bvh, const TriangleSoup& moved);

/// As `refit(bvh, moved)`, where only the triangles `changed` (input ids, in any order,
/// repeats allowed) have moved: their slots are rewritten and only the nodes above them
/// re-quantised. A subtree off those paths keeps its nodes, and its box comes from
/// `bvh.child_boxes`: the tree is the one a full refit gives. The first call on a tree makes
/// `bvh.slots` and `bvh.child_boxes` (a pass over the tree, which does not read `moved`); after
/// that a call costs the work on the changed paths. Throws `InvalidInput` (leaving `bvh` as it
/// was) when an id is out of range or a changed triangle fails `validate`.
void refit(Bvh& bvh, const TriangleSoup& moved, std::span<const TriangleId> changed);

/// How a refitted tree compares with the tree as built, by the surface area heuristic with
/// unit costs (MacDonald & Booth 1990; Kopta et al., "Fast, Effective BVH Updates for Animated
/// Scenes", I3D 2012, decide when to rebuild by the same measure).
struct RefitQuality {
  double sah_cost = 0;        ///< `statistics(bvh).sah_cost` now.
  double built_sah_cost = 0;  ///< `bvh.built_sah_cost`: the cost as built.
  /// sah_cost / built_sah_cost: 1 as built, larger as the boxes spread; 1 when either is 0.
  [[nodiscard]] double degradation() const noexcept {
    return sah_cost > 0 && built_sah_cost > 0 ? sah_cost / built_sah_cost : 1.0;
  }
  /// The degradation above which `rebuild_advised` says a rebuild pays: queries cost about in
  /// proportion to the SAH cost, and a SAH build costs about 6 to 9 full refits (bench_refit
  /// against bench_build, 1.1M triangles, one thread), so a tree that is queried for a while
  /// after losing 40% is better rebuilt.
  static constexpr double rebuild_threshold = 1.4;
  /// True when degradation() exceeds `rebuild_threshold`.
  [[nodiscard]] bool rebuild_advised() const noexcept { return degradation() > rebuild_threshold; }
};

/// The quality of `bvh` against its build (`Bvh::built_sah_cost`; a tree never refitted has
/// degradation 1). One pass over the wide nodes.
[[nodiscard]] RefitQuality refit_quality(const Bvh& bvh);

}  // namespace trisect
