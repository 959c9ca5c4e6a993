#pragma once
// The SAH builder's units (build.cpp): the triangles sorted along a Morton curve and cut into
// clusters of at most a few neighbours, each binned as one reference weighted by its triangle
// count. The top-down search then touches a fraction of the references at every level, while
// the clusters, cut where the codes' highest differing bit changes, are as compact as the
// linear builder's leaves. After the two-level designs of Pantaleoni & Luebke ("HLBVH", HPG
// 2010: SAH above Morton clusters) and Ganestam et al. ("Bonsai: Rapid Bounding Volume
// Hierarchy Generation using Mini Trees", JCGT 2015). Internal.
//
// Determinism: the keys are sorted by (code, id), so the clusters do not depend on the thread
// count.

#include "sah_reference.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace trisect::detail {

/// Clusters of triangles adjacent in Morton order, as references.
struct Clusters {
  /// One per cluster: the union of its triangles' boxes, its index as id, its triangle count
  /// as weight.
  std::unique_ptr<Reference[]> references;
  std::size_t count = 0;
  /// The triangles' references in Morton order (by code, then id): cluster c holds
  /// [starts[c], starts[c + 1]).
  std::unique_ptr<Reference[]> triangles;
  std::vector<std::uint32_t> starts;

  /// The triangles' references of cluster `cluster`, and their end.
  [[nodiscard]] const Reference* begin_of(TriangleId cluster) const {
    return triangles.get() + starts[cluster];
  }
  [[nodiscard]] const Reference* end_of(TriangleId cluster) const {
    return triangles.get() + starts[cluster + 1];
  }
};

/// The clusters of the `size` (>= 1) triangles whose references are `by_id` (freed here, once
/// copied into Morton order), inside `bounds` (their union): sorted by the Morton code of the
/// boxes' centres over `bounds` and cut recursively at the highest differing code bit until a
/// range has at most `max_size` (>= 1) triangles.
[[nodiscard]] Clusters make_clusters(std::unique_ptr<Reference[]> by_id, std::size_t size,
                                     const Box4& bounds, std::uint32_t max_size);

}  // namespace trisect::detail
