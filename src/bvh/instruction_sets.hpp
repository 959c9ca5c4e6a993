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

/// True when the processor runs AVX2 and FMA (what `TRISECT_AVX2_TARGET` compiles for); false
/// where the library has no such kernels.
[[nodiscard]] bool processor_has_avx2() noexcept;
/// True when the processor runs AVX-512 F and VL besides (what `TRISECT_AVX512_TARGET` compiles
/// for).
[[nodiscard]] bool processor_has_avx512() noexcept;

}  // namespace trisect::detail
