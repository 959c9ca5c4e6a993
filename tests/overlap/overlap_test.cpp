// Mesh-vs-mesh and self overlap against brute force: every pair of triangles tested with the
// exact predicates, with and without a transform, at several thread counts.
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/geometry/self_overlap.hpp>
#include <trisect/geometry/triangle_triangle.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/overlap/overlap.hpp>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace trisect::testing {
namespace {

/// Each coordinate of R·x + T in double as the contract orders it, ((R_r0·x + R_r1·y) +
/// R_r2·z) + T_r, rounded per operation, then to float: the rule written out again. With
/// `last_two_first`, R_r0·x + (R_r1·y + R_r2·z) + T_r instead, an order the contract rules
/// out, to show that a test tells them apart. Each term and partial sum is stored to a
/// volatile double, so that no compiler fuses a product into a sum or reorders the sums (this
/// file is compiled without -ffp-contract=off).
Vec3 mapped(const Transform& transform, const Vec3& p, bool last_two_first = false) {
  Vec3 result;
  for (int r = 0; r < 3; ++r) {
    const auto* row = &transform.rows[std::size_t(4 * r)];
    const volatile double x = double(row[0]) * double(p.x), y = double(row[1]) * double(p.y),
                          z = double(row[2]) * double(p.z);
    const volatile double partial = last_two_first ? y + z : x + y;
    const volatile double sum = last_two_first ? x + partial : partial + z;
    result[r] = static_cast<float>(sum + double(row[3]));
  }
  return result;
}

std::vector<TrianglePair> brute_force(const Scene& first, const Scene& second,
                                      const Transform& transform) {
  std::vector<Triangle> moved;
  for (std::size_t j = 0; j < second.size(); ++j) {
    const Triangle t = second.soup().triangle(j);
    moved.push_back({mapped(transform, t.a), mapped(transform, t.b), mapped(transform, t.c)});
  }
  std::vector<TrianglePair> pairs;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const Triangle s = first.soup().triangle(i);
    for (std::size_t j = 0; j < moved.size(); ++j)
      if (intersects(s, moved[j])) pairs.push_back({TriangleId(i), TriangleId(j)});
  }
  return pairs;
}

std::vector<TrianglePair> brute_force_self(const Scene& scene) {
  std::vector<TrianglePair> pairs;
  for (std::size_t i = 0; i < scene.size(); ++i)
    for (std::size_t j = i + 1; j < scene.size(); ++j)
      if (intersects_beyond_shared_vertices(scene.soup().triangle(i), scene.soup().triangle(j)))
        pairs.push_back({TriangleId(i), TriangleId(j)});
  return pairs;
}

/// R·x + T from a rotation about z by `degrees` (rounded to float) and a translation.
Transform rotation_z(double degrees, Vec3 offset) {
  const double radians = degrees * 3.14159265358979323846 / 180.0;
  const auto c = static_cast<float>(std::cos(radians)), s = static_cast<float>(std::sin(radians));
  return {{c, -s, 0, offset.x, s, c, 0, offset.y, 0, 0, 1, offset.z}};
}

/// Every form of the query on `first` against `second`: collected at 1, 2 and 8 threads, the
/// visitor, and the early-out form, all checked against brute force.
void require_pairs_match(const Scene& first, const Scene& second, const Transform& transform) {
  INFO(first.name << " against " << second.name);
  const Bvh a = build(first.soup()), b = build(second.soup());
  const std::vector<TrianglePair> expected = brute_force(first, second, transform);
  for (unsigned threads : {1u, 2u, 8u, 4096u}) {
    INFO(threads << " threads");
    REQUIRE(collect_intersecting_pairs(a, b, transform, OverlapOptions{threads}) == expected);
  }
  CHECK_THROWS_WITH(collect_intersecting_pairs(a, b, transform, OverlapOptions{4097u}),
                    "overlap options: threads must be from 0 to 4096, got 4097");
  std::vector<TrianglePair> visited;
  for_each_intersecting_pair(a, b, transform, [&](TriangleId i, TriangleId j) {
    visited.push_back({i, j});
    return true;
  });
  std::sort(visited.begin(), visited.end());
  CHECK(visited == expected);
  CHECK(any_intersecting_pair(a, b, transform) == !expected.empty());
}

void require_self_match(const Scene& scene) {
  INFO(scene.name);
  const Bvh bvh = build(scene.soup());
  const std::vector<TrianglePair> expected = brute_force_self(scene);
  for (unsigned threads : {1u, 2u, 8u, 4096u}) {
    INFO(threads << " threads");
    REQUIRE(self_intersections(bvh, OverlapOptions{threads}) == expected);
  }
  CHECK_THROWS_WITH(self_intersections(bvh, OverlapOptions{0xFFFFFFFFu}),
                    "overlap options: threads must be from 0 to 4096, got 4294967295");
  std::vector<TrianglePair> visited;
  for_each_self_intersection(bvh, [&](TriangleId i, TriangleId j) {
    visited.push_back({i, j});
    return true;
  });
  std::sort(visited.begin(), visited.end());
  CHECK(visited == expected);
}

/// The triangles of `scene` with every vertex at `from` moved to `to` (all copies alike).
Scene moved_vertex(Scene scene, Vec3 from, Vec3 to) {
  for (Vec3& p : scene.positions)
    if (p == from) p = to;
  scene.name += "_pushed";
  return scene;
}

Scene explicit_scene(const std::string& name, std::vector<Vec3> positions) {
  return {name, std::move(positions)};
}

}  // namespace

TEST_CASE("overlap pairs equal brute force on soups", "[bvh][overlap]") {
  const Transform identity;
  require_pairs_match(random_soup(1500, 21), random_soup(1500, 22), identity);
  require_pairs_match(lattice_soup(1500, 23), lattice_soup(1500, 24), identity);
  require_pairs_match(needles(600, 25), random_soup(800, 26), identity);
  require_pairs_match(noisy_sphere(20, 30, 27), noisy_sphere(20, 30, 28), identity);
  require_pairs_match(lattice_soup(1000, 29), lattice_soup(1000, 29), identity);  // itself
  require_pairs_match(transformed(random_soup(1000, 30), 1.0f, Vec3(1e6f), "_far"),
                      transformed(random_soup(1000, 31), 1.0f, Vec3(1e6f), "_far"), identity);
}

TEST_CASE("overlap pairs equal brute force with a transform", "[bvh][overlap]") {
  // Exact on the lattice: a quarter turn and an integer shift.
  const Transform quarter{{0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, -1}};
  require_pairs_match(lattice_soup(1500, 41), lattice_soup(1500, 42), quarter);
  require_pairs_match(noisy_sphere(20, 30, 43), noisy_sphere(20, 30, 43),
                      rotation_z(37.0, Vec3(0.5f, 0.25f, 0.0f)));
  require_pairs_match(random_soup(1500, 44), random_soup(1500, 45),
                      rotation_z(-113.0, Vec3(0.1f, -0.3f, 2.0f)));
  // A shear and a scale with a far offset: node boxes must still cover the mapped triangles.
  const Transform shear{{2, 0.5f, 0, 1e3f, 0, 0.75f, 0.1f, -1e3f, 0, 0, 3, 0}};
  require_pairs_match(transformed(random_soup(1000, 46), 3.0f, Vec3(1e3f, -1e3f, 0), "_big"),
                      random_soup(1000, 47), shear);
  require_pairs_match(lattice_soup(1000, 48), lattice_soup(1000, 49),
                      Transform{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}});  // all to the origin
}

TEST_CASE("overlap: empty meshes and invalid transforms", "[bvh][overlap]") {
  const Bvh empty = build(TriangleSoup{}), some = build(random_soup(100, 50).soup());
  CHECK(collect_intersecting_pairs(empty, some).empty());
  CHECK(collect_intersecting_pairs(some, empty).empty());
  CHECK(self_intersections(empty).empty());
  CHECK_FALSE(any_intersecting_pair(empty, empty));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(
      collect_intersecting_pairs(some, some, Transform{{nan, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}}),
      InvalidInput);
  const Transform huge{{3e38f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
  CHECK_THROWS_AS(collect_intersecting_pairs(some, some, huge), InvalidInput);
  CHECK_THROWS_AS(any_intersecting_pair(some, some, huge), InvalidInput);
}

TEST_CASE("Transform::apply follows the rounding rule", "[bvh][overlap]") {
  const Transform t = rotation_z(29.0, Vec3(0.1f, 1e6f, -3.0f));
  std::mt19937_64 random(51);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 p(uniform(random, -1e3f, 1e3f), uniform(random, -1e3f, 1e3f),
                 uniform(random, -1e3f, 1e3f));
    REQUIRE(t.apply(p) == mapped(t, p));
  }
  CHECK(Transform::identity().is_identity());
  CHECK(Transform::identity().apply(Vec3(1.5f, -2.0f, 0.0f)) == Vec3(1.5f, -2.0f, 0.0f));
}

TEST_CASE("Transform::apply sums each row in the contract's order", "[bvh][overlap]") {
  // (2^60 - 2^60) + 1 is 1; 2^60 + (-2^60 + 1) rounds to 0.
  const Transform ones{{1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, -1}};
  const Vec3 p(0x1p60f, -0x1p60f, 1.0f);
  CHECK(ones.apply(p) == Vec3(1.0f, -0x1p60f, 0x1p60f));
  CHECK(mapped(ones, p, true) == Vec3(0.0f, -0x1p60f, 0x1p60f));
  // Full matrices and points whose products nearly cancel: the two orders differ often.
  std::mt19937_64 random(52);
  int told_apart = 0;
  for (int i = 0; i < 2000; ++i) {
    Transform t;
    for (float& entry : t.rows) entry = uniform(random, -2.0f, 2.0f);
    if (std::fabs(t.rows[1]) < 1e-3f) continue;
    const float scale = uniform(random, 0.0f, 1.0f) < 0.5f ? 1e12f : 1e9f;
    Vec3 q(uniform(random, -1.0f, 1.0f) * scale, uniform(random, -1.0f, 1.0f) * scale,
           uniform(random, -1.0f, 1.0f));
    q.y = -q.x * t.rows[0] / t.rows[1];  // R00·x + R01·y nearly cancels
    INFO("point " << q.x << ' ' << q.y << ' ' << q.z);
    REQUIRE(t.apply(q) == mapped(t, q));
    if (mapped(t, q) != mapped(t, q, true)) ++told_apart;
  }
  CHECK(told_apart > 50);
}

TEST_CASE("overlap maps the second mesh's vertices in the contract's order", "[bvh][overlap]") {
  // A point-triangle at (2^60, -2^60, 1) mapped by rows (1, 1, 1, 0), (0, 0, 0, 0), (0, 0, 0, 0)
  // lands at (1, 0, 0), a vertex of the triangle in the plane x = 1; summed in another order
  // it would land at the origin, off that plane.
  const std::vector<Vec3> plane_x1{{1, 0, 0}, {1, 1, 0}, {1, 0, 1}};
  const Vec3 far(0x1p60f, -0x1p60f, 1.0f);
  const std::vector<Vec3> point{far, far, far};
  const Transform sum_x{{1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  REQUIRE(mapped(sum_x, far, true) == Vec3(0.0f));
  const Bvh first = build(TriangleSoup{plane_x1}), second = build(TriangleSoup{point});
  CHECK(collect_intersecting_pairs(first, second, sum_x) == std::vector<TrianglePair>{{0, 0}});
  CHECK(any_intersecting_pair(first, second, sum_x));
}

TEST_CASE("self intersections equal brute force", "[bvh][overlap]") {
  require_self_match(random_soup(1500, 61));
  require_self_match(lattice_soup(1500, 62));
  require_self_match(needles(500, 63));
  const Scene sphere = noisy_sphere(20, 30, 64);
  require_self_match(sphere);
  // A vertex pushed through the far side of the sphere: its fan crosses the other triangles.
  const Vec3 pole = sphere.positions[0];
  const Scene pushed = moved_vertex(sphere, pole, -1.3f * pole);
  const std::vector<TrianglePair> crossings = brute_force_self(pushed);
  CHECK(!crossings.empty());
  require_self_match(pushed);
}

TEST_CASE("self intersections equal brute force on subdivided meshes (flat neighbours)",
          "[bvh][overlap]") {
  // Split twice 1-to-4 at rounded midpoints: most neighbours nearly coplanar, fans with edges
  // in line, the case the plane sides cannot decide in float.
  const Scene sphere = scenes::cube_sphere("cube_sphere", 4);  // indexed, 192 triangles
  const Scene twice = scenes::subdivided(scenes::subdivided(sphere, "once"), "twice");
  require_self_match(twice);
  // A vertex pushed through the far side: flat fans crossing flat fans.
  const Vec3 pole = twice.positions[0];
  require_self_match(moved_vertex(twice, pole, -1.3f * pole));
  // Exactly flat: a subdivided square (every triangle in z = 0), and one folded onto itself.
  const Scene square{
      "square", {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}, {0, 1, 2, 0, 2, 3}};
  const Scene flat = scenes::subdivided(scenes::subdivided(square, "once"), "twice");
  CHECK(self_intersections(build(flat.soup())).empty());
  require_self_match(flat);
  // Leaves of up to 64 triangles: a leaf's pairs span many groups of four.
  BuildOptions big_leaves;
  big_leaves.max_leaf_size = 64;
  const Scene folded = moved_vertex(twice, pole, 0.2f * pole);
  CHECK(self_intersections(build(folded.soup(), big_leaves)) == brute_force_self(folded));
  require_self_match(moved_vertex(flat, Vec3(0.5f, 0.5f, 0), Vec3(1.25f, 0.5f, 0)));
}

TEST_CASE("self intersections: folds and coplanar overlaps across an edge", "[bvh][overlap]") {
  const Vec3 a(0, 0, 0), b(4, 0, 0), c(0, 4, 0);
  // A crease and a flat quad: nothing. The second triangle folded flat back onto the first,
  // and one overlapping it across the edge: reported.
  const Scene crease = explicit_scene("crease", {a, b, c, b, c, Vec3(4, 4, 3)});
  const Scene quad = explicit_scene("quad", {a, b, c, b, c, Vec3(4, 4, 0)});
  const Scene fold = explicit_scene("fold", {a, b, c, b, c, Vec3(1, 1, 0)});
  const Scene across = explicit_scene("across", {a, b, c, c, b, Vec3(3, -1, 0)});
  const Scene twice = explicit_scene("twice", {a, b, c, c, a, b});
  CHECK(self_intersections(build(crease.soup())).empty());
  CHECK(self_intersections(build(quad.soup())).empty());
  CHECK(self_intersections(build(fold.soup())) == std::vector<TrianglePair>{{0, 1}});
  CHECK(self_intersections(build(across.soup())) == std::vector<TrianglePair>{{0, 1}});
  CHECK(self_intersections(build(twice.soup())) == std::vector<TrianglePair>{{0, 1}});
  for (const Scene& scene : {crease, quad, fold, across, twice}) require_self_match(scene);
}

TEST_CASE(
    "self intersections: shared meshes, a pushed-through vertex, an indexed mesh answers "
    "like its soup",
    "[bvh][overlap]") {
  // The cow has 81 genuine crossings (near its ears, checked against the exact oracle), the
  // others none.
  for (const auto& [name, crossings] :
       std::vector<std::pair<std::string, std::size_t>>{{"spot", 0}, {"cow", 81}, {"fandisk", 0}}) {
    const auto file = scenes::shared_mesh_file(name);
    if (!file) {
      WARN("no shared mesh " << name << "; it is left out (set TRISECT_MESH_DIR)");
      continue;
    }
    INFO(name);
    Mesh mesh = load_mesh(*file);
    CHECK(self_intersections(mesh.soup()).size() == crossings);
    // Move one vertex to just beyond the vertex farthest from it: its fan now runs through the
    // mesh and out across the far side.
    const std::uint32_t moved = mesh.indices[0];
    const Vec3 from = mesh.positions[moved];
    Vec3 far = from;
    for (const Vec3& p : mesh.positions)
      if (glm::length(p - from) > glm::length(far - from)) far = p;
    mesh.positions[moved] = far + 0.02f * (far - from);
    std::vector<Vec3> soup_positions;
    for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
      const Triangle triangle = mesh.soup().triangle(t);
      soup_positions.insert(soup_positions.end(), {triangle.a, triangle.b, triangle.c});
    }
    const Scene soup{name + "_soup", soup_positions};
    const std::vector<TrianglePair> indexed = self_intersections(mesh.soup());
    CHECK(indexed.size() > crossings);
    CHECK(self_intersections(soup.soup()) == indexed);
    if (mesh.triangle_count() <= 6000) CHECK(brute_force_self(soup) == indexed);
  }
}

}  // namespace trisect::testing
