#pragma once
// How the SAH builder (build.cpp) cuts a range of references in two: at the split that
// sah_binning.hpp chose, or at the object median when no split was found, gathering the bounds
// of both sides as it goes. Long ranges are cut in blocks in parallel; a cut may also bin both
// sides as it makes them, so that the next level's split search reads no reference again.
//
// Determinism: blocks have a fixed size, bins and bounds combine exact operations, so the order
// the references are left in does not depend on the thread count.

#include "sah_binning.hpp"
#include "sah_reference.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace trisect::detail {

/// Where a range was cut and the bounds of both sides.
struct Partition {
  std::size_t middle;
  RangeBounds left, right;
};

/// What a cut does with each reference once its side is known: nothing more than gathering
/// the sides' bounds.
struct NoSideWork {
  void left(const Reference&) const {}
  void right(const Reference&) const {}
};

/// Reorders references [begin, end) so that those on the left of `split` come first (in place,
/// two-way), gathering both sides' bounds and handing each reference to `work.left` or
/// `work.right` once its side is known.
template <class SideWork = NoSideWork>
inline Partition partition(Reference* references, std::size_t begin, std::size_t end,
                           const BinMapping& mapping, const Split& split, SideWork&& work = {}) {
  Partition result{begin, {}, {}};
  std::size_t left = begin, right = end;
  while (left < right) {
    if (mapping.bin(references[left], split.axis) <= split.last_left_bin) {
      result.left.add(references[left]);
      work.left(references[left]);
      ++left;
    } else {
      --right;
      std::swap(references[left], references[right]);
      result.right.add(references[right]);
      work.right(references[right]);
    }
  }
  result.middle = left;
  return result;
}

/// Ranges at least this long are cut in blocks of `partition_block` references in parallel.
inline constexpr std::size_t parallel_partition_threshold = std::size_t{1} << 16;
inline constexpr std::size_t partition_block = std::size_t{1} << 14;

/// Swaps the k-th reference of the runs `from` with the k-th of the runs `to` (runs of equal
/// total length, [first, second) each), in parallel chunks.
inline void swap_runs(Reference* references,
                      const std::vector<std::pair<std::size_t, std::size_t>>& from,
                      const std::vector<std::pair<std::size_t, std::size_t>>& to) {
  // Flatten both run lists into positions, chunk by chunk: a chunk of k finds its runs by the
  // prefix sums of run lengths.
  const auto prefix = [](const auto& runs) {
    std::vector<std::size_t> sums(runs.size() + 1, 0);
    for (std::size_t i = 0; i < runs.size(); ++i)
      sums[i + 1] = sums[i] + runs[i].second - runs[i].first;
    return sums;
  };
  const std::vector<std::size_t> from_sums = prefix(from), to_sums = prefix(to);
  const std::size_t total = from_sums.back();
  const auto position = [](const auto& runs, const std::vector<std::size_t>& sums, std::size_t& run,
                           std::size_t k) {
    while (sums[run + 1] <= k) ++run;
    return runs[run].first + (k - sums[run]);
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, total, 4096), [&](const auto& r) {
    std::size_t from_run = static_cast<std::size_t>(
        std::upper_bound(from_sums.begin(), from_sums.end(), r.begin()) - from_sums.begin() - 1);
    std::size_t to_run = static_cast<std::size_t>(
        std::upper_bound(to_sums.begin(), to_sums.end(), r.begin()) - to_sums.begin() - 1);
    for (std::size_t k = r.begin(); k != r.end(); ++k)
      std::swap(references[position(from, from_sums, from_run, k)],
                references[position(to, to_sums, to_run, k)]);
  });
}

/// As `partition`, cutting blocks of `partition_block` references in parallel, each with its
/// own side work `work(block)` (a callable giving the block's work object), then swapping the
/// right-side references that lie before the overall middle with the left-side ones after it
/// (after the "block partitioning" of parallel quicksorts, e.g. Frias & Petit, "Parallel
/// Partition Revisited", 2008). Every reference keeps the side it was given.
template <class WorkOfBlock>
inline Partition partition_in_blocks(Reference* references, std::size_t begin, std::size_t end,
                                     const BinMapping& mapping, const Split& split,
                                     WorkOfBlock&& work) {
  const std::size_t blocks = (end - begin + partition_block - 1) / partition_block;
  const auto block_begin = [&](std::size_t b) { return begin + b * partition_block; };
  const auto block_end = [&](std::size_t b) { return std::min(end, block_begin(b + 1)); };
  std::vector<Partition> cuts(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    cuts[b] = partition(references, block_begin(b), block_end(b), mapping, split, work(b));
  });
  Partition result{begin, {}, {}};
  for (std::size_t b = 0; b < blocks; ++b) {
    result.middle += cuts[b].middle - block_begin(b);
    result.left.add(cuts[b].left);
    result.right.add(cuts[b].right);
  }
  // Right-side runs before the middle and left-side runs after it, equally many references.
  std::vector<std::pair<std::size_t, std::size_t>> misplaced_right, misplaced_left;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t right_first = std::max(cuts[b].middle, begin),
                      right_last = std::min(block_end(b), result.middle);
    if (right_first < right_last) misplaced_right.emplace_back(right_first, right_last);
    const std::size_t left_first = std::max(block_begin(b), result.middle),
                      left_last = cuts[b].middle;
    if (left_first < left_last) misplaced_left.emplace_back(left_first, left_last);
  }
  swap_runs(references, misplaced_right, misplaced_left);
  return result;
}

/// `partition`, in blocks in parallel for long ranges.
inline Partition cut(Reference* references, std::size_t begin, std::size_t end,
                     const BinMapping& mapping, const Split& split) {
  if (end - begin < parallel_partition_threshold)
    return partition(references, begin, end, mapping, split);
  return partition_in_blocks(references, begin, end, mapping, split,
                             [](std::size_t) { return NoSideWork{}; });
}

/// The bin mapping of one side of `split`, a split of a range binned by `mapping` whose doubled
/// centroids lie in `centroids`, made before the cut: the range's centroid bounds with the split
/// axis cut at the boundary after the split's last left bin. The side's own bounds are known
/// only after the cut; a centroid the rounding puts outside these clamps into an end bin, and
/// binning and partitioning with the mapping agree all the same (they call the same function).
[[nodiscard]] inline BinMapping side_mapping(const Box4& centroids, const BinMapping& mapping,
                                             const Split& split, bool left_side,
                                             std::uint32_t bins) {
  Vec3 low = to_vec3(centroids.lower), high = to_vec3(centroids.upper);
  const int axis = split.axis;
  const float boundary = mapping.origin_by_axis[axis] +
                         static_cast<float>(split.last_left_bin + 1) / mapping.scale_by_axis[axis];
  const float inside = std::clamp(boundary, low[axis], high[axis]);
  (left_side ? high : low)[axis] = inside;
  return {Box4{Float4::xyz(low.x, low.y, low.z), Float4::xyz(high.x, high.y, high.z)}, bins};
}

/// A cut whose two sides were binned as they were made, each by its `side_mapping`.
struct BinnedCut {
  Partition cut;
  BinMapping left_mapping, right_mapping;
  std::unique_ptr<Binning> left_bins, right_bins;
};

/// Cuts references [begin, end) (doubled centroids in `centroids`, binned by `mapping`) at
/// `split` as `cut` does, binning each side by its side mapping with `bins` bins on the way:
/// the sides' split searches then need no pass of their own over the references.
inline BinnedCut cut_and_bin(Reference* references, std::size_t begin, std::size_t end,
                             const Box4& centroids, const BinMapping& mapping, const Split& split,
                             std::uint32_t bins) {
  BinnedCut result;
  result.left_mapping = side_mapping(centroids, mapping, split, true, bins);
  result.right_mapping = side_mapping(centroids, mapping, split, false, bins);
  result.left_bins = std::make_unique<Binning>(bins);
  result.right_bins = std::make_unique<Binning>(bins);
  struct BinBoth {
    const BinnedCut& into;
    Binning &left_bins, &right_bins;
    void left(const Reference& r) const { binning::bin_one(r, into.left_mapping, left_bins); }
    void right(const Reference& r) const { binning::bin_one(r, into.right_mapping, right_bins); }
  };
  if (end - begin < parallel_partition_threshold) {
    result.cut = partition(references, begin, end, mapping, split,
                           BinBoth{result, *result.left_bins, *result.right_bins});
    return result;
  }
  const std::size_t blocks = (end - begin + partition_block - 1) / partition_block;
  std::vector<Binning> left_of_block(blocks, Binning(bins)), right_of_block(blocks, Binning(bins));
  result.cut = partition_in_blocks(references, begin, end, mapping, split, [&](std::size_t b) {
    return BinBoth{result, left_of_block[b], right_of_block[b]};
  });
  for (std::size_t b = 0; b < blocks; ++b) {
    result.left_bins->add(left_of_block[b]);
    result.right_bins->add(right_of_block[b]);
  }
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