// Rays: closest_hit, any_hit and for_each_hit as visitors of the ordered walk
// (ray_visitors.hpp), each compiled over three wide slab tests, portable, AVX2 and AVX-512, and
// dispatched to the widest the processor has. The kernels round every operation alike (see
// wide_ray_slabs.hpp), so they answer identically.
#include "ray_kernels.hpp"
#include "ray_validity.hpp"
#include "ray_visitors.hpp"

#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/math/validate.hpp"

#include <cmath>
#include <optional>
#include <string>

namespace trisect {
namespace detail {
namespace {

/// The answer of `Visitor` over slab test `Slabs` for a valid ray (`args` after the ray go to
/// the visitor's constructor). Inlined into each kernel's entry point, so that the walk and
/// the node test are compiled for the entry point's instruction set.
template <template <class> class Visitor, class Slabs, WalkOrder order, class... Args>
[[gnu::always_inline]] inline auto walk_ray(const Bvh& bvh, const Ray& ray, QueryStats* stats,
                                            Args... args) {
  Visitor<Slabs> visitor(bvh, ray, args...);
  if (ray.t_min <= ray.t_max) walk_ray_nodes<order>(bvh, visitor, stats);
  return visitor.result();
}

/// `walk_ray` with the portable node test.
template <template <class> class Visitor, WalkOrder order, class... Args>
auto walk_ray_four(const Bvh& bvh, const Ray& ray, QueryStats* stats, Args... args) {
  return walk_ray<Visitor, FourLaneRaySlabs, order>(bvh, ray, stats, args...);
}

#if TRISECT_HAVE_AVX2_KERNEL
/// `walk_ray` with the AVX2 node test.
template <template <class> class Visitor, WalkOrder order, class... Args>
TRISECT_AVX2_TARGET auto walk_ray_eight(const Bvh& bvh, const Ray& ray, QueryStats* stats,
                                        Args... args) {
  return walk_ray<Visitor, EightLaneRaySlabs, order>(bvh, ray, stats, args...);
}

/// `walk_ray` with the AVX-512 node test.
template <template <class> class Visitor, WalkOrder order, class... Args>
TRISECT_AVX512_TARGET auto walk_ray_mask(const Bvh& bvh, const Ray& ray, QueryStats* stats,
                                         Args... args) {
  return walk_ray<Visitor, MaskRegisterRaySlabs, order>(bvh, ray, stats, args...);
}

#endif

}  // namespace

bool available(RayKernel kernel) noexcept {
  switch (kernel) {
    case RayKernel::four_lane:
      return true;
    case RayKernel::eight_lane:
      return processor_has_avx2();
    case RayKernel::mask_register:
      return processor_has_avx512();
  }
  return false;
}

RayKernel chosen_ray_kernel() noexcept {
  if (processor_has_avx512()) return RayKernel::mask_register;
  return processor_has_avx2() ? RayKernel::eight_lane : RayKernel::four_lane;
}

namespace {

/// The ray checked, then `Visitor`'s answer with `kernel`.
template <template <class> class Visitor, WalkOrder order, class... Args>
auto answer_ray(RayKernel kernel, const Bvh& bvh, const Ray& ray, QueryStats* stats, Args... args) {
  require_valid(ray, [] { return std::string("ray query"); });
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::mask_register)
    return walk_ray_mask<Visitor, order>(bvh, ray, stats, args...);
  if (kernel == RayKernel::eight_lane)
    return walk_ray_eight<Visitor, order>(bvh, ray, stats, args...);
#endif
  (void)kernel;
  return walk_ray_four<Visitor, order>(bvh, ray, stats, args...);
}

}  // namespace

std::optional<Hit> closest_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray,
                                    QueryStats* stats) {
  return answer_ray<ClosestHitVisitor, WalkOrder::nearest_first>(kernel, bvh, ray, stats);
}

bool any_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return answer_ray<AnyHitVisitor, WalkOrder::lane_order>(kernel, bvh, ray, stats);
}

bool for_each_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, HitCallback visit,
                       QueryStats* stats) {
  return answer_ray<EveryHitVisitor, WalkOrder::nearest_first>(kernel, bvh, ray, stats, visit);
}

bool for_each_hit(const Bvh& bvh, const Ray& ray, HitCallback visit, QueryStats* stats) {
  return for_each_hit_with(chosen_ray_kernel(), bvh, ray, visit, stats);
}

}  // namespace detail

std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return detail::closest_hit_with(detail::chosen_ray_kernel(), bvh, ray, stats);
}

bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return detail::any_hit_with(detail::chosen_ray_kernel(), bvh, ray, stats);
}

}  // namespace trisect
