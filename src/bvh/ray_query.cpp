// Rays: closest_hit, any_hit and for_each_hit as visitors of the ordered walk
// (ray_visitors.hpp), each compiled over two wide slab tests, portable and AVX2, and dispatched
// to the AVX2 one when the processor has AVX2 and FMA. Both kernels round every operation alike
// (see wide_ray_slabs.hpp), so they answer identically.
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
  if (ray.t_min <= ray.t_max) ordered_walk<order>(bvh, visitor, stats);
  return visitor.result();
}

std::optional<Hit> closest_hit_four(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return walk_ray<ClosestHitVisitor, FourLaneRaySlabs, WalkOrder::nearest_first>(bvh, ray, stats);
}
bool any_hit_four(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return walk_ray<AnyHitVisitor, FourLaneRaySlabs, WalkOrder::lane_order>(bvh, ray, stats);
}
bool every_hit_four(const Bvh& bvh, const Ray& ray, HitCallback visit, QueryStats* stats) {
  return walk_ray<EveryHitVisitor, FourLaneRaySlabs, WalkOrder::nearest_first>(bvh, ray, stats,
                                                                               visit);
}

#if TRISECT_HAVE_AVX2_KERNEL
TRISECT_AVX2_TARGET std::optional<Hit> closest_hit_eight(const Bvh& bvh, const Ray& ray,
                                                         QueryStats* stats) {
  return walk_ray<ClosestHitVisitor, EightLaneRaySlabs, WalkOrder::nearest_first>(bvh, ray, stats);
}
TRISECT_AVX2_TARGET bool any_hit_eight(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return walk_ray<AnyHitVisitor, EightLaneRaySlabs, WalkOrder::lane_order>(bvh, ray, stats);
}
TRISECT_AVX2_TARGET bool every_hit_eight(const Bvh& bvh, const Ray& ray, HitCallback visit,
                                         QueryStats* stats) {
  return walk_ray<EveryHitVisitor, EightLaneRaySlabs, WalkOrder::nearest_first>(bvh, ray, stats,
                                                                                visit);
}
#endif

#if TRISECT_HAVE_AVX2_KERNEL
// Read at every query; set before main. A query made by another static initializer before
// this one runs sees false and takes the portable kernel, which answers the same.
// __builtin_cpu_init first: static initializers may run before the compiler runtime's own.
const bool processor_has_avx2_kernel = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
}();
#endif

bool processor_has_avx2() noexcept {
#if TRISECT_HAVE_AVX2_KERNEL
  return processor_has_avx2_kernel;
#else
  return false;
#endif
}

}  // namespace

bool available(RayKernel kernel) noexcept {
  return kernel == RayKernel::four_lane || processor_has_avx2();
}

RayKernel chosen_ray_kernel() noexcept {
  return processor_has_avx2() ? RayKernel::eight_lane : RayKernel::four_lane;
}

std::optional<Hit> closest_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray,
                                    QueryStats* stats) {
  require_valid(ray, [] { return std::string("ray query"); });
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::eight_lane) return closest_hit_eight(bvh, ray, stats);
#endif
  (void)kernel;
  return closest_hit_four(bvh, ray, stats);
}

bool any_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  require_valid(ray, [] { return std::string("ray query"); });
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::eight_lane) return any_hit_eight(bvh, ray, stats);
#endif
  (void)kernel;
  return any_hit_four(bvh, ray, stats);
}

bool for_each_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, HitCallback visit,
                       QueryStats* stats) {
  require_valid(ray, [] { return std::string("ray query"); });
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::eight_lane) return every_hit_eight(bvh, ray, visit, stats);
#endif
  (void)kernel;
  return every_hit_four(bvh, ray, visit, stats);
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
