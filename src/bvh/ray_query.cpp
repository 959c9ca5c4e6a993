// Rays: closest_hit, any_hit and for_each_hit as visitors of the ordered walk
// (ray_visitors.hpp), each compiled over two wide slab tests, portable and AVX2, and dispatched
// to the AVX2 one when the processor has AVX2 and FMA. Both kernels round every operation alike
// (see wide_ray_slabs.hpp), so they answer identically.
#include "ray_kernels.hpp"
#include "ray_visitors.hpp"

#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/math/validate.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cmath>
#include <optional>

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

// Throws like `validate(ray, "ray query")`, with the valid case decided inline: a ray is
// cheap to answer, and the message-building call costs as much as a short traversal.
void require_valid(const Ray& ray) {
#if defined(__SSE2__)
  // The ray's eight floats in two registers: origin and direction must have exponent bits
  // that are not all ones (finite), t_min and t_max must be ordered (not NaN), and the
  // direction must have a non-zero lane.
  static_assert(sizeof(Ray) == 8 * sizeof(float));
  const float* values = &ray.origin.x;
  const __m128 low = _mm_loadu_ps(values);       // ox oy oz dx
  const __m128 high = _mm_loadu_ps(values + 4);  // dy dz t_min t_max
  const __m128i exponent = _mm_set1_epi32(0x7f800000);
  const auto all_ones = [&](__m128 v) {
    return _mm_movemask_ps(
        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(v), exponent), exponent)));
  };
  const __m128 zero = _mm_setzero_ps();
  const int not_finite = all_ones(low) | (all_ones(high) & 0b0011);
  const int nan_t = _mm_movemask_ps(_mm_cmpunord_ps(high, high)) & 0b1100;
  const int zero_direction = (_mm_movemask_ps(_mm_cmpeq_ps(low, zero)) & 0b1000) |
                             (_mm_movemask_ps(_mm_cmpeq_ps(high, zero)) & 0b0011);
  if (not_finite == 0 && nan_t == 0 && zero_direction != 0b1011) return;
#else
  if (is_finite(ray.origin) && is_finite(ray.direction) && ray.direction != Vec3(0.0f) &&
      !std::isnan(ray.t_min) && !std::isnan(ray.t_max))
    return;
#endif
  validate(ray, "ray query");  // throws with the details
}

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
  require_valid(ray);
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::eight_lane) return closest_hit_eight(bvh, ray, stats);
#endif
  (void)kernel;
  return closest_hit_four(bvh, ray, stats);
}

bool any_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  require_valid(ray);
#if TRISECT_HAVE_AVX2_KERNEL
  if (kernel == RayKernel::eight_lane) return any_hit_eight(bvh, ray, stats);
#endif
  (void)kernel;
  return any_hit_four(bvh, ray, stats);
}

bool for_each_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, HitCallback visit,
                       QueryStats* stats) {
  require_valid(ray);
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
