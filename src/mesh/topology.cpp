#include "trisect/mesh/topology.hpp"

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace trisect {
namespace {

// Open-addressing hash table from exact positions to welded vertex ids (linear probing, a
// power-of-two capacity at least twice the number of keys, so probes stay short).
class PositionTable {
 public:
  explicit PositionTable(std::size_t max_keys)
      : slots_(std::bit_ceil(std::max<std::size_t>(2 * max_keys, 16)), empty_slot),
        mask_(slots_.size() - 1) {}

  // The id of `p` among `positions`, appending it when new.
  std::uint32_t find_or_add(const Vec3& p, std::vector<Vec3>& positions) {
    const std::uint32_t x = position_bits(p.x), y = position_bits(p.y), z = position_bits(p.z);
    for (std::size_t slot = hash(x, y, z) & mask_;; slot = (slot + 1) & mask_) {
      const std::uint32_t id = slots_[slot];
      if (id == empty_slot) {
        slots_[slot] = static_cast<std::uint32_t>(positions.size());
        positions.push_back(p);
        return slots_[slot];
      }
      const Vec3& q = positions[id];
      if (position_bits(q.x) == x && position_bits(q.y) == y && position_bits(q.z) == z) return id;
    }
  }

 private:
  static constexpr std::uint32_t empty_slot = 0xFFFFFFFFu;

  static std::size_t hash(std::uint32_t x, std::uint32_t y, std::uint32_t z) noexcept {
    std::uint64_t h = x * 0x9E3779B97F4A7C15ull;
    h ^= (y + (h >> 29)) * 0xBF58476D1CE4E5B9ull;
    h ^= (z + (h >> 31)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }

  std::vector<std::uint32_t> slots_;
  std::size_t mask_;
};

// A directed side of a triangle, bucketed by its smaller vertex.
struct HalfEdge {
  std::uint32_t other;   // the larger vertex
  std::uint32_t corner;  // 3 * triangle + corner
  bool forward;          // walks from the smaller vertex to the larger
};

void count_edge(MeshTopology& topology, std::size_t first_use, std::size_t end_use) {
  const std::size_t uses = end_use - first_use;
  TopologyCounts& counts = topology.counts;
  if (uses == 1) ++counts.boundary_edges;
  if (uses >= 3) ++counts.non_manifold_edges;
  if (uses == 2) {
    ++counts.manifold_edges;
    if (topology.edge_uses[first_use].forward == topology.edge_uses[first_use + 1].forward)
      ++counts.misoriented_edges;
  }
}

// Groups the half-edges of each smaller vertex by their larger vertex: the edges come out
// sorted by (smaller, larger), their uses by triangle and corner.
void collect_edges(MeshTopology& topology, std::vector<std::uint32_t>& offsets,
                   std::vector<HalfEdge>& half_edges) {
  topology.edge_use_offsets.push_back(0);
  for (std::size_t vertex = 0; vertex + 1 < offsets.size(); ++vertex) {
    const auto begin = half_edges.begin() + offsets[vertex];
    const auto end = half_edges.begin() + offsets[vertex + 1];
    std::sort(begin, end, [](const HalfEdge& a, const HalfEdge& b) {
      return a.other != b.other ? a.other < b.other : a.corner < b.corner;
    });
    for (auto run = begin; run != end;) {
      auto run_end = run;
      const auto edge = static_cast<std::uint32_t>(topology.edges.size());
      for (; run_end != end && run_end->other == run->other; ++run_end) {
        topology.edge_uses.push_back({run_end->corner / 3,
                                      static_cast<std::uint8_t>(run_end->corner % 3),
                                      run_end->forward});
        topology.triangle_edges[run_end->corner] = edge;
      }
      topology.edges.push_back({static_cast<std::uint32_t>(vertex), run->other});
      topology.edge_use_offsets.push_back(static_cast<std::uint32_t>(topology.edge_uses.size()));
      count_edge(topology, topology.edge_use_offsets[edge], topology.edge_uses.size());
      run = run_end;
    }
  }
}

// Marks the triangles of zero area (exactly) and counts the edges that keep the mesh from
// being closed.
void count_zero_areas_and_odd_edges(const TriangleSoup& soup, MeshTopology& topology) {
  const std::size_t triangles = topology.vertices.triangle_count();
  topology.zero_area.resize(triangles);
  for (std::size_t t = 0; t < triangles; ++t) {
    topology.zero_area[t] = is_degenerate(soup.triangle(t));
    if (topology.zero_area[t]) ++topology.counts.zero_area_triangles;
  }
  for (std::size_t e = 0; e < topology.edges.size(); ++e)
    if (topology.area_use_count(e) % 2 == 1) ++topology.counts.odd_edges;
}

}  // namespace

std::size_t MeshTopology::area_use_count(std::size_t e) const noexcept {
  std::size_t count = 0;
  for (std::size_t use = edge_use_offsets[e]; use < edge_use_offsets[e + 1]; ++use)
    count += zero_area[edge_uses[use].triangle] ? 0u : 1u;
  return count;
}

std::optional<OpenEdge> MeshTopology::first_open_edge() const {
  if (is_closed()) return std::nullopt;
  for (std::size_t t = 0; t < vertices.triangle_count(); ++t) {
    if (zero_area[t]) continue;  // its corners are distinct: each side is an edge
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t count = area_use_count(triangle_edges[3 * t + k]);
      if (count % 2 == 1)
        return OpenEdge{vertices.positions[vertices.corners[3 * t + k]],
                        vertices.positions[vertices.corners[3 * t + (k + 1) % 3]], count};
    }
  }
  return std::nullopt;  // not reached: an odd edge has a use of non-zero area
}

WeldedVertices weld(const TriangleSoup& soup) {
  WeldedVertices welded;
  const std::size_t triangles = soup.size();
  welded.corners.resize(3 * triangles);
  if (soup.indices.empty()) {
    PositionTable table(soup.positions.size());
    for (std::size_t corner = 0; corner < 3 * triangles; ++corner)
      welded.corners[corner] = table.find_or_add(soup.positions[corner], welded.positions);
    return welded;
  }
  // Indexed: weld each used position once, then map the indices.
  constexpr std::uint32_t unused = 0xFFFFFFFFu;
  std::vector<std::uint32_t> welded_of_position(soup.positions.size(), unused);
  PositionTable table(std::min(soup.positions.size(), soup.indices.size()));
  for (std::size_t corner = 0; corner < 3 * triangles; ++corner) {
    std::uint32_t& id = welded_of_position[soup.indices[corner]];
    if (id == unused)
      id = table.find_or_add(soup.positions[soup.indices[corner]], welded.positions);
    welded.corners[corner] = id;
  }
  return welded;
}

MeshTopology topology(const TriangleSoup& soup) {
  MeshTopology topology;
  topology.vertices = weld(soup);
  const std::vector<std::uint32_t>& corners = topology.vertices.corners;
  const std::size_t corner_count = corners.size();
  if (corner_count >= 0xFFFFFFFFu)  // corners are numbered in 32 bits
    throw InvalidInput("topology: " + std::to_string(corner_count / 3) +
                       " triangles exceed the 32-bit corner range");
  topology.triangle_edges.assign(corner_count, MeshTopology::no_edge);

  // Bucket the half-edges by their smaller vertex (a counting sort: O(n)).
  std::vector<std::uint32_t> offsets(topology.vertices.positions.size() + 1, 0);
  const auto side = [&](std::size_t corner) {
    const std::size_t next = corner - corner % 3 + (corner % 3 + 1) % 3;
    return std::pair{corners[corner], corners[next]};
  };
  for (std::size_t corner = 0; corner < corner_count; ++corner) {
    const auto [from, to] = side(corner);
    if (from != to) ++offsets[std::min(from, to) + 1];
  }
  for (std::size_t t = 0; t < topology.vertices.triangle_count(); ++t) {
    const std::uint32_t a = corners[3 * t], b = corners[3 * t + 1], c = corners[3 * t + 2];
    if (a == b || b == c || c == a) ++topology.counts.collapsed_triangles;
  }
  for (std::size_t v = 1; v < offsets.size(); ++v) offsets[v] += offsets[v - 1];
  std::vector<HalfEdge> half_edges(offsets.back());
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t corner = 0; corner < corner_count; ++corner) {
    const auto [from, to] = side(corner);
    if (from == to) continue;
    half_edges[fill[std::min(from, to)]++] = {std::max(from, to),
                                              static_cast<std::uint32_t>(corner), from < to};
  }
  topology.edge_uses.reserve(half_edges.size());
  collect_edges(topology, offsets, half_edges);
  count_zero_areas_and_odd_edges(soup, topology);
  return topology;
}

}  // namespace trisect
