#pragma once
// Triangles sorted along a Morton curve of their box centres: the first step of the linear
// builder (morton_build.cpp) and of the clustering one (ploc_build.cpp). Internal.

#include "huge_pages.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

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

/// Morton codes of points in a box: each axis of `bounds` cut into 1024 cells (in double, so
/// that no extent overflows; a point outside falls in the nearest cell), the three 10-bit cell
/// numbers interleaved, x in the highest bit of each triple. An axis where the box is flat maps
/// every point to cell 0.
class MortonCoder {
 public:
  static constexpr int bits_per_axis = 10;

  explicit MortonCoder(const Aabb& bounds);
  /// The 30-bit code of `point`.
  [[nodiscard]] std::uint32_t code(const Vec3& point) const noexcept;

 private:
  Vec3 low_;
  double scale_[3] = {0, 0, 0};
};

/// Sorts `size` keys (code << 32) | anything by their codes, stably (as `morton_sorted_keys`
/// does): keys made in id order come out in (code, id) order. Uses a scratch array as large.
void sort_keys_by_code(std::unique_ptr<std::uint64_t[]>& keys, std::size_t size);

/// Where keys [begin, end) sorted by code (end - begin >= 2) split: at the first key with the
/// highest bit in which the first and the last codes differ set, or in the middle when every
/// code is the same (Lauterbach et al. 2009, Karras 2012).
[[nodiscard]] std::uint32_t code_split(const std::uint64_t* keys, std::uint32_t begin,
                                       std::uint32_t end);

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

/// Calls `body(i)` for every i in [0, `size`), in parallel blocks of 4096.
template <class Body>
void for_each_index(std::size_t size, const Body& body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) body(i);
  });
}

}  // namespace trisect::detail
