// Welding by exact position and edge topology, against hand-counted meshes and a brute-force
// oracle on lattice soups.
#include <trisect/mesh/topology.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace trisect {
namespace {

// The unit cube, 12 triangles facing outward (counter-clockwise seen from outside).
struct Cube {
  std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                              {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  std::vector<std::uint32_t> indices{0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
  [[nodiscard]] TriangleSoup soup() const { return {positions, indices}; }
  // The same triangles as a plain soup (3 positions per triangle, as STL stores them).
  [[nodiscard]] std::vector<Vec3> unindexed() const {
    std::vector<Vec3> soup;
    for (std::uint32_t index : indices) soup.push_back(positions[index]);
    return soup;
  }
};

TEST_CASE("topology: a closed outward cube has 18 manifold edges, consistently oriented") {
  const Cube cube;
  const MeshTopology topology = trisect::topology(cube.soup());
  CHECK(topology.vertices.positions.size() == 8);
  CHECK(topology.edges.size() == 18);
  CHECK(topology.counts.manifold_edges == 18);
  CHECK(topology.counts.boundary_edges == 0);
  CHECK(topology.counts.non_manifold_edges == 0);
  CHECK(topology.counts.misoriented_edges == 0);
  CHECK(topology.counts.collapsed_triangles == 0);
  CHECK(topology.counts.odd_edges == 0);
  CHECK(topology.is_closed());
  CHECK(topology.is_closed_manifold());
  CHECK(topology.is_consistently_oriented());
  CHECK_FALSE(topology.first_open_edge());
  for (std::size_t e = 0; e < topology.edges.size(); ++e) CHECK(topology.use_count(e) == 2);
}

TEST_CASE("topology: an STL-like soup welds into the same edges as its indexed mesh") {
  const Cube cube;
  const std::vector<Vec3> soup = cube.unindexed();
  const MeshTopology plain = topology(TriangleSoup{soup});
  const MeshTopology indexed = topology(cube.soup());
  CHECK(plain.vertices.positions == indexed.vertices.positions);
  CHECK(plain.vertices.corners == indexed.vertices.corners);
  CHECK(plain.edges == indexed.edges);
  CHECK(plain.triangle_edges == indexed.triangle_edges);
  CHECK(plain.is_closed());
}

TEST_CASE("topology: a flipped triangle makes its three edges misoriented") {
  Cube cube;
  std::swap(cube.indices[1], cube.indices[2]);
  const MeshTopology topology = trisect::topology(cube.soup());
  CHECK(topology.counts.misoriented_edges == 3);
  CHECK(topology.is_closed());
  CHECK_FALSE(topology.is_consistently_oriented());
}

TEST_CASE("topology: an open cube has a boundary, three triangles on an edge are non-manifold") {
  Cube cube;
  cube.indices.resize(33);  // drop the last triangle
  MeshTopology topology = trisect::topology(cube.soup());
  CHECK(topology.counts.boundary_edges == 3);
  CHECK(topology.counts.manifold_edges == 15);
  CHECK(topology.counts.odd_edges == 3);
  CHECK_FALSE(topology.is_closed());
  CHECK_FALSE(topology.is_closed_manifold());

  const std::vector<Vec3> fin{{0, 0, 0},  {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {1, 0, 0},
                              {0, -1, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  topology = trisect::topology(TriangleSoup{fin});
  CHECK(topology.counts.non_manifold_edges == 1);
  CHECK(topology.counts.boundary_edges == 6);
  CHECK(topology.counts.odd_edges == 7);
  CHECK_FALSE(topology.is_closed());
  const auto shared =
      std::find(topology.edges.begin(), topology.edges.end(), std::array<std::uint32_t, 2>{0, 1});
  REQUIRE(shared != topology.edges.end());
  CHECK(topology.use_count(std::size_t(shared - topology.edges.begin())) == 3);
}

TEST_CASE("topology: collapsed triangles are counted, closed (no area) but never manifold") {
  const std::vector<Vec3> point{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  MeshTopology topology = trisect::topology(TriangleSoup{point});
  CHECK(topology.counts.collapsed_triangles == 1);
  CHECK(topology.edges.empty());
  CHECK(topology.triangle_edges == std::vector<std::uint32_t>(3, MeshTopology::no_edge));
  CHECK(topology.counts.zero_area_triangles == 1);
  CHECK(topology.is_closed());
  CHECK_FALSE(topology.is_closed_manifold());

  // (a, a, b): the side a–b is used twice, once each way; the side a–a is no edge.
  const std::vector<Vec3> needle{{0, 0, 0}, {0, 0, 0}, {1, 0, 0}};
  topology = trisect::topology(TriangleSoup{needle});
  CHECK(topology.counts.collapsed_triangles == 1);
  REQUIRE(topology.edges.size() == 1);
  CHECK(topology.use_count(0) == 2);
  CHECK(topology.edge_uses[0].forward != topology.edge_uses[1].forward);
  CHECK(topology.triangle_edges == std::vector<std::uint32_t>{MeshTopology::no_edge, 0, 0});
  CHECK(topology.area_use_count(0) == 0);
  CHECK(topology.is_closed());
  CHECK_FALSE(topology.is_closed_manifold());
}

// Two tetrahedra sharing the edge (0,0,0)-(1,0,0), which four triangles then use.
std::vector<Vec3> tetrahedra_sharing_an_edge() {
  const Vec3 a{0, 0, 0}, b{1, 0, 0};
  const Vec3 c{0, 1, 0}, d{0, 0.5f, 1}, e{0, -1, 0}, f{0, -0.5f, -1};
  return {a, c, b, a, b, d, a, d, c, b, c, d, a, b, e, a, f, b, a, e, f, b, f, e};
}

TEST_CASE("topology: one rule for closed, where 'watertight' and is_closed used to disagree") {
  // Non-manifold but closed: every edge has an even number of triangles (the shared one four).
  const std::vector<Vec3> pair = tetrahedra_sharing_an_edge();
  MeshTopology topology = trisect::topology(TriangleSoup{pair});
  CHECK(topology.counts.non_manifold_edges == 1);
  CHECK(topology.is_closed());
  CHECK_FALSE(topology.is_closed_manifold());
  CHECK_FALSE(topology.first_open_edge());

  // A closed cube plus a zero-area triangle (three collinear corners on an edge of it): closed,
  // not manifold.
  Cube cube;
  std::vector<Vec3> soup = cube.unindexed();
  soup.insert(soup.end(), {{0, 0, 0}, {0.5f, 0, 0}, {1, 0, 0}});
  topology = trisect::topology(TriangleSoup{soup});
  CHECK(topology.counts.zero_area_triangles == 1);
  CHECK(topology.counts.collapsed_triangles == 0);
  CHECK(topology.is_closed());
  CHECK_FALSE(topology.is_closed_manifold());

  // A T-junction: one side of the square (0,0)-(2,0) against two triangles meeting at (1,0);
  // a zero-area triangle along it does not close it. The first open edge in triangle order is
  // the first triangle's first side, used by one triangle of non-zero area.
  const std::vector<Vec3> t_junction{{0, 0, 0},  {2, 0, 0},  {1, 1, 1}, {0, 0, 0},
                                     {1, 0, 0},  {1, -1, 1}, {1, 0, 0}, {2, 0, 0},
                                     {1, -1, 1}, {0, 0, 0},  {1, 0, 0}, {2, 0, 0}};
  topology = trisect::topology(TriangleSoup{t_junction});
  CHECK_FALSE(topology.is_closed());
  const auto open = topology.first_open_edge();
  REQUIRE(open);
  CHECK(open->first == Vec3(0, 0, 0));
  CHECK(open->second == Vec3(2, 0, 0));
  CHECK(open->triangles == 1);
}

TEST_CASE("weld: -0 and +0 are one vertex, neighbouring floats are not") {
  const std::vector<Vec3> soup{{-0.0f, 0, 0}, {1, 0, 0}, {0, 1, 0},
                               {0.0f, 0, 0},  {1, 0, 0}, {0, std::nextafter(1.0f, 2.0f), 0}};
  const WeldedVertices welded = weld(TriangleSoup{soup});
  CHECK(welded.positions.size() == 4);
  CHECK(welded.corners == std::vector<std::uint32_t>{0, 1, 2, 0, 1, 3});
}

TEST_CASE("topology: lattice soups agree with a brute-force edge count") {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> coordinate(0, 3);
  for (int round = 0; round < 50; ++round) {
    std::vector<Vec3> soup;
    for (int i = 0; i < 3 * 60; ++i)
      soup.emplace_back(float(coordinate(random)), float(coordinate(random)), 0.0f);
    const MeshTopology topology = trisect::topology(TriangleSoup{soup});

    // Oracle: edges keyed by their two positions, uses listed by (triangle, corner).
    using Key = std::pair<std::array<float, 3>, std::array<float, 3>>;
    std::map<Key, std::vector<std::pair<std::uint32_t, int>>> oracle;
    std::size_t collapsed = 0, zero_area = 0;
    std::map<Key, int> area_uses;  // uses by triangles of non-zero area
    for (std::uint32_t t = 0; t < soup.size() / 3; ++t) {
      const Vec3* v = &soup[3 * t];
      collapsed += (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) ? 1u : 0u;
      // Small integers in the plane z = 0: the cross product is exact in float.
      const float cross =
          (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
      CHECK(topology.zero_area[t] == (cross == 0.0f));
      zero_area += cross == 0.0f ? 1u : 0u;
      for (int k = 0; k < 3; ++k) {
        const Vec3 a = v[k], b = v[(k + 1) % 3];
        if (a == b) continue;
        std::array<float, 3> p{a.x, a.y, a.z}, q{b.x, b.y, b.z};
        if (q < p) std::swap(p, q);
        oracle[{p, q}].emplace_back(t, k);
        if (cross != 0.0f) ++area_uses[{p, q}];
      }
    }
    std::size_t odd = 0;
    for (const auto& [key, uses] : area_uses) odd += uses % 2 == 1 ? 1u : 0u;
    CHECK(topology.counts.zero_area_triangles == zero_area);
    CHECK(topology.counts.odd_edges == odd);
    CHECK(topology.is_closed() == (odd == 0));
    REQUIRE(topology.edges.size() == oracle.size());
    CHECK(topology.counts.collapsed_triangles == collapsed);
    std::multiset<std::vector<std::pair<std::uint32_t, int>>> expected, actual;
    for (const auto& [key, uses] : oracle) expected.insert(uses);
    for (std::size_t e = 0; e < topology.edges.size(); ++e) {
      std::vector<std::pair<std::uint32_t, int>> uses;
      for (std::size_t u = topology.edge_use_offsets[e]; u < topology.edge_use_offsets[e + 1]; ++u)
        uses.emplace_back(topology.edge_uses[u].triangle, topology.edge_uses[u].corner);
      actual.insert(uses);
      const Vec3 a = topology.vertices.positions[topology.edges[e][0]];
      const Vec3 b = topology.vertices.positions[topology.edges[e][1]];
      for (const auto& [triangle, corner] : uses) {
        const Vec3 from = soup[3 * triangle + std::uint32_t(corner)];
        CHECK((from == a || from == b));
      }
    }
    CHECK(actual == expected);
  }
}

}  // namespace
}  // namespace trisect
