#include "trisect/math/processor.hpp"

namespace trisect::detail {
namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// __builtin_cpu_init first: static initializers may run before the compiler runtime's own.
const bool avx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
#else
const bool avx2 = false;
#endif

}  // namespace

bool processor_has_avx2() noexcept { return avx2; }

}  // namespace trisect::detail
