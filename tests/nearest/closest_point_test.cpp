// closest_point and nearest_triangle against the exact brute-force oracle (GMP rationals) on
// procedural scenes rich in exact ties, degenerate and needle triangles, thin slabs, and
// coordinates from subnormal to near FLT_MAX.
#include "support/describe.hpp"
#include "support/nearest_check.hpp"
#include "support/random_cases.hpp"

#include <trisect/bvh/build.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

/// Pairs of large, nearly parallel triangles a float step or a relative 1e-6 apart: the query
/// points between them are nearly equidistant from both.
Scene thin_slabs(std::size_t pairs, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"thin_slabs", {}, {}};
  for (std::size_t k = 0; k < pairs; ++k) {
    Triangle t;
    for (Vec3* v : {&t.a, &t.b, &t.c})
      *v = Vec3(uniform(random, -10, 10), uniform(random, -10, 10), uniform(random, -1, 1));
    const int axis = lattice(random, 0, 2);
    Triangle u = t;
    for (Vec3* v : {&u.a, &u.b, &u.c})
      (*v)[axis] = k % 2 == 0 ? std::nextafter((*v)[axis], 100.0f) : (*v)[axis] * (1 + 1e-6f);
    scene.positions.insert(scene.positions.end(), {t.a, t.b, t.c, u.a, u.b, u.c});
  }
  return scene;
}

/// Points between the two triangles of each slab pair of `scene` (made by `thin_slabs`).
std::vector<Vec3> between_slabs(const Scene& scene, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Vec3> points;
  for (std::size_t k = 0; k + 1 < scene.size(); k += 2) {
    const Triangle t = scene.triangle(k), u = scene.triangle(k + 1);
    const float s = uniform(random, 0, 0.5f), r = uniform(random, 0, 0.5f);
    const Vec3 on_t = t.a + s * (t.b - t.a) + r * (t.c - t.a);
    const Vec3 on_u = u.a + s * (u.b - u.a) + r * (u.c - u.a);
    points.push_back(0.5f * (on_t + on_u));
    points.push_back(on_t);
    points.push_back(t.a + Vec3(0.0f, 0.0f, 1e-7f));
  }
  return points;
}

/// `scene` (a lattice soup) with every coordinate clamped to [-3, 3] and scaled by 2^126:
/// ties and degenerate triangles kept, coordinates up to ~2.6e38, differences beyond FLT_MAX.
Scene wide_lattice(Scene scene) {
  for (Vec3& p : scene.positions)
    for (int axis = 0; axis < 3; ++axis) p[axis] = std::clamp(p[axis], -3.0f, 3.0f) * 0x1p126f;
  scene.name += "_2^126";
  return scene;
}

void check_scene(const Scene& scene, const std::vector<Vec3>& points) {
  INFO("scene " << scene.name << " (" << scene.size() << " triangles)");
  const Bvh bvh = build(scene.soup());
  for (const Vec3& point : points) check_closest(scene, bvh, point);
}

TEST_CASE("closest_point equals the exact brute force on procedural scenes",
          "[nearest][closest_point]") {
  check_scene(random_soup(400, 21), nearest_query_points(random_soup(400, 21), 200, 31));
  const Scene lattice_scene = lattice_soup(400, 22);
  check_scene(lattice_scene, nearest_query_points(lattice_scene, 300, 32, 0.5f));
  check_scene(needles(300, 23), nearest_query_points(needles(300, 23), 200, 33));
  const Scene sphere = noisy_sphere(8, 12, 24);
  std::vector<Vec3> points = nearest_query_points(sphere, 100, 34);
  points.push_back(Vec3(0.0f));  // the centre: every triangle nearly equidistant
  check_scene(sphere, points);
}

TEST_CASE("closest_point equals the exact brute force on degenerate and needle triangles",
          "[nearest][closest_point]") {
  std::uint64_t seed = 40;
  for (const Regime regime : all_regimes) {
    const Scene scene = regime_scene(regime, 250, ++seed);
    std::vector<Vec3> points = nearest_query_points(scene, 120, ++seed, 0.5f);
    CaseGenerator generate(++seed);
    for (int k = 0; k < 80; ++k) {
      generate.begin(regime);
      points.push_back(generate.point());
    }
    check_scene(scene, points);
  }
}

TEST_CASE("closest_point between and on thin slabs", "[nearest][closest_point]") {
  const Scene scene = thin_slabs(60, 50);
  std::vector<Vec3> points = between_slabs(scene, 51);
  const std::vector<Vec3> more = nearest_query_points(scene, 60, 52);
  points.insert(points.end(), more.begin(), more.end());
  check_scene(scene, points);
}

TEST_CASE("closest_point at extreme scales: 1e30, 1e-30, subnormal, near FLT_MAX",
          "[nearest][closest_point]") {
  struct Case {
    Scene scene;
    float step;
  };
  const std::vector<Case> cases = {
      {transformed(random_soup(250, 60), 1e30f, Vec3(0.0f), "_1e30"), 0},
      {transformed(lattice_soup(250, 61), 1e30f, Vec3(0.0f), "_1e30"), 0.5e30f},
      {transformed(random_soup(250, 62), 1e-30f, Vec3(0.0f), "_1e-30"), 0},
      {transformed(lattice_soup(250, 63), 0x1p-100f, Vec3(0.0f), "_2^-100"), 0x1p-101f},
      // Subnormal: multiples of 2^-140 (exact, ties kept) and of ~1e-44 (rounded: degenerate).
      {transformed(lattice_soup(250, 64), 0x1p-140f, Vec3(0.0f), "_2^-140"), 0x1p-141f},
      {transformed(random_soup(250, 65), 1e-44f, Vec3(0.0f), "_1e-44"), 0},
      // Near FLT_MAX: coordinates up to 3·2^126 ≈ 2.6e38, differences beyond FLT_MAX.
      {wide_lattice(lattice_soup(250, 66)), 0x1p125f},
      {transformed(random_soup(250, 67), 3e37f, Vec3(0.0f), "_3e37"), 0},
      {transformed(random_soup(250, 68), 1.0f, Vec3(1e6f, -1e6f, 1e6f), "_far"), 0},
  };
  std::uint64_t seed = 70;
  for (const Case& each : cases)
    check_scene(each.scene, nearest_query_points(each.scene, 150, ++seed, each.step));
}

TEST_CASE("closest_point with vertices at +-3e38: differences overflow float",
          "[nearest][closest_point]") {
  const float big = 3e38f, max = FLT_MAX;
  Scene scene{"flt_max", {}, {}};
  const std::vector<Triangle> triangles = {
      {{-big, -big, -big}, {big, -big, -big}, {-big, big, big}},
      {{big, big, big}, {-big, big, -big}, {big, -big, big}},
      {{-max, 0, 0}, {max, 0, 0}, {0, max, 0}},
      {{-max, -max, 0}, {max, max, 0}, {0.0f, 0.0f, 0.0f}},    // collinear: a segment
      {{big, big, -big}, {big, big, -big}, {big, big, -big}},  // a point
      {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}},
      {{-big, 0, big}, {big, 0, -big}, {0, 1, 0}},
  };
  for (const Triangle& t : triangles)
    scene.positions.insert(scene.positions.end(), {t.a, t.b, t.c});
  std::vector<Vec3> points = {
      {0, 0, 0},        {big, big, big},   {-max, max, -max}, {max, max, max},
      {0, -big, 0},     {1.5f, 1.5f, 0},   {0, 0, big},       {-max, -max, -max},
      {max, 0, 0},      {1e-45f, 0, 0},    {big, big, 0},     {0, 0x1p-149f, -big},
      {-big, big, big}, {0, 1e30f, 1e30f}, {1, 1, 1},         {big, -big, 0},
  };
  const std::vector<Vec3> more = nearest_query_points(scene, 100, 80);
  points.insert(points.end(), more.begin(), more.end());
  check_scene(scene, points);
}

TEST_CASE("closest_point on lattice ties: the smallest id among equidistant triangles",
          "[nearest][closest_point]") {
  const Scene scene = square_ties_scene();
  std::vector<Vec3> points;
  for (int x = -4; x <= 4; ++x)
    for (int y = -4; y <= 4; ++y)
      for (int z = -2; z <= 4; ++z) points.push_back(0.5f * Vec3(float(x), float(y), float(z)));
  check_scene(scene, points);
}

}  // namespace
}  // namespace trisect::testing
