#pragma once
// Reading a soup's triangles in a BVH's slot order. Internal to the library.
#include "trisect/bvh/bvh_array.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace trisect::detail {

// Reads the triangles of a soup in slot order, which jumps about the soup's arrays, asking for
// the memory of the slots ahead: their corners `corners_ahead` slots ahead, their positions
// (whose indices those corners are) `positions_ahead` slots ahead, so that the cache misses of
// many triangles overlap instead of following one another. `Ids` gives each slot's triangle id
// (`ids[slot]`, for slot < `ids.size()`): a span of ids, or a view that decodes them.
template <class Ids = std::span<const TriangleId>>
class SoupReader {
 public:
  /// Reads `soup.triangle(ids[slot])`; `soup` and what `ids` views must outlive the reader.
  SoupReader(const TriangleSoup& soup, Ids ids) : soup_(soup), ids_(ids) {}

  /// The triangle of `slot` (< ids.size()); asks for the memory of the slots ahead.
  [[nodiscard]] Triangle triangle(std::uint32_t slot) const noexcept {
    if (slot + corners_ahead < ids_.size() && !soup_.indices.empty())
      __builtin_prefetch(soup_.indices.data() + 3 * std::size_t{ids_[slot + corners_ahead]});
    if (slot + positions_ahead < ids_.size()) {
      const std::size_t corner = 3 * std::size_t{ids_[slot + positions_ahead]};
      for (std::size_t k = 0; k < 3; ++k)
        __builtin_prefetch(soup_.positions.data() +
                           (soup_.indices.empty() ? corner + k : soup_.indices[corner + k]));
    }
    return soup_.triangle(ids_[slot]);
  }

 private:
  static constexpr std::uint32_t corners_ahead = 32, positions_ahead = 16;
  const TriangleSoup& soup_;
  Ids ids_;
};

}  // namespace trisect::detail
