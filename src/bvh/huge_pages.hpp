#pragma once
// Transparent huge pages for the builder's large arrays.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "trisect/bvh/bvh_array.hpp"  // advise_huge_pages

namespace trisect::detail {

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
