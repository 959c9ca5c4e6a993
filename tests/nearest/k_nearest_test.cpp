// k_nearest against the exact brute-force oracle (GMP rationals): the same ids in the same
// order (ascending exact distance, ties by id) on scenes rich in exact ties, degenerate and
// needle triangles, extreme scales and a real mesh; limits met exactly; k = 1 is closest_point;
// bad queries named.
#include "support/describe.hpp"
#include "support/nearest_check.hpp"
#include "support/property.hpp"
#include "support/random_cases.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/nearest/k_nearest.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float unlimited = std::numeric_limits<float>::infinity();

// REQUIREs that `k_nearest` and `k_nearest_batch` give the oracle's answers at every point.
void check_k_nearest(const Scene& scene, const std::vector<Vec3>& points, std::size_t k,
                     float max_distance = unlimited) {
  INFO("scene " << scene.name << " (" << scene.size() << " triangles), k " << k << ", max_distance "
                << max_distance);
  const TriangleSoup soup = scene.soup();
  const Bvh bvh = build(soup);
  const std::vector<std::vector<ClosestPoint>> batch =
      k_nearest_batch(bvh, points, k, max_distance);
  REQUIRE(batch.size() == points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    INFO("point " << describe(points[i]));
    const std::vector<oracle::NearestAnswer> expected =
        oracle::k_nearest(soup, points[i], k, max_distance);
    const std::vector<ClosestPoint> got = k_nearest(bvh, points[i], k, max_distance);
    REQUIRE(got.size() == expected.size());
    REQUIRE(batch[i].size() == expected.size());
    for (std::size_t rank = 0; rank < expected.size(); ++rank) {
      INFO("rank " << rank);
      check_closest_answer(scene, points[i], got[rank], expected[rank]);
      REQUIRE(batch[i][rank].id == got[rank].id);
      REQUIRE(batch[i][rank].distance == got[rank].distance);
    }
  }
}

TEST_CASE("k_nearest equals the exact brute force on procedural scenes", "[nearest][k_nearest]") {
  const Scene random = random_soup(300, 21);
  const Scene lattice = lattice_soup(300, 22);
  const Scene sphere = noisy_sphere(8, 12, 24);
  std::vector<Vec3> sphere_points = nearest_query_points(sphere, 60, 34);
  sphere_points.push_back(Vec3(0.0f));  // the centre: every triangle nearly equidistant
  for (const std::size_t k : {1u, 2u, 8u, 33u}) {
    check_k_nearest(random, nearest_query_points(random, 60, 31), k);
    check_k_nearest(lattice, nearest_query_points(lattice, 80, 32, 0.5f), k);
    check_k_nearest(sphere, sphere_points, k);
  }
}

TEST_CASE("k_nearest on degenerate, needle and extreme-scale triangles", "[nearest][k_nearest]") {
  std::uint64_t seed = 140;
  for (const Regime regime : all_regimes) {
    const Scene scene = regime_scene(regime, 150, ++seed);
    std::vector<Vec3> points = nearest_query_points(scene, 50, ++seed, 0.5f);
    CaseGenerator generate(++seed);
    for (int i = 0; i < 30; ++i) {
      generate.begin(regime);
      points.push_back(generate.point());
    }
    check_k_nearest(scene, points, 5);
  }
}

TEST_CASE("k_nearest on lattice ties: equidistant triangles by ascending id",
          "[nearest][k_nearest]") {
  const Scene scene = square_ties_scene();
  std::vector<Vec3> points;
  for (int x = -3; x <= 3; ++x)
    for (int y = -3; y <= 3; ++y)
      for (int z = -2; z <= 4; ++z) points.push_back(0.5f * Vec3(float(x), float(y), float(z)));
  for (const std::size_t k : {3u, 7u, 16u, 100u}) check_k_nearest(scene, points, k);

  // The origin: all eight lower triangles at distance 0, ids 0..7 in order, then the upper
  // eight at distance 2.
  const Bvh bvh = build(scene.soup());
  const std::vector<ClosestPoint> at_origin = k_nearest(bvh, Vec3(0.0f), 10);
  REQUIRE(at_origin.size() == 10);
  for (std::size_t rank = 0; rank < 8; ++rank) {
    CHECK(at_origin[rank].id == rank);
    CHECK(at_origin[rank].distance == 0.0);
  }
  CHECK(at_origin[8].id == 8);
  CHECK(at_origin[9].id == 9);
  CHECK(at_origin[8].distance == 2.0);
}

TEST_CASE("k_nearest counts a triangle at exactly max_distance and none beyond",
          "[nearest][k_nearest]") {
  const Scene scene = lattice_soup(200, 61);
  const std::vector<Vec3> points = nearest_query_points(scene, 60, 62, 0.5f);
  for (const float limit : {0.0f, 0.5f, 1.0f, 1.5f, 2.0f}) check_k_nearest(scene, points, 6, limit);
  // Three triangles in the planes z = 1, 2 and 3 above the origin: at max_distance 2 exactly
  // the first two count.
  Scene stack{"stack", {}, {}};
  for (const float z : {1.0f, 2.0f, 3.0f})
    stack.positions.insert(stack.positions.end(), {Vec3(-1, -1, z), Vec3(1, -1, z), Vec3(0, 1, z)});
  const Bvh bvh = build(stack.soup());
  const std::vector<ClosestPoint> within = k_nearest(bvh, Vec3(0.0f), 3, 2.0f);
  REQUIRE(within.size() == 2);
  CHECK(within[0].id == 0);
  CHECK(within[1].id == 1);
  CHECK(within[1].distance == 2.0);
  CHECK(k_nearest(bvh, Vec3(0.0f), 3, std::nextafter(1.0f, 0.0f)).empty());
}

TEST_CASE("k_nearest with k = 1 is closest_point, and k beyond the mesh gives every triangle",
          "[nearest][k_nearest]") {
  const auto file = scenes::shared_mesh_file("stanford-bunny");
  if (!file) {
    WARN("no shared bunny mesh in " << scenes::shared_mesh_folder() << " (set TRISECT_MESH_DIR)");
    return;
  }
  const Scene scene = scenes::as_soup(scenes::load_scene("stanford-bunny", *file));
  const Bvh bvh = build(scene.soup());
  for (const Vec3& point : nearest_query_points(scene, testing::reduced_run() ? 50 : 200, 71)) {
    INFO("point " << describe(point));
    const std::vector<ClosestPoint> one = k_nearest(bvh, point, 1);
    const std::optional<ClosestPoint> closest = closest_point(bvh, point);
    REQUIRE(one.size() == 1);
    CHECK(one[0].id == closest->id);
    CHECK(one[0].distance == closest->distance);
    CHECK(one[0].point == closest->point);
  }
  // The oracle measures every triangle exactly unless the box gaps prune it: points near the
  // mesh only (far ones are nearly equidistant from all 70k triangles).
  std::vector<Vec3> near_points;
  const Aabb bounds = scene.bounds();
  for (const Vec3& point : nearest_query_points(scene, 60, 72))
    if (near_points.size() < (testing::reduced_run() ? 3u : 8u) && bounds.contains(point))
      near_points.push_back(point);
  check_k_nearest(scene, near_points, 8);

  const Scene small = random_soup(40, 73);
  const Bvh small_bvh = build(small.soup());
  const std::vector<ClosestPoint> all = k_nearest(small_bvh, Vec3(0.0f), 1000);
  REQUIRE(all.size() == 40);
  check_k_nearest(small, {Vec3(0.0f), Vec3(5.0f, -3.0f, 1.0f)}, 1000);
  CHECK(k_nearest(Bvh{}, Vec3(0.0f), 3).empty());
}

TEST_CASE("k_nearest names bad queries", "[nearest][k_nearest]") {
  const Bvh bvh = build(random_soup(20, 81).soup());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(k_nearest(bvh, Vec3(0.0f), 0), Catch::Contains("k is 0"));
  CHECK_THROWS_AS(k_nearest(bvh, Vec3(nan, 0, 0), 2), InvalidInput);
  CHECK_THROWS_AS(k_nearest(bvh, Vec3(0.0f), 2, -1.0f), InvalidInput);
  CHECK_THROWS_AS(k_nearest(bvh, Vec3(0.0f), 2, nan), InvalidInput);
  const std::vector<Vec3> points{Vec3(0.0f), Vec3(0, unlimited, 0)};
  CHECK_THROWS_WITH(k_nearest_batch(bvh, points, 2), Catch::Contains("point 1"));
  CHECK_THROWS_WITH(k_nearest_batch(bvh, points, 0), Catch::Contains("k is 0"));
}

}  // namespace
}  // namespace trisect::testing
