#pragma once
// How the SAH builder (build.cpp) cuts a range of references in two: at the split that
// sah_binning.hpp chose, or at the object median when no split was found, gathering the bounds
// of both sides as it goes. Long ranges are cut in blocks in parallel.
//
// Determinism: blocks have a fixed size and the bounds combine exact operations (float min and
// max), so the order the references are left in does not depend on the thread count.

#include "sah_binning.hpp"
#include "sah_reference.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

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

/// Ranges at least this long are cut in blocks of `partition_block` references in parallel.
inline constexpr std::size_t parallel_partition_threshold = std::size_t{1} << 16;
inline constexpr std::size_t partition_block = std::size_t{1} << 14;

/// Runs of references [first, second), and the prefix sums of their lengths.
struct Runs {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::vector<std::size_t> starts{0};  ///< starts[i]: the references before run i

  void add(std::size_t first, std::size_t second) {
    if (first >= second) return;
    runs.emplace_back(first, second);
    starts.push_back(starts.back() + (second - first));
  }
  [[nodiscard]] std::size_t total() const { return starts.back(); }
  /// The run holding the k-th reference (k < total()).
  [[nodiscard]] std::size_t run_of(std::size_t k) const {
    return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), k) -
                                    starts.begin() - 1);
  }
};

/// Swaps the k-th reference of `from` with the k-th of `to` (equally long in all), in parallel
/// chunks, each walking both run lists from where its first k lies.
inline void swap_runs(Reference* references, const Runs& from, const Runs& to) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, from.total(), 4096), [&](const auto& r) {
    std::size_t a = from.run_of(r.begin()), b = to.run_of(r.begin());
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      while (from.starts[a + 1] <= k) ++a;
      while (to.starts[b + 1] <= k) ++b;
      std::swap(references[from.runs[a].first + (k - from.starts[a])],
                references[to.runs[b].first + (k - to.starts[b])]);
    }
  });
}

/// As `partition`, for long ranges: blocks of `partition_block` references are cut in
/// parallel, then the right-side references that lie before the overall middle are swapped
/// with the left-side ones after it (the block partitioning of parallel quicksorts, after
/// Frias & Petit, "Parallel Partition Revisited", WEA 2008). Every reference goes to the side
/// `partition` gives it; only the order within a side differs.
inline Partition partition_in_blocks(Reference* references, std::size_t begin, std::size_t end,
                                     const BinMapping& mapping, const Split& split) {
  const std::size_t blocks = (end - begin + partition_block - 1) / partition_block;
  const auto block_begin = [&](std::size_t b) { return begin + b * partition_block; };
  const auto block_end = [&](std::size_t b) { return std::min(end, block_begin(b + 1)); };
  std::vector<Partition> cuts(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    cuts[b] = partition(references, block_begin(b), block_end(b), mapping, split);
  });
  Partition result{begin, {}, {}};
  for (std::size_t b = 0; b < blocks; ++b) {
    result.middle += cuts[b].middle - block_begin(b);
    result.left.add(cuts[b].left);
    result.right.add(cuts[b].right);
  }
  Runs right_before_middle, left_after_middle;  // equally many references
  for (std::size_t b = 0; b < blocks; ++b) {
    right_before_middle.add(cuts[b].middle, std::min(block_end(b), result.middle));
    left_after_middle.add(std::max(block_begin(b), result.middle), cuts[b].middle);
  }
  swap_runs(references, right_before_middle, left_after_middle);
  return result;
}

/// `partition`, in blocks in parallel from `parallel_partition_threshold` references on.
inline Partition cut(Reference* references, std::size_t begin, std::size_t end,
                     const BinMapping& mapping, const Split& split) {
  if (end - begin < parallel_partition_threshold)
    return partition(references, begin, end, mapping, split);
  return partition_in_blocks(references, begin, end, mapping, split);
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