#pragma once
/// \file
/// Building a BVH: binned SAH, parallel and deterministic.

#include "trisect/bvh/bvh.hpp"
#include "trisect/mesh/triangle_soup.hpp"

namespace trisect {

/// How `build` makes the tree.
enum class BuildMethod {
  /// Binned surface area heuristic (see `build`): the best trees for queries.
  sah,
  /// Morton order (a linear BVH: Lauterbach et al., "Fast BVH Construction on GPUs", 2009):
  /// triangles sorted along a 30-bit Morton curve of their box centres, split top down where
  /// the codes' highest differing bit changes (or in the middle of equal codes), leaves of at
  /// most min(`max_leaf_size`, 4) triangles. Several times faster to build than `sah`, for
  /// trees that queries traverse more slowly: for scenes rebuilt often. `bin_count` and the
  /// costs are not used.
  morton,
  /// Locally-ordered clustering (PLOC: Meister & Bittner, "Parallel Locally-Ordered
  /// Clustering for Bounding Volume Hierarchy Construction", IEEE TVCG 2018): triangles in
  /// Morton order as above, then, round after round, each cluster merged with the one among
  /// its 8 neighbours on either side in that order whose merged box has the least surface
  /// area, when that choice is mutual. Leaves of at most min(`max_leaf_size`, 4) triangles.
  /// Trees close to `sah`'s (1–13% above its SAH cost on the meshes measured, where `morton`'s
  /// are 13–23% above), built in 0.6–1.3 of its time (bench/README.md). Inputs of 2^31
  /// triangles or more, and those where the clustering stalls or its binary tree would be
  /// deeper than `max_bvh_depth`, are built as `morton` builds them. `bin_count` and the costs
  /// are not used.
  ploc,
};

/// Options of `build`. Defaults suit box, plane and sphere queries as well as rays.
struct BuildOptions {
  /// Largest leaf; ranges larger than this are always split. Must be in [1, 255].
  std::uint32_t max_leaf_size = 8;
  /// SAH bins per axis (Wald 2007 uses 16 to 32). Must be in [2, 64].
  std::uint32_t bin_count = 16;
  /// Cost of visiting an inner (8-wide) node, relative to `intersection_cost`. The default 2
  /// reflects the queries' 8-wide node tests: on the bunny subdivided to 1.1M triangles it
  /// gives rays as fast as before the wide builder, for a unit-cost SAH 4% above 1's (measured
  /// in bench/).
  float traversal_cost = 2.0f;
  /// Cost of testing one triangle. Leaves are tested four triangles at a time, so a leaf costs
  /// this per lane of its groups of four (its triangle count rounded up to a multiple of 4).
  float intersection_cost = 1.0f;
  /// Worker threads: 0 means all the machine has, 1 .. `max_threads` at most that many (never
  /// more than it runs at once); another value makes `build` throw `InvalidInput`. The tree is
  /// identical for any value.
  unsigned threads = 0;
  /// The construction algorithm.
  BuildMethod method = BuildMethod::sah;
  /// Also derive `Bvh::ray_nodes` (`refresh_ray_nodes`), the float nodes rays then walk above
  /// the bottom nodes: 256 bytes for each wide node with an inner child (about 4–5 bytes per
  /// triangle), the same answers. Off by default: on the machines measured (bench/README.md,
  /// issue 36) they have not paid on every scene.
  bool ray_nodes = false;
  /// Also derive `Bvh::ray_leaves` (`refresh_ray_leaves`), the leaves in the form the rays'
  /// pre-test reads (a vertex, two edges and the normal per triangle): 48 bytes per triangle,
  /// the same answers. Off by default: on the machine measured (an AMD EPYC Zen 5, 2026-12-07)
  /// rays took 0.89–1.59 times as long with them, the second stream of leaf memory costing
  /// more than the pre-test saves (bench/README.md, issue 36).
  bool ray_leaves = false;
};

/// Builds a BVH over `soup` with the binned surface area heuristic of Wald ("On fast
/// Construction of SAH-based Bounding Volume Hierarchies", 2007), writing 8-wide nodes directly:
/// each node splits the child with the largest box (centroids binned along each axis, the split
/// with the lowest SAH cost taken) while it has fewer than 8 children and the split pays, and a
/// child of at most `max_leaf_size` triangles is a leaf unless a node of its own is cheaper.
/// Subtrees are built in parallel with TBB. Deterministic: the same soup and options give the same
/// tree, bit for bit, whatever the thread count. Deep degenerate splits fall back to object-median
/// splits so the depth stays below `max_bvh_depth`. Throws `InvalidInput` when the soup fails
/// `validate(soup)` or the options are out of range. An empty soup gives an empty BVH.
[[nodiscard]] Bvh build(const TriangleSoup& soup, const BuildOptions& options = {});

}  // namespace trisect
