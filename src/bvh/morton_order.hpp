#pragma once
// Triangles sorted along a Morton curve of their box centres: the first step of the linear
// builder (morton_build.cpp) and of the clustering one (ploc_build.cpp). Internal.

#include "huge_pages.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace trisect::detail {

/// The keys (code << 32) | id of every triangle of `soup`, in ascending order: `code` the
/// 30-bit Morton code of the triangle's box centre in a 1024³ grid over the centres' box, ties
/// kept in id order. A parallel LSD radix sort (Satish et al.'s chunked counting passes) whose
/// result does not depend on the thread count. `soup` must be non-empty with a valid shape
/// (`soup_shape_is_valid`); throws as `validate(soup)` does when a triangle is invalid (read
/// in the same pass as the centres). The array may sit on huge pages.
[[nodiscard]] std::unique_ptr<std::uint64_t[]> morton_sorted_keys(const TriangleSoup& soup);

/// The code of a key of `morton_sorted_keys`.
[[nodiscard]] inline std::uint32_t code_of_key(std::uint64_t key) noexcept {
  return std::uint32_t(key >> 32);
}
/// The triangle id of a key of `morton_sorted_keys`.
[[nodiscard]] inline TriangleId id_of_key(std::uint64_t key) noexcept { return TriangleId(key); }

/// An array of `count` `T`s left uninitialised (every entry is written before it is read) and
/// backed by huge pages where the kernel allows: zeroing and faulting in fresh pages would
/// otherwise cost as much as a pass over them.
template <class T>
[[nodiscard]] std::unique_ptr<T[]> fresh_array(std::size_t count) {
  auto array = std::make_unique_for_overwrite<T[]>(count);
  advise_huge_pages(array.get(), count * sizeof(T));
  return array;
}

}  // namespace trisect::detail
