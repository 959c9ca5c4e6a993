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

// Where the edge from `below` (n·below < d) to `above` (n·above >= d) meets the plane, from the
// two vertices alone, so that every triangle with the edge gets the same bits. The side values
// are accurate to a relative 2^-26 even for edges nearly parallel to the plane (they come from
// exact arithmetic where the double fast path cannot promise that), and they have opposite
// signs, so the parameter t = s_below / (s_below - s_above) suffers no cancellation.
Vec3 edge_point(const Plane& plane, const Vec3& below, const Vec3& above) {
  const double s_above = plane_offset(plane, above);
  if (s_above == 0) return above;  // a vertex on the plane is its own point, exactly
  const double s_below = plane_offset(plane, below);
  const double t = s_below / (s_below - s_above);
  const DVec3 point = DVec3(below) + t * (DVec3(above) - DVec3(below));
  return Vec3(point);
}

EdgeKey edge_key(const Vec3& below, const Vec3& above) {
  return {position_bits(below.x), position_bits(below.y), position_bits(below.z),
          position_bits(above.x), position_bits(above.y), position_bits(above.z)};
}

std::size_t hash(const EdgeKey& key) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  for (std::uint32_t word : key) h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
  return static_cast<std::size_t>(h ^ (h >> 31));
}

// Appends the segment of triangle `id` when it contributes one.
void add_segment(const TriangleSoup& soup, const Plane& plane, TriangleId id,
                 SectionScratch& scratch) {
  const Triangle triangle = soup.triangle(id);
  const Vec3 v[3] = {triangle.a, triangle.b, triangle.c};
  const bool below[3] = {classify(plane, v[0]) == Side::below, classify(plane, v[1]) == Side::below,
                         classify(plane, v[2]) == Side::below};
  if (below[0] == below[1] && below[1] == below[2]) return;
  if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) return;  // float ==: -0 equals 0
  int falling = 0, rising = 0;
  for (int k = 0; k < 3; ++k) {
    const int next = (k + 1) % 3;
    if (!below[k] && below[next]) falling = k;
    if (below[k] && !below[next]) rising = k;
  }
  const Vec3& fall_above = v[falling];
  const Vec3& fall_below = v[(falling + 1) % 3];
  const Vec3& rise_below = v[rising];
  const Vec3& rise_above = v[(rising + 1) % 3];
  scratch.segments.push_back(
      {id, edge_point(plane, fall_below, fall_above), edge_point(plane, rise_below, rise_above)});
  scratch.keys.push_back(edge_key(fall_below, fall_above));
  scratch.keys.push_back(edge_key(rise_below, rise_above));
}

// Pairs up the segment ends that share an edge which exactly two of them have.
void join_ends(SectionScratch& scratch) {
  const std::size_t ends = scratch.keys.size();
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(2 * ends, 16));
  scratch.table.assign(capacity, unjoined);
  scratch.partner.assign(ends, unjoined);
  // The first end of each edge counts the ends with that edge and keeps the second one in
  // `partner` until the counts are known.
  std::vector<std::uint32_t>& first_of = scratch.first_end;
  std::vector<std::uint32_t>& count = scratch.edge_ends;
  first_of.resize(ends);
  count.assign(ends, 0);
  for (std::uint32_t end = 0; end < ends; ++end) {
    const EdgeKey& key = scratch.keys[end];
    for (std::size_t slot = hash(key) & (capacity - 1);; slot = (slot + 1) & (capacity - 1)) {
      const std::uint32_t first = scratch.table[slot];
      if (first == unjoined) {
        scratch.table[slot] = end;
        first_of[end] = end;
        count[end] = 1;
        break;
      }
      if (scratch.keys[first] == key) {
        first_of[end] = first;
        if (++count[first] == 2) scratch.partner[first] = end;
        break;
      }
    }
  }
  for (std::uint32_t end = 0; end < ends; ++end) {
    const std::uint32_t first = first_of[end];
    if (count[first] != 2) {
      scratch.partner[end] = unjoined;
    } else if (first != end) {
      scratch.partner[end] = first;
    }
  }
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

Contour walk_chain(SectionScratch& scratch, std::uint32_t segment, std::uint32_t exit,
                   bool closed) {
  Contour contour;
  contour.closed = closed;
  const std::uint32_t first = segment;
  while (true) {
    scratch.visited[segment] = true;
    const Segment& s = scratch.segments[segment];
    contour.points.push_back(exit == 1 ? s.from : s.to);
    contour.triangles.push_back(s.triangle);
    const std::uint32_t next = scratch.partner[2 * segment + exit];
    if (next == unjoined) {
      contour.points.push_back(exit == 1 ? s.to : s.from);
      return contour;
    }
    segment = next / 2;
    exit = 1 - next % 2;
    if (segment == first) return contour;
  }
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

Section cut_section(const TriangleSoup& soup, const Vec3& normal, float d,
                    std::span<const TriangleId> candidates, SectionScratch& scratch,
                    SliceStats& stats) {
  const Plane plane{normal, d};
  scratch.segments.clear();
  scratch.keys.clear();
  for (TriangleId id : candidates) add_segment(soup, plane, id, scratch);
  join_ends(scratch);

  Section section{d, {}};
  const auto segments = static_cast<std::uint32_t>(scratch.segments.size());
  scratch.visited.assign(segments, false);
  for (std::uint32_t segment = 0; segment < segments; ++segment) {
    if (scratch.visited[segment]) continue;
    bool closed = false;
    const auto [start, exit] = chain_start(scratch, segment, closed);
    section.contours.push_back(walk_chain(scratch, start, exit, closed));
    measure(section.contours.back(), normal);
  }
  stats.candidates += candidates.size();
  stats.segments += segments;
  stats.contours += section.contours.size();
  return section;
}

}  // namespace trisect::detail
