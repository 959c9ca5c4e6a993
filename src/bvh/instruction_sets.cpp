#include "instruction_sets.hpp"

namespace trisect::detail {

#if TRISECT_HAVE_AVX2_KERNEL
// Asked once, at the first call (function-local statics: safe from static initializers too);
// __builtin_cpu_init first, as the compiler runtime's own initializer may not have run yet.
bool processor_has_avx2() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0;
  }();
  return has;
}

bool processor_has_avx512() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return processor_has_avx2() && __builtin_cpu_supports("avx512f") != 0 &&
           __builtin_cpu_supports("avx512vl") != 0;
  }();
  return has;
}
#else
bool processor_has_avx2() noexcept { return false; }
bool processor_has_avx512() noexcept { return false; }
#endif

}  // namespace trisect::detail
