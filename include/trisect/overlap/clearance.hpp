#pragma once
/// \file
/// Clearance: every pair of triangles of two meshes, or of one mesh, that lie within a distance
/// of each other, decided exactly (CAD interference with a safety gap, a robot's path
/// clearance, a 3D print's minimum distance between parts).
#include "trisect/bvh/bvh.hpp"
#include "trisect/math/transform.hpp"
#include "trisect/overlap/overlap.hpp"

#include <vector>

namespace trisect {

/// Every pair (a, b), a a triangle of `first` and b one of `second`, whose closed triangles
/// lie within `distance` of each other: the exact distance between triangle a and triangle b
/// with each vertex mapped by `second_to_first` (as `collect_intersecting_pairs` maps them:
/// rounded to float once per coordinate, the exact test on those floats) is at most `distance`
/// (closed: a pair at exactly `distance` counts). A zero-area triangle is the segment or point
/// it spans. `distance` must be finite and >= 0 (-0 counts as 0); 0 gives the pairs that
/// touch, `collect_intersecting_pairs`'s answer. Sorted by a, then b; the same answer for any
/// thread count (parallel over pairs of subtrees with TBB). Throws `InvalidInput` for a
/// distance that is NaN, infinite or negative, a transform that `collect_intersecting_pairs`
/// refuses, or a bad thread count.
[[nodiscard]] std::vector<TrianglePair> pairs_within(const Bvh& first, const Bvh& second,
                                                     float distance,
                                                     const Transform& second_to_first = {},
                                                     const OverlapOptions& options = {});

/// Every pair a < b of triangles of `bvh` within `distance` of each other (as `pairs_within`
/// decides it) whose triangles share no vertex position (no two corners with exactly equal
/// coordinates, whatever the input's indices): neighbours, always at distance 0, are left out.
/// Sorted by a, then b; the same answer for any thread count. Throws `InvalidInput` as
/// `pairs_within` does.
[[nodiscard]] std::vector<TrianglePair> self_pairs_within(const Bvh& bvh, float distance,
                                                          const OverlapOptions& options = {});

}  // namespace trisect
