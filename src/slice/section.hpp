#pragma once
// One plane's section from its candidate triangles: exact segments, chained into contours.

#include "mesh/checked_soup.hpp"
#include "trisect/slice/slice.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace trisect::detail {

// An edge a segment ends on, as its triangle has it: the position slots of the vertex below
// the plane and of the one above, and a hash of their six coordinates. Two ends are on the
// same edge when the coordinates compare equal as floats (-0 equals 0); equal slots imply it.
struct EdgeEnd {
  std::uint64_t hash;
  std::uint32_t below;
  std::uint32_t above;
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

// Asks the cache for entry `slot` of `array` (one per position slot) for each corner of
// triangle `id` (of an indexed soup: reads its indices, which should be cached by then; an
// index out of range asks for the last entry). Inlined by force: GCC finds an outlined helper
// free of side effects and drops the call.
template <class T>
[[gnu::always_inline]] inline void prefetch_slots(const TriangleSoup& soup, std::size_t id,
                                                  const T* array) {
  const std::size_t last = soup.positions.size() - 1;
  for (const std::size_t slot : vertex_slots(soup, id))
    __builtin_prefetch(array + std::min(slot, last));
}

// What a pass over the vertices learnt of each position slot against the sorted distinct
// planes: the vertex is above (n·v >= d) planes [0, low) and below (n·v < d) planes
// [high, count), both exactly; in between only the exact test decides. `non_finite` marks a
// vertex with a NaN or infinite coordinate (in both).
struct VertexPlanes {
  static constexpr std::uint32_t non_finite = 0xFFFFFFFFu;
  std::span<const std::uint32_t> low, high;
};

// The section of `soup` by normal·x = d given every triangle that may contribute, in
// ascending id order (others may be among them). Adds to `stats` (not its path). `vertices`,
// when given, are the vertex planes of the plane set whose plane `plane` this is.
[[nodiscard]] Section cut_section(const TriangleSoup& soup, const Vec3& normal, float d,
                                  std::span<const TriangleId> candidates, SectionScratch& scratch,
                                  SliceStats& stats, const VertexPlanes* vertices = nullptr,
                                  std::uint32_t plane = 0);

}  // namespace trisect::detail
