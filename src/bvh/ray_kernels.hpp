#pragma once
// The ray traversal kernels behind closest_hit and any_hit (portable, AVX2, AVX-512), for
// tests that check that all give the same answers. Internal to the library (src/, not installed).
#include "trisect/bvh/ray_query.hpp"

namespace trisect::detail {

/// A compiled form of the ray traversal.
enum class RayKernel {
  four_lane,   ///< Portable: SSE on x86-64 (two groups of four lanes per node), scalar elsewhere.
  eight_lane,  ///< AVX2: all eight lanes of a node in one operation per row.
  /// AVX-512 (F and VL): as `eight_lane`, its lane comparisons into mask registers and the walk
  /// and leaf tests compiled for AVX-512.
  mask_register,
};

/// True when this build has `kernel` and the processor can run it.
[[nodiscard]] bool available(RayKernel kernel) noexcept;

/// The kernel `closest_hit` and `any_hit` use: mask_register where available, else
/// eight_lane where available, else four_lane.
[[nodiscard]] RayKernel chosen_ray_kernel() noexcept;

/// `closest_hit` with the given kernel, which must be available.
[[nodiscard]] std::optional<Hit> closest_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray,
                                                  QueryStats* stats = nullptr);

/// `any_hit` with the given kernel, which must be available.
[[nodiscard]] bool any_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray,
                                QueryStats* stats = nullptr);

/// `for_each_hit` with the given kernel, which must be available.
bool for_each_hit_with(RayKernel kernel, const Bvh& bvh, const Ray& ray, HitCallback visit,
                       QueryStats* stats = nullptr);

}  // namespace trisect::detail
