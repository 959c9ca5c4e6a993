#pragma once
// Transparent huge pages for the builder's large arrays.

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace trisect::detail {

/// Asks the kernel to back the whole 4 KiB pages inside [data, data + bytes) with transparent
/// huge pages. A build writes a few hundred megabytes of fresh memory for a million triangles;
/// with 4 KiB pages, faulting them in costs about a quarter of the build. Only advice: a
/// kernel without huge pages ignores it, and elsewhere than Linux it does nothing. Call it
/// before the memory is first written.
inline void advise_huge_pages(const void* data, std::size_t bytes) noexcept {
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

/// Resizes the empty `array` to `size` elements, its storage advised for huge pages before
/// the elements are first written (for the arrays a query reads, where huge pages also spare
/// the translation misses of random accesses).
template <class T, class Allocator>
void resize_on_huge_pages(std::vector<T, Allocator>& array, std::size_t size) {
  array.reserve(size);
  advise_huge_pages(array.data(), size * sizeof(T));
  array.resize(size);
}

}  // namespace trisect::detail
