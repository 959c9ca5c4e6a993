#include "trisect/bvh/sort_ids.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>

namespace trisect {
namespace {

// Below this many ids std::sort wins: the radix passes' fixed cost is about 3 x 256 counters.
constexpr std::size_t radix_threshold = 96;
constexpr std::size_t max_digit_bits = 8;
constexpr std::size_t max_passes = 4;  // 32-bit ids

}  // namespace

void sort_ids(std::span<TriangleId> ids, std::size_t id_bound) {
  if (ids.size() < radix_threshold || id_bound <= 1) {
    std::sort(ids.begin(), ids.end());
    return;
  }
  const std::size_t bits = std::bit_width(id_bound - 1);
  const std::size_t passes = (bits + max_digit_bits - 1) / max_digit_bits;
  const std::size_t digit_bits = (bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const TriangleId digit_mask = static_cast<TriangleId>(buckets - 1);

  // All passes' histograms in one read.
  std::array<std::array<std::uint32_t, std::size_t{1} << max_digit_bits>, max_passes> counts{};
  for (const TriangleId id : ids)
    for (std::size_t pass = 0; pass < passes; ++pass)
      ++counts[pass][(id >> (pass * digit_bits)) & digit_mask];

  const std::unique_ptr<TriangleId[]> scratch(new TriangleId[ids.size()]);
  TriangleId* from = ids.data();
  TriangleId* to = scratch.get();
  for (std::size_t pass = 0; pass < passes; ++pass) {
    std::uint32_t offset = 0;
    for (std::size_t bucket = 0; bucket < buckets; ++bucket) {
      const std::uint32_t count = counts[pass][bucket];
      counts[pass][bucket] = offset;
      offset += count;
    }
    const std::size_t shift = pass * digit_bits;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const TriangleId id = from[i];
      to[counts[pass][(id >> shift) & digit_mask]++] = id;
    }
    std::swap(from, to);
  }
  if (from != ids.data()) std::copy(from, from + ids.size(), ids.data());
}

}  // namespace trisect
