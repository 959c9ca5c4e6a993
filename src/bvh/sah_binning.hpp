#pragma once
// The binned SAH split search over a range of triangle references, after Wald, "On fast
// Construction of SAH-based Bounding Volume Hierarchies" (IEEE Symposium on Interactive Ray
// Tracing, 2007), with the per-bin box accumulation in 4-lane SIMD as in Embree's builders (Wald
// et al., "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). Internal to the SAH
// builder (build.cpp).
//
// Determinism: a split depends only on its range of references, and the parallel reductions
// combine exact operations (float min/max, integer counts).

#include "sah_reference.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace trisect::detail {

inline constexpr std::uint32_t max_bins = 64;

/// Bins of all three axes for one range. Only the first `bin_count` bins per axis are used and
/// initialised, so that small ranges do not pay for the largest bin count.
struct Binning {
  std::uint32_t bin_count;
  Box4 boxes[3][max_bins];
  std::uint32_t counts[3][max_bins];

  explicit Binning(std::uint32_t count) : bin_count(count) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < count; ++i) {
        boxes[axis][i] = Box4::empty();
        counts[axis][i] = 0;
      }
  }

  void add(const Binning& other) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < bin_count; ++i) {
        boxes[axis][i].extend(other.boxes[axis][i]);
        counts[axis][i] += other.counts[axis][i];
      }
  }
};

/// Maps doubled centroids to bins along each axis. Axes where all centroids coincide get scale
/// 0 (everything in bin 0); a subnormal extent may give an infinite scale, whose 0·inf NaN the
/// clamp below maps to bin 0, so every reference still gets a bin and binning and partitioning
/// always agree (they call the same function).
struct BinMapping {
  Float4 origin;
  Float4 scale;
  Float4 last;
  // Per axis, as plain arrays: indexing a glm vector by a run-time axis compiles to a switch.
  float scale_by_axis[3] = {0, 0, 0};
  float origin_by_axis[3] = {0, 0, 0};
  std::uint32_t bin_count = 0;

  BinMapping() = default;
  BinMapping(const Box4& centroids, std::uint32_t count) : bin_count(count) {
    const Vec3 low = to_vec3(centroids.lower), high = to_vec3(centroids.upper);
    for (int axis = 0; axis < 3; ++axis) {
      const float extent = high[axis] - low[axis];
      scale_by_axis[axis] = extent > 0 ? static_cast<float>(count) / extent : 0.0f;
    }
    origin = centroids.lower;
    for (int axis = 0; axis < 3; ++axis) origin_by_axis[axis] = low[axis];
    scale = Float4::xyz(scale_by_axis[0], scale_by_axis[1], scale_by_axis[2]);
    last = Float4::splat(static_cast<float>(count - 1));
  }

  [[nodiscard]] bool all_coincide() const {
    return scale_by_axis[0] == 0 && scale_by_axis[1] == 0 && scale_by_axis[2] == 0;
  }

  /// Bin of `reference` along x, y and z (and a fourth, unused lane).
  void bins(const Reference& reference, std::uint32_t (&index)[4]) const {
    Float4 position = (reference.centroid2() - origin) * scale;
    position = min_ignoring_nan(max_ignoring_nan(position, Float4::splat(0.0f)), last);
    truncate_to_int(position, index);
  }

  /// Bin of `reference` along `axis` alone: the same arithmetic as `bins` on one lane.
  [[nodiscard]] std::uint32_t bin(const Reference& reference, int axis) const {
    const float centroid2 = reference.lower[axis] + reference.upper[axis];
    const float position = (centroid2 - origin_by_axis[axis]) * scale_by_axis[axis];
    // As _mm_max_ps / _mm_min_ps do it: a NaN position becomes 0.
    const float above = position > 0.0f ? position : 0.0f;
    const float last_bin = static_cast<float>(bin_count - 1);
    return static_cast<std::uint32_t>(above < last_bin ? above : last_bin);
  }
};

/// A split of a range between bins: the left side takes bins [0, last_left_bin] on `axis`.
struct Split {
  int axis = -1;  ///< -1: no split found (all centroids in one bin, or not searched).
  std::uint32_t last_left_bin = 0;
  /// Sum over both sides of half area times triangle count.
  float cost = std::numeric_limits<float>::infinity();
  float left_area = 0, right_area = 0;  ///< Half areas of the two sides' boxes.
  std::uint32_t left_count = 0;         ///< References on the left side.
};

namespace binning {

inline void bin_one(const Reference& reference, const BinMapping& mapping, Binning& into) {
  std::uint32_t index[4];
  const Box4 box = reference.box();
  mapping.bins(reference, index);
  for (int axis = 0; axis < 3; ++axis) {
    into.boxes[axis][index[axis]].extend(box);
    ++into.counts[axis][index[axis]];
  }
}

// Ranges at least this large bin into two interleaved binnings.
inline constexpr std::size_t interleaved_threshold = 256;

// Longer ranges alternate between two binnings, so that neighbours, which often fall in the
// same bin, do not wait on each other's updates.
inline void bin_into(const Reference* references, std::size_t begin, std::size_t end,
                     const BinMapping& mapping, Binning& into) {
  if (end - begin < interleaved_threshold) {
    for (std::size_t i = begin; i != end; ++i) bin_one(references[i], mapping, into);
    return;
  }
  Binning odd(mapping.bin_count);
  std::size_t i = begin;
  for (; i + 1 < end; i += 2) {
    bin_one(references[i], mapping, into);
    bin_one(references[i + 1], mapping, odd);
  }
  if (i != end) bin_one(references[i], mapping, into);
  into.add(odd);
}

}  // namespace binning

/// Ranges larger than this are binned from a sample: every k-th reference, k the largest whose
/// sample still has `sampled_binning_size` references or more.
inline constexpr std::size_t sampled_binning_size = std::size_t{1} << 16;

/// Bins references [begin, end) into `into`: small ranges in place, large ones by reducing
/// per-task binnings (exact min, max and counts, so deterministic however the range is cut);
/// ranges above 2 `sampled_binning_size` bin every k-th reference only, as a coarser binning of
/// the top levels (the split is chosen from the sample; the partition moves every reference
/// and gathers exact bounds). The counts are then the sample's.
inline void bin(const Reference* references, std::size_t begin, std::size_t end,
                const BinMapping& mapping, Binning& into) {
  if (end - begin < parallel_scan_threshold)
    return binning::bin_into(references, begin, end, mapping, into);
  const std::size_t stride = std::max<std::size_t>(1, (end - begin) / sampled_binning_size);
  const std::size_t samples = (end - begin + stride - 1) / stride;
  into = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, samples, 4096), into,
      [&](const tbb::blocked_range<std::size_t>& r, Binning partial) {
        if (stride == 1) {
          binning::bin_into(references, begin + r.begin(), begin + r.end(), mapping, partial);
        } else {
          for (std::size_t i = r.begin(); i != r.end(); ++i)
            binning::bin_one(references[begin + i * stride], mapping, partial);
        }
        return partial;
      },
      [](Binning a, const Binning& b) {
        a.add(b);
        return a;
      });
}

/// The lowest-cost split over all axes; axis -1 when every centroid falls in one bin. Only
/// non-empty bins are swept: a split after an empty bin separates the same references as the
/// split before it, at the same cost, and the first of equal costs wins, so skipping them changes
/// no choice (it matters for small ranges, which have as many bins as references).
[[nodiscard]] inline Split best_split(const Binning& binning, const BinMapping& mapping) {
  Split best;
  // Entries [0, used) are written before they are read: no zeroing.
  std::array<std::uint32_t, max_bins> used_bins;
  std::array<float, max_bins> right_cost, right_area;
  for (int axis = 0; axis < 3; ++axis) {
    if (mapping.scale_by_axis[axis] == 0) continue;
    const std::uint32_t* counts = binning.counts[axis];
    std::uint32_t used = 0;
    for (std::uint32_t i = 0; i < mapping.bin_count; ++i) {
      used_bins[used] = i;
      used += counts[i] != 0 ? 1 : 0;
    }
    Box4 right = Box4::empty();
    std::uint32_t right_count = 0;
    for (std::uint32_t j = used; j-- > 1;) {
      right.extend(binning.boxes[axis][used_bins[j]]);
      right_count += counts[used_bins[j]];
      right_area[j] = right.half_area();
      right_cost[j] = right_area[j] * static_cast<float>(right_count);
    }
    Box4 left = Box4::empty();
    std::uint32_t left_count = 0;
    for (std::uint32_t j = 0; j + 1 < used; ++j) {
      left.extend(binning.boxes[axis][used_bins[j]]);
      left_count += counts[used_bins[j]];
      const float area = left.half_area();
      const float cost = area * static_cast<float>(left_count) + right_cost[j + 1];
      if (cost < best.cost) best = {axis, used_bins[j], cost, area, right_area[j + 1], left_count};
    }
  }
  return best;
}

}  // namespace trisect::detail
