// closest_point's limit (max_distance counts triangles at exact distance <= it), the empty
// mesh, invalid input, and the batch form closest_points (the same answers as one by one, for
// any thread count; errors naming the bad index before any answer is written).
#include "support/describe.hpp"
#include "support/nearest_check.hpp"
#include "support/property.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/math/validate.hpp>

#include <tbb/task_arena.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float nan = std::numeric_limits<float>::quiet_NaN();

Scene scene_of(const std::vector<Triangle>& triangles) {
  Scene scene{"hand_made", {}, {}};
  for (const Triangle& t : triangles)
    scene.positions.insert(scene.positions.end(), {t.a, t.b, t.c});
  return scene;
}

TEST_CASE("closest_point counts a triangle exactly at max_distance", "[nearest][closest_point]") {
  // Triangle 0 is 2 below the point (0.25, 0.25, 1), triangle 1 is 1 below it (a face), and
  // triangle 2 is 1 away across an edge (point-line) and a vertex.
  const Scene scene = scene_of({{{0, 0, -1}, {1, 0, -1}, {0, 1, -1}},
                                {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                {{-3, 0, 1}, {-0.75f, 0, 1}, {-0.75f, 5, 1}}});
  const Bvh bvh = build(scene.soup());
  const Vec3 point(0.25f, 0.25f, 1.0f);
  for (const float limit : {inf, 2.0f, 1.0f, std::nextafter(1.0f, 0.0f), 0.5f, 0.0f}) {
    INFO("max_distance " << hex(limit));
    check_closest(scene, bvh, point, limit);
  }
  const auto at_one = closest_point(bvh, point, 1.0f);
  REQUIRE(at_one);
  CHECK(at_one->id == 1);  // ids 1 and 2 tie at exactly 1: the smaller
  CHECK(at_one->distance == 1.0);
  CHECK(at_one->point == Vec3(0.25f, 0.25f, 0.0f));
  CHECK_FALSE(closest_point(bvh, point, std::nextafter(1.0f, 0.0f)));
  // A point on a triangle counts at max_distance 0, with distance exactly 0.
  const auto on = closest_point(bvh, Vec3(0.5f, 0.25f, 0.0f), 0.0f);
  REQUIRE(on);
  CHECK(on->id == 1);
  CHECK(on->distance == 0.0);
  CHECK(on->point == Vec3(0.5f, 0.25f, 0.0f));
}

TEST_CASE("closest_point with limits at and around the exact distances",
          "[nearest][closest_point]") {
  for (const Scene& scene : {lattice_soup(300, 90), random_soup(300, 91), needles(200, 92)}) {
    INFO("scene " << scene.name);
    const Bvh bvh = build(scene.soup());
    std::mt19937_64 random(93);
    for (const Vec3& point :
         nearest_query_points(scene, testing::reduced_run() ? 20 : 60, 94, 0.5f)) {
      const auto best = oracle::nearest(scene.soup(), point, inf);
      REQUIRE(best);
      const float root = static_cast<float>(std::sqrt(best->squared.get_d()));
      for (const float limit :
           {root, std::nextafter(root, 0.0f), std::nextafter(root, inf), 0.0f,
            0.5f * static_cast<float>(lattice(random, 0, 8)), uniform(random, 0, 2) * root})
        check_closest(scene, bvh, point, limit);
    }
  }
}

TEST_CASE("closest_point on an empty mesh answers none", "[nearest][closest_point]") {
  const Bvh bvh = build(TriangleSoup{});
  CHECK_FALSE(closest_point(bvh, Vec3(1, 2, 3)));
  CHECK_FALSE(closest_point(bvh, Vec3(0.0f), 0.0f));
  CHECK_FALSE(nearest_triangle(bvh, Vec3(0.0f)));
  const std::vector<Vec3> points = {Vec3(0.0f), Vec3(1e30f)};
  std::vector<std::optional<ClosestPoint>> answers(2, ClosestPoint{});
  closest_points(bvh, points, answers);
  CHECK_FALSE(answers[0]);
  CHECK_FALSE(answers[1]);
}

TEST_CASE("closest_point rejects a non-finite point and a NaN or negative limit",
          "[nearest][closest_point]") {
  const Scene scene = lattice_soup(50, 95);
  const Bvh bvh = build(scene.soup());
  const Bvh empty = build(TriangleSoup{});
  for (const Bvh* tree : {&bvh, &empty}) {
    for (const Vec3& bad : {Vec3(nan, 0, 0), Vec3(0, inf, 0), Vec3(0, 0, -inf), Vec3(nan)}) {
      INFO("point " << describe(bad));
      CHECK_THROWS_AS(closest_point(*tree, bad), InvalidInput);
      CHECK_THROWS_AS(nearest_triangle(*tree, bad), InvalidInput);
      CHECK_THROWS_AS(closest_point(*tree, bad, 1.0f), InvalidInput);
    }
    for (const float limit : {nan, -1.0f, -inf, -std::numeric_limits<float>::denorm_min()}) {
      INFO("max_distance " << hex(limit));
      CHECK_THROWS_AS(closest_point(*tree, Vec3(0.0f), limit), InvalidInput);
      CHECK_THROWS_AS(nearest_triangle(*tree, Vec3(0.0f), limit), InvalidInput);
    }
    CHECK_NOTHROW(closest_point(*tree, Vec3(0.0f), inf));
  }
}

TEST_CASE("closest_points: a bad index or size is named before any answer is written",
          "[nearest][closest_points]") {
  const Scene scene = random_soup(100, 96);
  const Bvh bvh = build(scene.soup());
  std::vector<Vec3> points(50, Vec3(0.5f));
  const ClosestPoint sentinel{12345, -7.0, Vec3(-1.0f)};
  std::vector<std::optional<ClosestPoint>> answers(50, sentinel);
  const auto untouched = [&] {
    for (const auto& answer : answers)
      if (!answer || answer->id != sentinel.id || answer->distance != sentinel.distance)
        return false;
    return true;
  };
  std::vector<std::optional<ClosestPoint>> short_answers(49);
  CHECK_THROWS_MATCHES(closest_points(bvh, points, short_answers), InvalidInput,
                       Catch::Matchers::Predicate<InvalidInput>([](const InvalidInput& e) {
                         const std::string what = e.what();
                         return what.find("50") != std::string::npos &&
                                what.find("49") != std::string::npos;
                       }));
  points[37] = Vec3(0, nan, 0);
  CHECK_THROWS_WITH(closest_points(bvh, points, answers), Catch::Contains("37"));
  CHECK(untouched());
  points[37] = Vec3(inf, 0, 0);
  CHECK_THROWS_WITH(closest_points(bvh, points, answers), Catch::Contains("37"));
  CHECK(untouched());
  points[37] = Vec3(0.0f);
  CHECK_THROWS_AS(closest_points(bvh, points, answers, -1.0f), InvalidInput);
  CHECK_THROWS_AS(closest_points(bvh, points, answers, nan), InvalidInput);
  CHECK(untouched());
}

TEST_CASE("closest_points equals closest_point one by one, for 1 and 2 threads",
          "[nearest][closest_points]") {
  const Scene scene = lattice_soup(600, 97);
  const Bvh bvh = build(scene.soup());
  const std::vector<Vec3> points = nearest_query_points(scene, 700, 98, 0.5f);
  for (const float limit : {inf, 1.0f, 0.0f}) {
    INFO("max_distance " << hex(limit));
    std::vector<std::optional<ClosestPoint>> expected;
    for (const Vec3& point : points) expected.push_back(closest_point(bvh, point, limit));
    for (const int threads : {1, 2}) {
      INFO("threads " << threads);
      std::vector<std::optional<ClosestPoint>> answers(points.size());
      tbb::task_arena(threads).execute([&] { closest_points(bvh, points, answers, limit); });
      for (std::size_t i = 0; i < points.size(); ++i) {
        INFO("point " << i << ' ' << describe(points[i]));
        REQUIRE(answers[i].has_value() == expected[i].has_value());
        if (!expected[i]) continue;
        CHECK(answers[i]->id == expected[i]->id);
        CHECK(answers[i]->distance == expected[i]->distance);
        CHECK(answers[i]->point == expected[i]->point);
      }
    }
    // And the single answers are the oracle's (a sample).
    for (std::size_t i = 0; i < points.size(); i += 7)
      check_closest_answer(scene, points[i], expected[i],
                           oracle::nearest(scene.soup(), points[i], limit));
  }
}

}  // namespace
}  // namespace trisect::testing
