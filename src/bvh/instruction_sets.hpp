#pragma once
// The x86-64 instruction sets past the baseline that some kernels are compiled for (the ray
// slab tests of wide_ray_slabs.hpp), and whether the processor running the library has
// them. A kernel for a set is a function marked with its target attribute, called only when
// the processor has the set. Internal to the library.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TRISECT_HAVE_AVX2_KERNEL 1
#define TRISECT_AVX2_TARGET __attribute__((target("avx2,fma")))
#define TRISECT_AVX512_TARGET __attribute__((target("avx512f,avx512vl,avx2,fma")))
#include <immintrin.h>
#else
#define TRISECT_HAVE_AVX2_KERNEL 0
#endif

namespace trisect::detail {

#if TRISECT_HAVE_AVX2_KERNEL
/// True when the processor runs AVX2 and FMA (what `TRISECT_AVX2_TARGET` compiles for). Asked
/// once, at the first call (a function-local static: safe from static initializers too, and
/// inline, as every ray query asks); __builtin_cpu_init first, as the compiler runtime's own
/// initializer may not have run yet.
[[nodiscard]] inline bool processor_has_avx2() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
  }();
  return has;
}
/// True when the processor runs AVX-512 F and VL besides (what `TRISECT_AVX512_TARGET` compiles
/// for).
[[nodiscard]] inline bool processor_has_avx512() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return processor_has_avx2() && __builtin_cpu_supports("avx512f") != 0 &&
           __builtin_cpu_supports("avx512vl") != 0;
  }();
  return has;
}
#else
/// No kernels past the baseline where the library is not built for x86-64 with GCC or Clang.
[[nodiscard]] inline bool processor_has_avx2() noexcept { return false; }
[[nodiscard]] inline bool processor_has_avx512() noexcept { return false; }
#endif

}  // namespace trisect::detail
