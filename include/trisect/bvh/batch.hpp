#pragma once
/// \file
/// Many queries answered in parallel.

#include "trisect/bvh/collect.hpp"
#include "trisect/bvh/ray_query.hpp"
#include "trisect/bvh/ray_stream.hpp"
#include "trisect/detail/thread_fallback.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace trisect {

/// For each shape (box, plane or ball), the sorted input ids of the triangles touching it; the
/// answer at index i is for shapes[i], exactly as `collect_touching` gives it. Every shape is
/// validated first, so that an invalid one throws `InvalidInput` naming its index before any
/// work is done. Runs on TBB's worker threads; results do not depend on their number.
template <QueryShape Shape>
[[nodiscard]] std::vector<std::vector<TriangleId>> collect_touching_batch(
    const Bvh& bvh, std::span<const Shape> shapes) {
  std::vector<decltype(make_query(bvh, shapes[0]))> queries;
  queries.reserve(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    try {
      queries.push_back(make_query(bvh, shapes[i]));
    } catch (const InvalidInput& error) {
      throw InvalidInput("batch query " + std::to_string(i) + ": " + error.what());
    }
  }
  std::vector<std::vector<TriangleId>> answers(shapes.size());
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, shapes.size()), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i)
        answers[i] = collect_touching(bvh, queries[i]);
    });
  });
  return answers;
}

/// For each ray, `closest_hit`, by `closest_hits` (ray_stream.hpp): validated first like
/// `collect_touching_batch`, answered in parallel.
[[nodiscard]] inline std::vector<std::optional<Hit>> closest_hit_batch(const Bvh& bvh,
                                                                       std::span<const Ray> rays) {
  std::vector<std::optional<Hit>> answers(rays.size());
  closest_hits(bvh, rays, answers);
  return answers;
}

}  // namespace trisect
