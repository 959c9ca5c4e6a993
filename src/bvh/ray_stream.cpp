// Ray streams: the rays of a stream split among TBB's threads in blocks, each ray answered by
// the single-ray visitors of ray_visitors.hpp, so the answers are the single-ray calls' bit for
// bit. Tried and left out (bench/README.md): interleaving 2, 4 or 8 rays' walks on a thread,
// one step of each in turn, so that one walk's prefetched nodes arrive while the others work
// (software pipelining across rays): 3% faster on random rays over bunny_x16, 15-25% slower on
// primary ones, the walk being bound by its instructions more than by memory.
#include "ray_kernels.hpp"
#include "ray_validity.hpp"
#include "ray_visitors.hpp"
#include "trisect/detail/thread_fallback.hpp"

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

/// Answers rays [begin, end) one after the other: `answers[i]` takes the result of ray i's
/// visitor. Inlined into each kernel's entry point below. (Interleaving several rays' walks,
/// one step of each in turn, was measured slower: see the file's comment.)
template <template <class> class Visitor, class Slabs, WalkOrder order, class Answer>
[[gnu::always_inline]] inline void answer_rays(const Bvh& bvh, std::span<const Ray> rays,
                                               std::span<Answer> answers, std::size_t begin,
                                               std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    Visitor<Slabs> visitor(bvh, rays[i]);
    if (rays[i].t_min <= rays[i].t_max) walk_ray_nodes<order>(bvh, visitor);
    answers[i] = static_cast<Answer>(visitor.result());
  }
}

/// `answer_rays` with the portable node test.
template <template <class> class Visitor, WalkOrder order, class Answer>
void answer_rays_four(const Bvh& bvh, std::span<const Ray> rays, std::span<Answer> answers,
                      std::size_t begin, std::size_t end) {
  answer_rays<Visitor, FourLaneRaySlabs, order>(bvh, rays, answers, begin, end);
}

#if TRISECT_HAVE_AVX2_KERNEL
/// `answer_rays` with the AVX2 node test.
template <template <class> class Visitor, WalkOrder order, class Answer>
TRISECT_AVX2_TARGET void answer_rays_eight(const Bvh& bvh, std::span<const Ray> rays,
                                           std::span<Answer> answers, std::size_t begin,
                                           std::size_t end) {
  answer_rays<Visitor, EightLaneRaySlabs, order>(bvh, rays, answers, begin, end);
}

/// `answer_rays` with the AVX-512 node test.
template <template <class> class Visitor, WalkOrder order, class Answer>
TRISECT_AVX512_TARGET void answer_rays_mask(const Bvh& bvh, std::span<const Ray> rays,
                                            std::span<Answer> answers, std::size_t begin,
                                            std::size_t end) {
  answer_rays<Visitor, MaskRegisterRaySlabs, order>(bvh, rays, answers, begin, end);
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

/// The stream: every ray checked, then blocks of rays answered in parallel with the chosen
/// kernel.
template <template <class> class Visitor, WalkOrder order, class Answer>
void answer_stream(const Bvh& bvh, std::span<const Ray> rays, std::span<Answer> answers) {
  check_stream(rays, answers.size());
  const RayKernel kernel = chosen_ray_kernel();
  with_thread_fallback(0, [&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, rays.size(), rays_per_task),
        [&](const tbb::blocked_range<std::size_t>& range) {
#if TRISECT_HAVE_AVX2_KERNEL
          if (kernel == RayKernel::mask_register)
            return answer_rays_mask<Visitor, order>(bvh, rays, answers, range.begin(), range.end());
          if (kernel == RayKernel::eight_lane)
            return answer_rays_eight<Visitor, order>(bvh, rays, answers, range.begin(),
                                                     range.end());
#endif
          (void)kernel;
          answer_rays_four<Visitor, order>(bvh, rays, answers, range.begin(), range.end());
        });
  });
}

}  // namespace
}  // namespace detail

void closest_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::optional<Hit>> hits) {
  detail::answer_stream<detail::ClosestHitVisitor, WalkOrder::nearest_first>(bvh, rays, hits);
}

void any_hits(const Bvh& bvh, std::span<const Ray> rays, std::span<std::uint8_t> hit) {
  detail::answer_stream<detail::AnyHitVisitor, WalkOrder::lane_order>(bvh, rays, hit);
}

}  // namespace trisect
