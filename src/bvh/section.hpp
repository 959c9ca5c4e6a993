#pragma once
// One plane's section from its candidate triangles: exact segments, chained into contours.

#include "trisect/bvh/slice.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace trisect::detail {

// A contributing triangle's segment: from the point of its falling edge to the point of its
// rising edge.
struct Segment {
  TriangleId triangle;
  Vec3 from;
  Vec3 to;
};

// An edge by its two positions as bit patterns (-0 as +0): below vertex first, then above.
using EdgeKey = std::array<std::uint32_t, 6>;

// Reusable buffers for one thread's sections.
struct SectionScratch {
  std::vector<Segment> segments;
  std::vector<EdgeKey> keys;             // 2 per segment: its falling then its rising edge
  std::vector<std::uint32_t> partner;    // 2 per segment: the joined end, or `unjoined`
  std::vector<std::uint32_t> table;      // hash slots: the first end with an edge, or `unjoined`
  std::vector<std::uint32_t> first_end;  // per end: the first end with the same edge
  std::vector<std::uint32_t> edge_ends;  // per first end: the ends with its edge
  std::vector<bool> visited;
};

// An end is 2 * segment + (0 for the falling end, 1 for the rising end).
inline constexpr std::uint32_t unjoined = 0xFFFFFFFFu;

// The section of `soup` by normal·x = d given every triangle that may contribute, in
// ascending id order (others may be among them). Adds to `stats` (not its path).
[[nodiscard]] Section cut_section(const TriangleSoup& soup, const Vec3& normal, float d,
                                  std::span<const TriangleId> candidates, SectionScratch& scratch,
                                  SliceStats& stats);

}  // namespace trisect::detail
