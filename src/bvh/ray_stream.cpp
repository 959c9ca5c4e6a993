// Ray streams: the rays of a stream split among TBB's threads in blocks, each ray answered by
// the single-ray visitors of ray_visitors.hpp, so the answers are the single-ray calls' bit for
// bit. Tried and left out (bench/README.md): interleaving 2, 4 or 8 rays' walks on a thread,
// one step of each in turn, so that one walk's prefetched nodes arrive while the others work
// (software pipelining across rays): 3% faster on random rays over bunny_x16, 15-25% slower on
// primary ones, the walk being bound by its instructions more than by memory.
#include "ray_kernels.hpp"
#include "ray_validity.hpp"
#include "ray_visitors.hpp"

#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/bvh/ray_stream.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <optional>
#include <string>

namespace trisect {
namespace detail {
namespace {

/// Rays handed to a thread at a time.
constexpr std::size_t rays_per_task = 256;

/// Answers rays [begin, end) one after the other; `store(i, visitor)` writes ray i's answer.
/// Inlined into each kernel's entry point. (Interleaving several rays' walks, one step of each
/// in turn, was measured slower: see the file's comment.)
template <template <class> class Visitor, class Slabs, WalkOrder order, class Store>
[[gnu::always_inline]] inline void answer_rays(const Bvh& bvh, std::span<const Ray> rays,
                                               std::size_t begin, std::size_t end, Store store) {
  for (std::size_t i = begin; i < end; ++i) {
    Visitor<Slabs> visitor(bvh, rays[i]);
    if (rays[i].t_min <= rays[i].t_max) ordered_walk<order>(bvh, visitor);
    store(i, visitor);
  }
}

void closest_hits_four(const Bvh& bvh, std::span<const Ray> rays,
                       std::span<std::optional<Hit>> hits, std::size_t begin, std::size_t end) {
  answer_rays<ClosestHitVisitor, FourLaneRaySlabs, WalkOrder::nearest_first>(
      bvh, rays, begin, end,
      [&](std::size_t i, const auto& visitor) { hits[i] = visitor.result(); });
}
void any_hits_four(const Bvh& bvh, std::span<const Ray> rays, std::span<std::uint8_t> hit,
                   std::size_t begin, std::size_t end) {
  answer_rays<AnyHitVisitor, FourLaneRaySlabs, WalkOrder::lane_order>(
      bvh, rays, begin, end,
      [&](std::size_t i, const auto& visitor) { hit[i] = visitor.result() ? 1 : 0; });
}

#if TRISECT_HAVE_AVX2_KERNEL
TRISECT_AVX2_TARGET void closest_hits_eight(const Bvh& bvh, std::span<const Ray> rays,
                                            std::span<std::optional<Hit>> hits, std::size_t begin,
                                            std::size_t end) {
  answer_rays<ClosestHitVisitor, EightLaneRaySlabs, WalkOrder::nearest_first>(
      bvh, rays, begin, end,
      [&](std::size_t i, const auto& visitor) { hits[i] = visitor.result(); });
}
TRISECT_AVX2_TARGET void any_hits_eight(const Bvh& bvh, std::span<const Ray> rays,
                                        std::span<std::uint8_t> hit, std::size_t begin,
                                        std::size_t end) {
  answer_rays<AnyHitVisitor, EightLaneRaySlabs, WalkOrder::lane_order>(
      bvh, rays, begin, end,
      [&](std::size_t i, const auto& visitor) { hit[i] = visitor.result() ? 1 : 0; });
}
#endif

/// Throws `InvalidInput` for the first invalid ray, or when the answer span's size differs.
void check_stream(std::span<const Ray> rays, std::size_t answers) {
  if (answers != rays.size())
    throw InvalidInput("ray stream: " + std::to_string(rays.size()) + " rays but room for " +
                       std::to_string(answers) + " answers");
  for (std::size_t i = 0; i < rays.size(); ++i) {
    require_valid(rays[i], [i] {
      std::string what = "ray ";
      what += std::to_string(i);
      return what;
    });
  }
}

/// Runs `answer(begin, end)` over the rays in parallel.
template <class Answer>
void for_each_task(std::size_t count, Answer&& answer) {
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, count, rays_per_task),
      [&](const tbb::blocked_range<std::size_t>& range) { answer(range.begin(), range.end()); });
}

}  // namespace
}  // namespace detail

void closest_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::optional<Hit>> hits) {
  detail::check_stream(rays, hits.size());
  const bool eight = detail::chosen_ray_kernel() == detail::RayKernel::eight_lane;
  detail::for_each_task(rays.size(), [&](std::size_t begin, std::size_t end) {
#if TRISECT_HAVE_AVX2_KERNEL
    if (eight) return detail::closest_hits_eight(bvh, rays, hits, begin, end);
#endif
    (void)eight;
    detail::closest_hits_four(bvh, rays, hits, begin, end);
  });
}

void any_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::uint8_t> hit) {
  detail::check_stream(rays, hit.size());
  const bool eight = detail::chosen_ray_kernel() == detail::RayKernel::eight_lane;
  detail::for_each_task(rays.size(), [&](std::size_t begin, std::size_t end) {
#if TRISECT_HAVE_AVX2_KERNEL
    if (eight) return detail::any_hits_eight(bvh, rays, hit, begin, end);
#endif
    (void)eight;
    detail::any_hits_four(bvh, rays, hit, begin, end);
  });
}

}  // namespace trisect
