// The leaf-grouped triangle storage: the parallel copy and access to one slot.
#include "trisect/bvh/leaf_triangles.hpp"

#include "huge_pages.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>

namespace trisect {
namespace {

// Writes `triangle` into lane `lane` of the group of `count` lanes whose floats start at `at`.
void write_lane(float* at, int count, int lane, const Triangle& triangle) noexcept {
  const Vec3 vertices[3] = {triangle.a, triangle.b, triangle.c};
  for (int vertex = 0; vertex < 3; ++vertex)
    for (int axis = 0; axis < 3; ++axis)
      at[(3 * vertex + axis) * count + lane] = vertices[vertex][axis];
}

}  // namespace

LeafTriangles LeafTriangles::of(const TriangleSoup& soup, std::span<const TriangleId> ids,
                                std::span<const LeafRange> leaves) {
  LeafTriangles stored;
  stored.size_ = ids.size();
  // On huge pages from the start, and left unwritten: the groups below fill 9 floats per
  // slot, and the tail is zeroed here.
  const std::size_t floats = 9 * ids.size() + TriangleGroup::width - 1;
  detail::resize_on_huge_pages(stored.coordinates_, floats);
  std::fill(stored.coordinates_.end() - (TriangleGroup::width - 1), stored.coordinates_.end(),
            0.0f);
  stored.leaf_starts_.assign(ids.size() / 64 + 1, 0);
  for (const LeafRange& leaf : leaves) stored.mark_leaf_start(leaf.begin);
  stored.mark_leaf_start(static_cast<std::uint32_t>(ids.size()));
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, leaves.size(), 1024), [&](const auto& range) {
        for (std::size_t index = range.begin(); index != range.end(); ++index) {
          const LeafRange leaf = leaves[index];
          stored.for_each_group(leaf.begin, leaf.end,
                                [&](std::uint32_t first, const TriangleGroup& group) {
                                  float* at = stored.coordinates_.data() + 9 * std::size_t{first};
                                  for (int lane = 0; lane < group.count; ++lane)
                                    write_lane(at, group.count, lane,
                                               soup.triangle(ids[first + std::uint32_t(lane)]));
                                });
        }
      });
  return stored;
}

LeafRange LeafTriangles::leaf_of(std::uint32_t slot) const noexcept {
  // The last set bit at or below `slot`, then the first set bit above it (bit size_ is set).
  std::size_t word = slot / 64;
  std::uint64_t bits = leaf_starts_[word] & (~std::uint64_t{0} >> (63 - slot % 64));
  while (bits == 0) bits = leaf_starts_[--word];
  const auto begin =
      static_cast<std::uint32_t>(64 * word + 63 - static_cast<std::size_t>(std::countl_zero(bits)));
  word = (slot + 1) / 64;
  bits = (slot + 1) % 64 == 0 ? leaf_starts_[word]
                              : leaf_starts_[word] & (~std::uint64_t{0} << ((slot + 1) % 64));
  while (bits == 0) bits = leaf_starts_[++word];
  const auto end =
      static_cast<std::uint32_t>(64 * word + static_cast<std::size_t>(std::countr_zero(bits)));
  return {begin, end};
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
