#pragma once
// The check of a batch of ids that the batch removals make.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace trisect::detail {

/// The smallest index i of `ids` such that ids[i] equals some ids[j] with j < i; ids.size()
/// when the ids are distinct. O(n log n).
inline std::size_t first_repeat(std::span<const std::uint32_t> ids) {
  std::vector<std::pair<std::uint32_t, std::size_t>> sorted(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) sorted[i] = {ids[i], i};
  std::sort(sorted.begin(), sorted.end());
  std::size_t first = ids.size();
  for (std::size_t k = 1; k < sorted.size(); ++k)
    if (sorted[k].first == sorted[k - 1].first) first = std::min(first, sorted[k].second);
  return first;
}

}  // namespace trisect::detail
