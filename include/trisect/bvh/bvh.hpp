#pragma once
/// \file
/// The bounding volume hierarchy: 8-wide nodes plus the triangles in leaf order, and what can be
/// asked of one built (statistics, validation).

#include "trisect/bvh/bvh_array.hpp"
#include "trisect/bvh/leaf_triangles.hpp"
#include "trisect/bvh/ray_leaves.hpp"
#include "trisect/bvh/ray_node.hpp"
#include "trisect/bvh/wide_node.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstdint>
#include <vector>

namespace trisect {

/// A built hierarchy over a triangle soup: one layout, the 8-wide nodes the queries traverse,
/// plus copies of the triangles in leaf order, grouped by leaf for SIMD tests (so the soup it
/// was built from may go away), and their input ids. Built by `build` (see build.hpp); holds no
/// build logic. Empty when built over no triangles (then every query answers nothing).
///
/// Slots: the triangles are stored in slot order, and every wide node covers a contiguous run
/// of slots; the root `wide[0]` covers all of them, [0, size()).
struct Bvh {
  BvhArray<WideNode> wide;  ///< Depth-first; wide[0] is the root when not empty.
  /// The float nodes the ray walk reads (`RayNode`): one for each wide node that is not a
  /// bottom node (one whose children are all leaves), in wide order; the walk reads the bottom
  /// nodes' quantised boxes. Made on request (`BuildOptions::ray_nodes`, or
  /// `refresh_ray_nodes` after a load); `refit` keeps them in step. Rays walk the wide nodes
  /// alone, with the same answers, unless `has_ray_nodes()`.
  BvhArray<RayNode> ray_nodes;
  /// `wide.size()` when `ray_nodes` were last made (0: never): the ray walk uses them only
  /// while this matches.
  std::size_t ray_view_of = 0;
  LeafTriangles triangles;  ///< Triangles in slot order, grouped by leaf.
  /// The leaves as the ray test reads them (`RayLeaves`, 48 bytes per triangle): made on request
  /// (`BuildOptions::ray_leaves`, or `refresh_ray_leaves`), kept in step by `refit`. Rays
  /// pre-test the stored vertices instead, with the same answers, unless `has_ray_leaves()`.
  RayLeaves ray_leaves;
  BvhArray<TriangleId> ids;  ///< Input id of the triangle in each slot.
  /// Empty, or the slot of each input id (`slots[ids[s]] == s`): made by the first partial
  /// refit (`refit` with the changed ids), which finds the changed triangles' slots there; not
  /// stored in a tree file.
  BvhArray<std::uint32_t> slots;
  /// Empty, or the exact box of each wide node's children: child i of `wide[n]` at
  /// [8 n + i] (the empty box for an unused lane). Made with `slots` by the first partial
  /// refit, and kept in step by every refit after it, so that a partial refit takes the boxes of
  /// the subtrees without a changed triangle from here; not stored in a tree file.
  BvhArray<Aabb> child_boxes;
  Aabb root_bounds = Aabb::empty();  ///< Box of all triangles: the root's own box.
  /// `statistics(*this).sah_cost` of the tree as built (unit costs), which `refit` measures
  /// its refitted trees against; 0 when not known yet (`refit` then measures the tree it is
  /// given first).
  double built_sah_cost = 0;

  /// True when `ray_nodes` were made for these wide nodes (and not emptied since, unless the
  /// root is a bottom node and needs none), so rays may walk them.
  [[nodiscard]] bool has_ray_nodes() const noexcept {
    return !wide.empty() && ray_view_of == wide.size() &&
           (!ray_nodes.empty() || RayNode::walks_as_bottom(wide[0], size()));
  }
  /// True when `ray_leaves` were made for these triangles, so rays may read them.
  [[nodiscard]] bool has_ray_leaves() const noexcept {
    return !wide.empty() && ray_leaves.size() == triangles.size();
  }
  /// True when the BVH holds no triangle.
  [[nodiscard]] bool empty() const noexcept { return wide.empty(); }
  /// Number of triangles.
  [[nodiscard]] std::size_t size() const noexcept { return ids.size(); }
  /// Bounds of all triangles (the empty box when empty).
  [[nodiscard]] Aabb bounds() const noexcept { return root_bounds; }
};

/// Deepest wide node depth any built BVH has (root at depth 0); traversal stacks are sized from
/// it. The builders split at the object median from depth `max_bvh_depth` - 40 on, which keeps
/// any 32-bit triangle count above it.
inline constexpr int max_bvh_depth = 96;

/// Facts about a built BVH, measured on its wide nodes.
struct BvhStatistics {
  std::size_t node_count = 0;  ///< Wide nodes plus leaves.
  std::size_t leaf_count = 0;  ///< Leaves: wide node children marked `WideNode::leaf`.
  /// Longest path from the root wide node to a leaf, in edges: 1 when the root holds only
  /// leaves; 0 when empty.
  int depth = 0;
  double sah_cost = 0;  ///< Surface area heuristic cost with the given unit costs.
  /// The same with each leaf priced per lane of its groups of four (its triangle count rounded
  /// up to a multiple of 4), as `build` and the queries price it.
  double sah_cost_lanes = 0;
  std::size_t bytes = 0;  ///< Memory held by the BVH's stored arrays (their sizes).
  /// Memory held by `Bvh::ray_nodes`, the rays' view derived from the wide nodes (not stored
  /// in a tree file); the tree holds `bytes + ray_node_bytes + ray_leaf_bytes` in all.
  std::size_t ray_node_bytes = 0;
  /// Memory held by `Bvh::ray_leaves`, the rays' other view (not stored in a tree file either).
  std::size_t ray_leaf_bytes = 0;
  double bytes_per_triangle = 0;  ///< `bytes` / `Bvh::size()`; 0 when empty.
};

/// Statistics of `bvh`. With A(box) = half the box's surface area, computed in double from its
/// faces clamped to the float range (so finite for any box), and R = A(`bvh.bounds()`),
/// the SAH cost is, in double, the sum over wide nodes of traversal_cost * A(node) / R plus the
/// sum over leaves of intersection_cost * (triangles in the leaf) * A(leaf) / R, where a wide
/// node's box is the child box its parent holds for it, decoded (the root's is `bvh.bounds()`,
/// so the root adds traversal_cost), and a leaf's box is its parent's decoded child box. When R is
/// 0 every ratio A / R counts as 1. This is the cost of MacDonald & Booth ("Heuristics for ray
/// tracing using space subdivision", 1990) taken over the wide tree: one traversal step per wide
/// node entered, not per binary node. `bytes` counts the bytes of `wide`, `triangles`
/// (`LeafTriangles::bytes`) and `ids`.
[[nodiscard]] BvhStatistics statistics(const Bvh& bvh, float traversal_cost = 1.0f,
                                       float intersection_cost = 1.0f);

/// The triangles of `bvh` in input id order, three corners each: `TriangleSoup{corners}` over
/// them has, triangle for triangle, the soup `bvh` was built from (as a plain soup, its
/// indices gone). For a tree loaded from a file, whose soup is elsewhere. Parallel on the
/// calling task arena.
[[nodiscard]] std::vector<Vec3> triangle_corners(const Bvh& bvh);

/// Throws `InvalidInput` describing the first broken invariant that queries rely on to stay
/// inside the arrays, finish and compute with finite numbers: triangles and ids of different
/// lengths, wide nodes without triangles or triangles without wide nodes, a built SAH cost
/// that is not finite or negative, an empty or non-finite root box, a wide node child out of
/// range or reached twice (a cycle or a shared subtree), a wide node unreachable or deeper
/// than `max_bvh_depth`, a grid origin that is not finite or a grid exponent out of range, a
/// used child whose slot range is empty, out of order or outside its parent's (so the
/// children's ranges tile their parent's and every slot lies in exactly one leaf), a used mask
/// that does not match the used lanes, an unused lane that is not at the end of the node's
/// range or has non-zero faces, leaf starts that do not mark exactly the leaves' first slots
/// and the end, a triangle coordinate that is not finite or outside the root box, padding after
/// the last triangle that is not zero, or an id out of range or used twice. One pass over the
/// arrays without exact arithmetic, the triangles in parallel on the calling task arena: what
/// `load_bvh` checks of every tree it loads.
void validate_structure(const Bvh& bvh);

/// Throws `InvalidInput` describing the first broken invariant: those of `validate_structure`
/// (checked first), then a decoded child box that is empty or (decoded with one rounding) not
/// inside `PlaneQuery::reach_of(bvh)`, or a triangle not inside the decoded box of each wide
/// node child above it. When `soup` is given, also that every slot holds exactly the input
/// triangle its id names.
void validate(const Bvh& bvh, const TriangleSoup* soup = nullptr);

/// Makes `bvh.ray_nodes`: `RayNode::of` each wide node that is not a bottom node (see
/// `Bvh::ray_nodes`), in its storage when it has the size (as after a refit), in parallel on
/// the calling task arena, and sets `ray_view_of`: the rays' float nodes, for a tree built
/// without them or loaded from a file. `build` calls it when
/// `BuildOptions::ray_nodes` is set, `refit` when the tree has them; call it after changing
/// `bvh.wide` by hand.
void refresh_ray_nodes(Bvh& bvh);

/// Makes `bvh.ray_leaves` (`RayLeaves::of(bvh.triangles)`), in parallel on the calling task
/// arena: the rays' edge groups, for a tree built without them or loaded from a file. `build`
/// calls it when `BuildOptions::ray_leaves` is set, `refit` when the tree has them; call it after
/// changing `bvh.triangles` by hand.
void refresh_ray_leaves(Bvh& bvh);

}  // namespace trisect
