// find_open_edge and require_closed against an exact edge count (positions welded as floats
// compare, zero-area triangles left out): closed boxes, flipped, non-manifold but even, holes,
// holes "covered" by zero-area triangles, edges of three triangles (a duplicated face, a fin),
// -0 welded with 0, lattice soups and the real meshes.
#include "support/closed_meshes.hpp"
#include "support/describe.hpp"
#include "support/inside_oracle.hpp"

#include <trisect/math/validate.hpp>
#include <trisect/nearest/inside.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace trisect::testing {
namespace {

/// The first edge, in order of first use (triangle, then side ab, bc, ca), with an odd count.
std::optional<oracle::EdgeCount> first_odd_edge(const Scene& scene) {
  for (const oracle::EdgeCount& edge : oracle::edge_counts(scene.soup()))
    if (edge.triangles % 2 == 1) return edge;
  return std::nullopt;
}

/// find_open_edge and require_closed on `scene` against the exact edge count.
void check_open_edge(const Scene& scene) {
  INFO("scene " << scene.name << " (" << scene.size() << " triangles)");
  const auto expected = first_odd_edge(scene);
  const auto got = find_open_edge(scene.soup());
  REQUIRE(got.has_value() == expected.has_value());
  if (!expected) {
    CHECK_NOTHROW(require_closed(scene.soup(), scene.name));
    return;
  }
  INFO("expected " << describe(expected->first) << '-' << describe(expected->second) << " of "
                   << expected->triangles << " triangles, first used by triangle "
                   << expected->first_triangle);
  INFO("got " << describe(got->first) << '-' << describe(got->second) << " of " << got->triangles
              << " triangles");
  // The edge is one of the odd ones, with its count, and walked first -> second by the first
  // triangle that uses it.
  const auto edges = oracle::edge_counts(scene.soup());
  const auto match = std::find_if(edges.begin(), edges.end(), [&](const oracle::EdgeCount& e) {
    return oracle::same_edge(e.first, e.second, got->first, got->second);
  });
  REQUIRE(match != edges.end());
  CHECK(match->triangles % 2 == 1);
  CHECK(got->triangles == match->triangles);
  CHECK(got->first == match->first);
  CHECK(got->second == match->second);
  // The first such edge in triangle order.
  CHECK(match->first_triangle == expected->first_triangle);
  CHECK(oracle::same_edge(got->first, got->second, expected->first, expected->second));
  CHECK_THROWS_MATCHES(require_closed(scene.soup(), scene.name + ".obj"), InvalidInput,
                       Catch::Matchers::Predicate<InvalidInput>([&](const InvalidInput& e) {
                         const std::string what = e.what();
                         return what.find(scene.name + ".obj") != std::string::npos &&
                                what.find("not closed") != std::string::npos;
                       }));
}

TEST_CASE("find_open_edge on closed shapes: boxes, flipped, empty, non-manifold but even",
          "[nearest][open_edge]") {
  const Scene box = box_mesh(Vec3(-1.0f), Vec3(1.0f));
  REQUIRE_FALSE(first_odd_edge(box));
  check_open_edge(box);
  check_open_edge(flipped(box, 0, 2));
  check_open_edge(Scene{"empty", {}, {}});
  check_open_edge(octahedron_mesh(Vec3(0.5f), {1, 2, 0.5f, 3, 1e-3f, 7}));
  check_open_edge(tetrahedron_mesh(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)));
  // Two boxes sharing an edge (4 triangles on it) or a face (coplanar: 4 on each shared side).
  const std::vector<Scene> by_edge = {box,
                                      box_mesh(Vec3(1.0f, 1.0f, -1.0f), Vec3(3.0f, 3.0f, 1.0f))};
  const Scene shared_edge = merged(by_edge, "boxes_sharing_an_edge");
  const auto counts = oracle::edge_counts(shared_edge.soup());
  REQUIRE(std::any_of(counts.begin(), counts.end(),
                      [](const oracle::EdgeCount& e) { return e.triangles == 4; }));
  check_open_edge(shared_edge);
  const std::vector<Scene> by_face = {box,
                                      box_mesh(Vec3(1.0f, -1.0f, -1.0f), Vec3(3.0f, 1.0f, 1.0f))};
  check_open_edge(merged(by_face, "boxes_sharing_a_face"));
  // Zero-area triangles are left out: a segment, a point, a collinear triple.
  Scene with_degenerate = with_triangle(box, {Vec3(-1.0f), Vec3(-1.0f), Vec3(1.0f)});
  with_degenerate = with_triangle(with_degenerate, {Vec3(5.0f), Vec3(5.0f), Vec3(5.0f)});
  with_degenerate = with_triangle(with_degenerate, {Vec3(-1.0f), Vec3(0.0f), Vec3(1.0f)});
  check_open_edge(with_degenerate);
  check_open_edge(scenes::cube_sphere("cube_sphere", 4));
}

TEST_CASE("find_open_edge on edges used by three triangles: a duplicated face, a fin",
          "[nearest][open_edge]") {
  const Scene tetrahedron =
      tetrahedron_mesh(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1));
  const Triangle face = tetrahedron.triangle(0);
  for (const Triangle& copy : {face, Triangle{face.a, face.c, face.b}}) {
    const Scene doubled = with_triangle(tetrahedron, copy);
    const auto counts = oracle::edge_counts(doubled.soup());
    REQUIRE(std::count_if(counts.begin(), counts.end(),
                          [](const oracle::EdgeCount& e) { return e.triangles == 3; }) == 3);
    check_open_edge(doubled);
    const auto edge = find_open_edge(doubled.soup());
    REQUIRE(edge);
    CHECK(edge->triangles == 3);
    CHECK(oracle::same_edge(edge->first, edge->second, face.a, face.b));
  }
  // A fin on the box's edge used first: that edge has three triangles, the fin's others one.
  const Scene box = box_mesh(Vec3(0.0f), Vec3(1.0f));
  const Triangle first = box.triangle(0);
  const Scene fin = with_triangle(box, {first.a, first.b, Vec3(-1, -1, 0.5f)});
  check_open_edge(fin);
  const auto edge = find_open_edge(fin.soup());
  REQUIRE(edge);
  CHECK(edge->triangles == 3);
  CHECK(oracle::same_edge(edge->first, edge->second, first.a, first.b));
}

TEST_CASE("find_open_edge welds -0 with 0", "[nearest][open_edge]") {
  Scene box = box_mesh(Vec3(0.0f), Vec3(1.0f));
  for (std::size_t k = 0; k < box.positions.size(); k += 2)
    for (int axis = 0; axis < 3; ++axis)
      if (box.positions[k][axis] == 0.0f) box.positions[k][axis] = -0.0f;
  check_open_edge(box);
  REQUIRE_FALSE(find_open_edge(box.soup()));
}

TEST_CASE("find_open_edge reports an edge of a hole", "[nearest][open_edge]") {
  const Scene box = box_mesh(Vec3(-1, -2, -3), Vec3(4, 5, 6));
  for (std::size_t hole = 0; hole < box.size(); ++hole) {
    const Triangle removed = box.triangle(hole);
    const Scene open = without(box, hole);
    check_open_edge(open);
    const auto edge = find_open_edge(open.soup());
    REQUIRE(edge);
    CHECK(edge->triangles == 1);
    const bool of_hole = oracle::same_edge(edge->first, edge->second, removed.a, removed.b) ||
                         oracle::same_edge(edge->first, edge->second, removed.b, removed.c) ||
                         oracle::same_edge(edge->first, edge->second, removed.c, removed.a);
    CHECK(of_hole);
    // The hole "covered" by a zero-area triangle on its vertices is still open.
    check_open_edge(with_triangle(open, {removed.a, removed.b, removed.a}));
    check_open_edge(with_triangle(open, {removed.a, removed.a, removed.a}));
    // Covered by the same triangle turned over: closed again.
    check_open_edge(with_triangle(open, {removed.a, removed.c, removed.b}));
  }
}

TEST_CASE("find_open_edge on lattice soups and the real meshes", "[nearest][open_edge]") {
  for (std::uint64_t seed = 0; seed < 5; ++seed) check_open_edge(lattice_soup(200, 430 + seed));
  for (const Scene& mesh : shared_mesh_scenes()) check_open_edge(mesh);
}

}  // namespace
}  // namespace trisect::testing
