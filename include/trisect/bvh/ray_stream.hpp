#pragma once
/// \file
/// Many rays at once: closest and any hits of a whole stream, answered in parallel.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/ray_query.hpp"
#include "trisect/math/ray.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace trisect {

/// `hits[i] = closest_hit(bvh, rays[i])` for every i, the very same answers (the same triangle
/// and the same t, u, v) in less time: the rays are split in blocks among TBB's worker threads
/// (the calling task arena's; run it inside a `tbb::task_arena` to limit them), and each thread
/// walks its rays one after another, each with the single-ray walk. Every ray is validated
/// first: an invalid one throws `InvalidInput` naming its index before any answer is written;
/// so does `hits.size() != rays.size()`.
void closest_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::optional<Hit>> hits);

/// `hit[i] = any_hit(bvh, rays[i])` (1 or 0) for every i, like `closest_hits`.
void any_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::uint8_t> hit);

}  // namespace trisect
