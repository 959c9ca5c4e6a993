#include "section.hpp"

#include "trisect/geometry/plane_point.hpp"
#include "trisect/mesh/topology.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace trisect::detail {
namespace {

using DVec3 = glm::dvec3;

// The exact side of a vertex for one plane, and its offset from the plane as `plane_offset`
// gives it. For a normal along an axis the other two products are exactly 0 and the product of
// two floats is exact in double, so one comparison decides what `classify` would, and the
// offset is what `plane_offset`'s fast path computes (the same value, magnitude and bound,
// with the same fallback); otherwise `classify` (a filtered exact sign) and `plane_offset`.
class SideTest {
 public:
  explicit SideTest(const Plane& plane)
      : plane_(plane),
        axis_(single_axis(plane.normal)),
        scale_(axis_ < 0 ? 0.0 : double(plane.normal[axis_])) {}

  [[nodiscard]] bool below(const Vec3& v) const {
    if (axis_ >= 0) return scale_ * double(v[axis_]) < double(plane_.d);
    return classify(plane_, v) == Side::below;
  }

  // n·v - d to within a relative 2^-26, bit for bit as `plane_offset` gives it.
  [[nodiscard]] double offset(const Vec3& v) const {
    if (axis_ < 0) return plane_offset(plane_, v);
    const double product = scale_ * double(v[axis_]), d = plane_.d;
    const double value = product - d, magnitude = std::fabs(product) + std::fabs(d);
    if (std::fabs(value) > 0x1p26 * (6 * exact::unit_roundoff * magnitude)) [[likely]]
      return value;
    return plane_offset(plane_, v);
  }

 private:
  Plane plane_;
  int axis_;
  double scale_;
};

// Where the edge from `below` (n·below < d) to `above` (n·above >= d) meets the plane, from the
// two vertices alone, so that every triangle with the edge gets the same bits. The side values
// are accurate to a relative 2^-26 even for edges nearly parallel to the plane (they come from
// exact arithmetic where the double fast path cannot promise that), and they have opposite
// signs, so the parameter t = s_below / (s_below - s_above) suffers no cancellation.
Vec3 edge_point(const SideTest& side, const Vec3& below, const Vec3& above) {
  const double s_above = side.offset(above);
  if (s_above == 0) return above;  // a vertex on the plane is its own point, exactly
  const double s_below = side.offset(below);
  const double t = s_below / (s_below - s_above);
  const DVec3 point = DVec3(below) + t * (DVec3(above) - DVec3(below));
  return Vec3(point);
}

// A hash of an edge's six coordinates, equal for equal floats (-0 and 0 alike). The three
// products are independent, so they overlap in the pipeline; the final mix spreads every
// input bit over the high bits, which pick the table slot (Knuth's multiplicative hashing).
std::uint64_t edge_hash(const Vec3& below, const Vec3& above) noexcept {
  const auto pair = [](float low, float high) {
    return std::uint64_t(position_bits(low)) | std::uint64_t(position_bits(high)) << 32;
  };
  std::uint64_t h = pair(below.x, below.y) * 0x9E3779B97F4A7C15ull;
  h ^= pair(below.z, above.x) * 0xBF58476D1CE4E5B9ull;
  h ^= pair(above.y, above.z) * 0x94D049BB133111EBull;
  return (h ^ (h >> 32)) * 0xD6E8FEB86659FD93ull;
}

bool same_edge(const TriangleSoup& soup, const EdgeEnd& a, const EdgeEnd& b) {
  if (a.hash != b.hash) return false;
  if (a.below == b.below && a.above == b.above) return true;
  return soup.positions[a.below] == soup.positions[b.below] &&  // float ==: -0 equals 0
         soup.positions[a.above] == soup.positions[b.above];
}

// Candidates are ascending ids far apart in memory, so their loads miss the cache; asking for
// the indices `2 * distance` candidates ahead and for the vertices (and their planes)
// `distance` ahead overlaps those misses with the work on the current one.
[[gnu::always_inline]] inline void prefetch_ahead(const TriangleSoup& soup,
                                                  std::span<const TriangleId> candidates,
                                                  const VertexPlanes* vertices,
                                                  std::size_t current) {
  constexpr std::size_t distance = 16;
  const std::size_t count = candidates.size();
  if (!soup.indices.empty() && current + 2 * distance < count)
    __builtin_prefetch(soup.indices.data() + 3 * std::size_t(candidates[current + 2 * distance]));
  if (current + distance >= count) return;
  // The soup is valid by now, so its slots are in range.
  for (const std::size_t slot : vertex_slots(soup, candidates[current + distance])) {
    __builtin_prefetch(soup.positions.data() + slot);
    if (vertices != nullptr) __builtin_prefetch(vertices->low.data() + slot);
  }
}

// Which of the corners at position slots `slots` are below the plane: from the vertex planes
// where they decide, else exactly from the position.
std::array<bool, 3> corners_below(const TriangleSoup& soup, const SideTest& side,
                                  const std::array<std::size_t, 3>& slots,
                                  const VertexPlanes* vertices, std::uint32_t plane) {
  std::array<bool, 3> below{};
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t slot = slots[k];
    if (vertices != nullptr && plane >= vertices->high[slot]) {
      below[k] = true;
    } else if (vertices != nullptr && plane < vertices->low[slot]) {
      below[k] = false;
    } else {
      below[k] = side.below(soup.positions[slot]);
    }
  }
  return below;
}

// Appends the segment of triangle `id` when it contributes one.
void add_segment(const TriangleSoup& soup, const SideTest& side, TriangleId id,
                 const VertexPlanes* vertices, std::uint32_t plane, SectionScratch& scratch) {
  const std::array<std::size_t, 3> slots = vertex_slots(soup, id);
  const std::array<bool, 3> below = corners_below(soup, side, slots, vertices, plane);
  if (below[0] == below[1] && below[1] == below[2]) return;
  const Vec3 v[3] = {soup.positions[slots[0]], soup.positions[slots[1]], soup.positions[slots[2]]};
  if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) return;  // float ==: -0 equals 0
  // Edge k runs from corner k to corner next[k]. The falling edge ends below, at
  // next[falling]; the rising edge starts below, at rising, and ends above, at next[rising].
  static constexpr std::size_t next[3] = {1, 2, 0};
  std::size_t falling = 0, rising = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    if (!below[k] && below[next[k]]) falling = k;
    if (below[k] && !below[next[k]]) rising = k;
  }
  const std::size_t fall_below = next[falling], rise_above = next[rising];
  scratch.segments.push_back(id);
  scratch.ends.push_back({edge_hash(v[fall_below], v[falling]), std::uint32_t(slots[fall_below]),
                          std::uint32_t(slots[falling])});
  scratch.ends.push_back({edge_hash(v[rising], v[rise_above]), std::uint32_t(slots[rising]),
                          std::uint32_t(slots[rise_above])});
}

// The first end of an edge with three or more ends (in `partner` only while joining).
constexpr std::uint32_t crowded = unjoined - 1;

// Pairs up the segment ends that share an edge which exactly two of them have. The table holds
// each edge's first end; its partner is the second end until a third one comes, which marks
// the edge crowded and unjoins them all.
void join_ends(const TriangleSoup& soup, SectionScratch& scratch) {
  const std::size_t ends = scratch.ends.size();
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(ends, 16));
  const int shift = 64 - std::countr_zero(capacity);  // the hash's high bits pick the slot
  scratch.table.assign(capacity, unjoined);
  scratch.partner.assign(ends, unjoined);
  scratch.crowded.clear();
  std::vector<std::uint32_t>& partner = scratch.partner;
  for (std::uint32_t end = 0; end < ends; ++end) {
    const EdgeEnd& edge = scratch.ends[end];
    for (std::size_t slot = std::size_t(edge.hash >> shift);; slot = (slot + 1) & (capacity - 1)) {
      const std::uint32_t first = scratch.table[slot];
      if (first == unjoined) {
        scratch.table[slot] = end;
        break;
      }
      if (same_edge(soup, scratch.ends[first], edge)) {
        const std::uint32_t second = partner[first];
        if (second == unjoined) {
          partner[first] = end;
          partner[end] = first;
        } else if (second != crowded) {
          partner[second] = unjoined;
          partner[first] = crowded;
          scratch.crowded.push_back(first);
        }
        break;
      }
    }
  }
  for (std::uint32_t first : scratch.crowded) partner[first] = unjoined;
}

// Walks the chain containing segment `start`: returns the segment and the end the walk
// leaves it by, such that walking from there runs over the whole chain in one direction.
// For a closed chain that is `start` itself, leaving by its rising end; for an open chain,
// the segment at one end of the chain.
std::pair<std::uint32_t, std::uint32_t> chain_start(const SectionScratch& scratch,
                                                    std::uint32_t start, bool& closed) {
  std::uint32_t segment = start, exit = 0;  // walk backwards: leave by the falling end
  while (true) {
    const std::uint32_t next = scratch.partner[2 * segment + exit];
    if (next == unjoined) {
      closed = false;
      return {segment, 1 - exit};
    }
    segment = next / 2;
    exit = 1 - next % 2;
    if (segment == start) {
      closed = true;
      return {start, 1};
    }
  }
}

// The point where end `end`'s edge meets the plane.
Vec3 end_point(const TriangleSoup& soup, const SectionScratch& scratch, const SideTest& side,
               std::uint32_t end) {
  const EdgeEnd& edge = scratch.ends[end];
  return edge_point(side, soup.positions[edge.below], soup.positions[edge.above]);
}

// Each segment of the chain gives the point of the end the walk enters it by (its neighbour
// has the same edge, so the same point), and an open chain's last segment its exit point too.
Contour walk_chain(const TriangleSoup& soup, SectionScratch& scratch, const SideTest& side,
                   std::uint32_t segment, std::uint32_t exit, bool closed) {
  scratch.points.clear();
  scratch.triangles.clear();
  const std::uint32_t first = segment;
  while (true) {
    scratch.visited[segment] = 1;
    scratch.points.push_back(end_point(soup, scratch, side, 2 * segment + 1 - exit));
    scratch.triangles.push_back(scratch.segments[segment]);
    const std::uint32_t next = scratch.partner[2 * segment + exit];
    if (next == unjoined) {
      scratch.points.push_back(end_point(soup, scratch, side, 2 * segment + exit));
      break;
    }
    segment = next / 2;
    exit = 1 - next % 2;
    if (segment == first) break;
  }
  return Contour{closed, scratch.points, scratch.triangles};
}

// Length, and for closed contours the signed area seen from the side `normal` points to
// (the shoelace formula about the first point, in double).
void measure(Contour& contour, const Vec3& normal) {
  const std::size_t count = contour.points.size();
  const std::size_t segments = contour.closed ? count : count - 1;
  const DVec3 origin(contour.points[0]);
  DVec3 twice_area(0.0);
  for (std::size_t i = 0; i < segments; ++i) {
    const DVec3 p = DVec3(contour.points[i]);
    const DVec3 q = DVec3(contour.points[(i + 1) % count]);
    contour.length += glm::length(q - p);
    twice_area += glm::cross(p - origin, q - origin);
  }
  if (contour.closed) {
    const DVec3 n(normal);
    contour.area = 0.5 * glm::dot(twice_area, n) / glm::length(n);
  }
}

}  // namespace

int single_axis(const Vec3& normal) noexcept {
  const int zeros = int(normal.x == 0) + int(normal.y == 0) + int(normal.z == 0);
  if (zeros != 2) return -1;
  return normal.x != 0 ? 0 : normal.y != 0 ? 1 : 2;
}

Section cut_section(const TriangleSoup& soup, const Vec3& normal, float d,
                    std::span<const TriangleId> candidates, SectionScratch& scratch,
                    SliceStats& stats, const VertexPlanes* vertices, std::uint32_t plane) {
  const SideTest side(Plane{normal, d});
  scratch.segments.clear();
  scratch.ends.clear();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    prefetch_ahead(soup, candidates, vertices, i);
    add_segment(soup, side, candidates[i], vertices, plane, scratch);
  }
  join_ends(soup, scratch);

  Section section{d, {}};
  const auto segments = static_cast<std::uint32_t>(scratch.segments.size());
  scratch.visited.assign(segments, 0);
  for (std::uint32_t segment = 0; segment < segments; ++segment) {
    if (scratch.visited[segment]) continue;
    bool closed = false;
    const auto [start, exit] = chain_start(scratch, segment, closed);
    section.contours.push_back(walk_chain(soup, scratch, side, start, exit, closed));
    measure(section.contours.back(), normal);
  }
  stats.candidates += candidates.size();
  stats.segments += segments;
  stats.contours += section.contours.size();
  return section;
}

}  // namespace trisect::detail
