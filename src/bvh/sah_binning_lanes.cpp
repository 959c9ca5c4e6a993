// The eight-lane binning kernels of the SAH builder (`bin_in_lanes`, sah_binning.hpp): one
// body (sah_binning_lanes.inc) compiled for AVX2 and for AVX-512, the widest the processor
// runs chosen at the first call. Both compute every bin with the operations of
// `BinMapping::bins` and extend the bins by exact min and max, so they bin exactly as the
// portable loop does, and the tree does not depend on the processor.
#include "instruction_sets.hpp"
#include "sah_binning.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>

namespace trisect::detail {

#if TRISECT_HAVE_AVX2_KERNEL
namespace avx2_binning {
#define TRISECT_BINNING_TARGET TRISECT_AVX2_TARGET
#define TRISECT_BINNING_AVX512 0
#include "sah_binning_lanes.inc"
#undef TRISECT_BINNING_TARGET
#undef TRISECT_BINNING_AVX512
}  // namespace avx2_binning

// GCC 12's 512-bit intrinsics start from _mm512_undefined_ps, which it then warns may be used
// uninitialised (GCC bug 105593, fixed in 13).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
namespace avx512_binning {
#define TRISECT_BINNING_TARGET TRISECT_AVX512_TARGET
#define TRISECT_BINNING_AVX512 1
#include "sah_binning_lanes.inc"
#undef TRISECT_BINNING_TARGET
#undef TRISECT_BINNING_AVX512
}  // namespace avx512_binning
#pragma GCC diagnostic pop

bool lanes_binning_available() noexcept { return processor_has_avx2(); }

void bin_in_lanes(const Reference* references, std::size_t begin, std::size_t end,
                  const BinMapping& mapping, Binning& into, LanesKernel kernel) {
  if (kernel == LanesKernel::widest && processor_has_avx512())
    return avx512_binning::bin(references, begin, end, mapping, into);
  avx2_binning::bin(references, begin, end, mapping, into);
}
#else
bool lanes_binning_available() noexcept { return false; }

void bin_in_lanes(const Reference* references, std::size_t begin, std::size_t end,
                  const BinMapping& mapping, Binning& into, LanesKernel) {
  for (std::size_t i = begin; i != end; ++i) binning::bin_one(references[i], mapping, into);
}
#endif

}  // namespace trisect::detail
