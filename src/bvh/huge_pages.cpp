// Transparent huge pages (declared in trisect/bvh/bvh_array.hpp, whose copies use it).
#include "trisect/bvh/bvh_array.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace trisect::detail {

void advise_huge_pages(const void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t page = 4096;
  constexpr std::size_t worthwhile = std::size_t{4} << 20;  // smaller arrays gain nothing
  if (bytes < worthwhile) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace trisect::detail
