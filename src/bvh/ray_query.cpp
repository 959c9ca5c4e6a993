// Rays: one traversal source (ray_traversal.inc) compiled as two kernels, portable and AVX2,
// and closest_hit / any_hit dispatching to the AVX2 one when the processor has AVX2. Both
// kernels round every operation alike (no fused multiply-add), so they answer identically.
#include "ray_kernels.hpp"

#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TRISECT_HAVE_AVX_KERNEL 1
#include <immintrin.h>
#else
#define TRISECT_HAVE_AVX_KERNEL 0
#endif

namespace trisect {
namespace detail {
namespace {

/// Exact: the ray meets `triangle` (hit `hit`) strictly before `best` (hit `best_hit`).
bool is_nearer(const Ray& ray, const RayTriangleHit& hit, const Triangle& triangle,
               const RayTriangleHit& best_hit, const Triangle& best) {
  if (hit.t + hit.t_error < best_hit.t - best_hit.t_error) return true;
  if (hit.t - hit.t_error > best_hit.t + best_hit.t_error) return false;
  return compare_exact_parameters(ray, best, triangle) < 0;
}

}  // namespace

namespace four_lane {
#define RAY_KERNEL_TARGET
#define RAY_KERNEL_AVX 0
#include "ray_traversal.inc"
#undef RAY_KERNEL_AVX
#undef RAY_KERNEL_TARGET
}  // namespace four_lane

#if TRISECT_HAVE_AVX_KERNEL
namespace eight_lane {
#define RAY_KERNEL_TARGET __attribute__((target("avx2")))
#define RAY_KERNEL_AVX 1
#include "ray_traversal.inc"
#undef RAY_KERNEL_AVX
#undef RAY_KERNEL_TARGET
}  // namespace eight_lane
#endif

namespace {

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

#if TRISECT_HAVE_AVX_KERNEL
// Read at every query; set before main. A query made by another static initializer before
// this one runs sees false and takes the portable kernel, which answers the same.
// __builtin_cpu_init first: static initializers may run before the compiler runtime's own.
const bool processor_has_avx2_kernel = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
#endif

bool processor_has_avx2() noexcept {
#if TRISECT_HAVE_AVX_KERNEL
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
#if TRISECT_HAVE_AVX_KERNEL
  if (kernel == RayKernel::eight_lane) return eight_lane::closest_hit(bvh, ray, stats);
#endif
  (void)kernel;
  return four_lane::closest_hit(bvh, ray, stats);
}

bool any_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  require_valid(ray);
#if TRISECT_HAVE_AVX_KERNEL
  if (kernel == RayKernel::eight_lane) return eight_lane::any_hit(bvh, ray, stats);
#endif
  (void)kernel;
  return four_lane::any_hit(bvh, ray, stats);
}

}  // namespace detail

std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return detail::closest_hit_with(detail::chosen_ray_kernel(), bvh, ray, stats);
}

bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats) {
  return detail::any_hit_with(detail::chosen_ray_kernel(), bvh, ray, stats);
}

}  // namespace trisect
