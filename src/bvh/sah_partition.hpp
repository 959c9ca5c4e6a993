#pragma once
// How the SAH builder (build.cpp) cuts a range of references in two: at the split that
// sah_binning.hpp chose, or at the object median when no split was found, gathering the bounds
// of both sides as it goes.

#include "sah_binning.hpp"
#include "sah_reference.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace trisect::detail {

/// Where a range was cut and the bounds of both sides.
struct Partition {
  std::size_t middle;
  RangeBounds left, right;
};

/// Reorders references [begin, end) so that those on the left of `split` come first (in place,
/// two-way), gathering both sides' bounds.
inline Partition partition(Reference* references, std::size_t begin, std::size_t end,
                           const BinMapping& mapping, const Split& split) {
  Partition result{begin, {}, {}};
  std::size_t left = begin, right = end;
  while (left < right) {
    if (mapping.bin(references[left], split.axis) <= split.last_left_bin) {
      result.left.add(references[left]);
      ++left;
    } else {
      --right;
      std::swap(references[left], references[right]);
      result.right.add(references[right]);
    }
  }
  result.middle = left;
  return result;
}

/// Object median of references [begin, end) along the widest axis of `centroids`, ties broken
/// by id so that the cut is deterministic.
inline Partition median_partition(Reference* references, std::size_t begin, std::size_t end,
                                  const Box4& centroids) {
  const Vec3 extent = to_vec3(centroids.upper - centroids.lower);
  const int axis =
      extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const std::size_t middle = begin + (end - begin) / 2;
  std::nth_element(references + begin, references + middle, references + end,
                   [axis](const Reference& a, const Reference& b) {
                     const float ca = a.lower[axis] + a.upper[axis];
                     const float cb = b.lower[axis] + b.upper[axis];
                     return ca < cb || (ca == cb && a.id() < b.id());
                   });
  return {middle, bounds_of(references, begin, middle), bounds_of(references, middle, end)};
}

}  // namespace trisect::detail