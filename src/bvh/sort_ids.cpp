#include "trisect/bvh/detail/sort_ids.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>

namespace trisect::detail {
namespace {

// Below this many ids std::sort wins: the radix passes' fixed cost is about 3 x 256 counters.
constexpr std::size_t radix_threshold = 96;
constexpr std::size_t max_digit_bits = 11;
// Digits wider than 8 bits only for answers of at least this many ids, where the saved pass
// outweighs counting into up to 2^11 buckets.
constexpr std::size_t wide_digit_threshold = 1024;
constexpr std::size_t max_passes = 4;  // 32-bit ids in 8-bit digits

}  // namespace

namespace {

// The radix sort with `Passes` passes of `digit_bits`-bit digits (Passes * digit_bits covers
// every id's bits). A compile-time pass count lets the compiler unroll the histogram loop,
// which reads each id once for all passes.
template <std::size_t Passes>
void radix_sort(std::span<TriangleId> ids, std::size_t digit_bits) {
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const TriangleId digit_mask = static_cast<TriangleId>(buckets - 1);
  // Only the first `buckets` counters of each pass are used, so only those are zeroed: an
  // answer of a few hundred ids would otherwise pay for clearing all 2^11 of every pass.
  std::array<std::array<std::uint32_t, std::size_t{1} << max_digit_bits>, Passes> counts;
  for (auto& pass_counts : counts) std::fill_n(pass_counts.begin(), buckets, 0u);
  for (const TriangleId id : ids)
    for (std::size_t pass = 0; pass < Passes; ++pass)
      ++counts[pass][(id >> (pass * digit_bits)) & digit_mask];

  const std::unique_ptr<TriangleId[]> scratch(new TriangleId[ids.size()]);
  TriangleId* from = ids.data();
  TriangleId* to = scratch.get();
  for (std::size_t pass = 0; pass < Passes; ++pass) {
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

}  // namespace

void sort_ids(std::span<TriangleId> ids, std::size_t id_bound) {
  if (ids.size() < radix_threshold || id_bound <= 1) {
    std::sort(ids.begin(), ids.end());
    return;
  }
  const std::size_t bits = std::bit_width(id_bound - 1);
  const std::size_t widest = ids.size() >= wide_digit_threshold ? max_digit_bits : 8;
  const std::size_t passes = (bits + widest - 1) / widest;
  const std::size_t digit_bits = (bits + passes - 1) / passes;
  switch (passes) {
    case 1:
      return radix_sort<1>(ids, digit_bits);
    case 2:
      return radix_sort<2>(ids, digit_bits);
    case 3:
      return radix_sort<3>(ids, digit_bits);
    default:
      return radix_sort<max_passes>(ids, digit_bits);
  }
}

}  // namespace trisect::detail
