#pragma once
// The references the SAH builder sorts (build.cpp, sah_binning.hpp, sah_partition.hpp): one per
// triangle, its bounds with its id packed in a spare lane, and the bounds of a range of them
// (its triangles' boxes and their centroids), gathered in parallel for long ranges.
//
// Determinism: the parallel reduction combines exact operations (float min and max), so the
// bounds do not depend on how the range is cut.

#include "box4.hpp"
#include "trisect/bvh/bvh.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstddef>
#include <cstring>

namespace trisect::detail {

/// A triangle's bounds; the unused fourth lane of `lower` carries its id's bits.
struct alignas(16) Reference {
  float lower[4];
  float upper[4];

  [[nodiscard]] Box4 box() const { return {Float4::load_xyz(lower), Float4::load(upper)}; }
  /// Twice the centroid (lower + upper): the bin mapping needs no halving.
  [[nodiscard]] Float4 centroid2() const { return Float4::load_xyz(lower) + Float4::load(upper); }
  [[nodiscard]] TriangleId id() const {
    TriangleId id;
    std::memcpy(&id, &lower[3], sizeof id);
    return id;
  }
  [[nodiscard]] static Reference of(const Aabb& bounds, TriangleId id) {
    Reference reference{{bounds.min.x, bounds.min.y, bounds.min.z, 0.0f},
                        {bounds.max.x, bounds.max.y, bounds.max.z, 0.0f}};
    std::memcpy(&reference.lower[3], &id, sizeof id);
    return reference;
  }
};

/// Bounds of a range of references and of their doubled centroids.
struct RangeBounds {
  Box4 bounds = Box4::empty();
  Box4 centroids = Box4::empty();

  void add(const Reference& reference) {
    bounds.extend(reference.box());
    centroids.extend(reference.centroid2());
  }
  void add(const RangeBounds& other) {
    bounds.extend(other.bounds);
    centroids.extend(other.centroids);
  }
};

/// Ranges at least this large bin and gather bounds in parallel.
inline constexpr std::size_t parallel_scan_threshold = 1 << 16;

/// Bounds of references [begin, end): in parallel above `parallel_scan_threshold`.
[[nodiscard]] inline RangeBounds bounds_of(const Reference* references, std::size_t begin,
                                           std::size_t end) {
  const auto scan = [&](const tbb::blocked_range<std::size_t>& r, RangeBounds into) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) into.add(references[i]);
    return into;
  };
  if (end - begin < parallel_scan_threshold)
    return scan(tbb::blocked_range<std::size_t>(begin, end), RangeBounds{});
  return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(begin, end, 8192), RangeBounds{},
                              scan, [](RangeBounds a, const RangeBounds& b) {
                                a.add(b);
                                return a;
                              });
}

}  // namespace trisect::detail
