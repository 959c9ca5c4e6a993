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

#include "morton_order.hpp"
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
  /// The triangles' Morton keys (code << 32 | id), sorted: cluster c holds the keys
  /// [starts[c], starts[c + 1]).
  std::unique_ptr<std::uint64_t[]> keys;
  std::vector<std::uint32_t> starts;

  /// Calls `visit(id)` for each triangle of cluster `cluster`, in key order.
  template <class Visit>
  void for_each_triangle(TriangleId cluster, const Visit& visit) const {
    for (std::uint32_t k = starts[cluster]; k != starts[cluster + 1]; ++k)
      visit(id_of_key(keys[k]));
  }
};

/// The clusters of the `size` (>= 1) triangles whose references are `triangles`, indexed by
/// id, inside `bounds` (their union): keys sorted by the Morton code of the boxes' centres over
/// `bounds`, cut recursively at the highest differing code bit until a range has at most
/// `max_size` (>= 1) triangles.
[[nodiscard]] Clusters make_clusters(const Reference* triangles, std::size_t size,
                                     const Box4& bounds, std::uint32_t max_size);

}  // namespace trisect::detail
