#pragma once
/// \file
/// The distance between two meshes: the nearest pair of triangles, chosen exactly.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/math/transform.hpp"

#include <optional>

namespace trisect {

/// The answer of `mesh_distance`.
struct MeshDistance {
  TriangleId first = 0;   ///< Input id in the first mesh.
  TriangleId second = 0;  ///< Input id in the second mesh.
  /// The exact distance between the two closed triangles to within a relative 2^-24; exactly
  /// 0 when they touch.
  double distance = 0;
};

/// The pair (first, second) of triangles at the smallest exact Euclidean distance, the
/// smallest such pair by `first`, then `second`, after mapping every vertex of `second` by
/// `second_to_first` exactly as `for_each_intersecting_pair` does (so touching meshes answer
/// 0 with the smallest intersecting pair). `nullopt` when either tree is empty. A walk of both
/// trees at once, pairs of nodes nearest first, pruned once farther apart than the best pair
/// so far. Throws `InvalidInput` as `for_each_intersecting_pair` does for a bad transform.
[[nodiscard]] std::optional<MeshDistance> mesh_distance(const Bvh& first, const Bvh& second,
                                                        const Transform& second_to_first = {},
                                                        QueryStats* stats = nullptr);

}  // namespace trisect
