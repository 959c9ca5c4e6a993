// The leaf-grouped triangle storage: the parallel copy and access to one slot.
#include "trisect/bvh/leaf_triangles.hpp"

#include "default_init_allocator.hpp"
#include "huge_pages.hpp"
#include "soup_reader.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include "trisect/detail/thread_fallback.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

namespace trisect {

LeafTriangles LeafTriangles::unfilled(std::size_t size) {
  // On huge pages from the start, and left unwritten: the leaves fill 9 floats per slot, and
  // the tail is zeroed here.
  std::vector<float, detail::DefaultInitAllocator<float>> coordinates;
  detail::resize_on_huge_pages(coordinates, 9 * size + TriangleGroup::width - 1);
  std::fill(coordinates.end() - (TriangleGroup::width - 1), coordinates.end(), 0.0f);
  LeafTriangles stored;
  stored.size_ = size;
  stored.coordinates_ = std::move(coordinates);
  stored.leaf_starts_ = std::vector<std::uint64_t>(size / 64 + 1, 0);
  return stored;
}

void LeafTriangles::mark_leaves(std::span<const LeafRange> leaves) {
  const auto mark = [&](std::size_t slot) {
    leaf_starts_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  };
  for (const LeafRange& leaf : leaves) mark(leaf.begin);
  mark(size_);
}

LeafTriangles LeafTriangles::of(const TriangleSoup& soup, std::span<const TriangleId> ids,
                                std::span<const LeafRange> leaves) {
  LeafTriangles stored = unfilled(ids.size());
  stored.mark_leaves(leaves);
  stored.rewrite(soup, ids);
  return stored;
}

void LeafTriangles::rewrite(const TriangleSoup& soup, std::span<const TriangleId> ids) {
  const detail::SoupReader<> reader(soup, ids);
  for_each_leaf_parallel([&](LeafRange leaf) {
    rewrite_leaf(leaf, [&](std::uint32_t slot) { return reader.triangle(slot); });
  });
}

std::uint32_t LeafTriangles::next_leaf_start(std::uint32_t slot) const noexcept {
  // Bit size_ is set, so the search ends there at the latest.
  std::size_t word = slot / 64;
  std::uint64_t bits = leaf_starts_[word] & (~std::uint64_t{0} << (slot % 64));
  while (bits == 0) bits = leaf_starts_[++word];
  return static_cast<std::uint32_t>(64 * word + static_cast<std::size_t>(std::countr_zero(bits)));
}

LeafTriangles LeafTriangles::from_arrays(std::size_t size, BvhArray<float> coordinates,
                                         BvhArray<std::uint64_t> leaf_starts) {
  const auto bit = [&](std::size_t slot) {
    return (leaf_starts[slot / 64] >> (slot % 64) & 1u) != 0;
  };
  if (coordinates.size() != 9 * size + TriangleGroup::width - 1)
    throw InvalidInput("leaf triangles: " + std::to_string(coordinates.size()) +
                       " coordinates for " + std::to_string(size) + " slots");
  if (leaf_starts.size() != size / 64 + 1)
    throw InvalidInput("leaf triangles: " + std::to_string(leaf_starts.size()) +
                       " leaf start words for " + std::to_string(size) + " slots");
  if (!bit(size) || (size > 0 && !bit(0)))
    throw InvalidInput("leaf triangles: the leaf starts do not mark the first and the end slot");
  LeafTriangles stored;
  stored.size_ = size;
  stored.coordinates_ = std::move(coordinates);
  stored.leaf_starts_ = std::move(leaf_starts);
  return stored;
}

LeafRange LeafTriangles::leaf_of(std::uint32_t slot) const noexcept {
  // The last set bit at or below `slot`, then the first set bit above it (bit size_ is set).
  std::size_t word = slot / 64;
  std::uint64_t bits = leaf_starts_[word] & (~std::uint64_t{0} >> (63 - slot % 64));
  while (bits == 0) bits = leaf_starts_[--word];
  const auto begin =
      static_cast<std::uint32_t>(64 * word + 63 - static_cast<std::size_t>(std::countl_zero(bits)));
  return {begin, next_leaf_start(slot + 1)};
}

LeafTriangles::Place LeafTriangles::place_of(std::uint32_t slot) const noexcept {
  const LeafRange leaf = leaf_of(slot);
  const std::uint32_t first = slot - (slot - leaf.begin) % TriangleGroup::width;
  return {first, group(first, leaf.end).count, static_cast<int>(slot - first)};
}

Triangle LeafTriangles::triangle(std::uint32_t slot) const noexcept {
  const Place place = place_of(slot);
  return TriangleGroup{coordinates_.data() + 9 * std::size_t{place.first}, place.count}.triangle(
      place.lane);
}

}  // namespace trisect
