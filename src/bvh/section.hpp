#pragma once
// One plane's section from its candidate triangles: exact segments, chained into contours.

#include "trisect/bvh/slice.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace trisect::detail {

// An edge a segment ends on, as its triangle has it: the vertex below the plane, then the one
// above. Two ends are on the same edge when these compare equal as floats (-0 equals 0).
struct EdgeEnd {
  Vec3 below;
  Vec3 above;
};

// Reusable buffers for one thread's sections. Segment s has ends 2s (its falling edge, where
// it starts) and 2s + 1 (its rising edge, where it ends).
struct SectionScratch {
  std::vector<TriangleId> segments;    // per segment: its triangle
  std::vector<EdgeEnd> ends;           // 2 per segment
  std::vector<std::uint32_t> partner;  // per end: the joined end, or `unjoined`
  std::vector<std::uint32_t> table;    // hash slots: the first end with an edge, or `unjoined`
  std::vector<std::uint32_t> crowded;  // first ends of edges with three or more ends
  std::vector<std::uint8_t> visited;   // per segment
  std::vector<Vec3> points;            // the contour being walked
  std::vector<TriangleId> triangles;   // the contour being walked
};

inline constexpr std::uint32_t unjoined = 0xFFFFFFFFu;

// The axis (0, 1, 2) of a normal with exactly one non-zero component, or -1.
[[nodiscard]] int single_axis(const Vec3& normal) noexcept;

// Asks the cache for the vertices of triangle `id` (of an indexed soup: reads its indices,
// which should be cached by then; an index out of range asks for the last position). Inlined
// by force: GCC finds an outlined helper free of side effects and drops the call.
[[gnu::always_inline]] inline void prefetch_vertices(const TriangleSoup& soup, std::size_t id) {
  const Vec3* positions = soup.positions.data();
  if (soup.indices.empty()) {
    __builtin_prefetch(positions + 3 * id);
    __builtin_prefetch(positions + 3 * id + 2);
    return;
  }
  const std::size_t last = soup.positions.size() - 1;
  for (std::size_t k = 0; k < 3; ++k)
    __builtin_prefetch(positions + std::min<std::size_t>(soup.indices[3 * id + k], last));
}

// The section of `soup` by normal·x = d given every triangle that may contribute, in
// ascending id order (others may be among them). Adds to `stats` (not its path).
[[nodiscard]] Section cut_section(const TriangleSoup& soup, const Vec3& normal, float d,
                                  std::span<const TriangleId> candidates, SectionScratch& scratch,
                                  SliceStats& stats);

}  // namespace trisect::detail
