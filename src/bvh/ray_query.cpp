// Rays: one traversal source (ray_traversal.inc) compiled as two kernels, portable and AVX,
// and closest_hit / any_hit dispatching to the AVX one when the processor has AVX. Both
// kernels round every operation alike (no fused multiply-add), so they answer identically.
#include "ray_kernels.hpp"

#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TRISECT_HAVE_AVX_KERNEL 1
#include <immintrin.h>
#else
#define TRISECT_HAVE_AVX_KERNEL 0
#endif

namespace trisect {
namespace detail {

namespace four_lane {
#define RAY_KERNEL_TARGET
#define RAY_KERNEL_AVX 0
#include "ray_traversal.inc"
#undef RAY_KERNEL_AVX
#undef RAY_KERNEL_TARGET
}  // namespace four_lane

#if TRISECT_HAVE_AVX_KERNEL
namespace eight_lane {
#define RAY_KERNEL_TARGET __attribute__((target("avx")))
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
  if (!is_finite(ray.origin) || !is_finite(ray.direction) || ray.direction == Vec3(0.0f) ||
      std::isnan(ray.t_min) || std::isnan(ray.t_max))
    validate(ray, "ray query");  // throws with the details
}

bool processor_has_avx() noexcept {
#if TRISECT_HAVE_AVX_KERNEL
  static const bool has = __builtin_cpu_supports("avx");
  return has;
#else
  return false;
#endif
}

}  // namespace

bool available(RayKernel kernel) noexcept {
  return kernel == RayKernel::four_lane || processor_has_avx();
}

RayKernel chosen_ray_kernel() noexcept {
  return processor_has_avx() ? RayKernel::eight_lane : RayKernel::four_lane;
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
