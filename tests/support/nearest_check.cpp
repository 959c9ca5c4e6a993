#include "support/nearest_check.hpp"

#include "support/describe.hpp"

#include <algorithm>
#include <cmath>
#include <ios>
#include <string>

namespace trisect::testing {
namespace {

/// The largest absolute coordinate of the triangle and the point, exactly.
mpq_class largest_coordinate(const Triangle& triangle, const Vec3& point) {
  float largest = 0;
  for (const Vec3& v : {triangle.a, triangle.b, triangle.c, point})
    for (int axis = 0; axis < 3; ++axis) largest = std::max(largest, std::fabs(v[axis]));
  return oracle::rational(largest);
}

}  // namespace

std::vector<Vec3> nearest_query_points(const Scene& scene, int count, std::uint64_t seed,
                                       float step) {
  std::mt19937_64 random(seed);
  const auto pick = [&] {
    return scene.triangle(std::uniform_int_distribution<std::size_t>(0, scene.size() - 1)(random));
  };
  const Aabb bounds = scene.bounds();
  const float size = std::clamp(scene.diagonal(), std::numeric_limits<float>::min(),
                                std::numeric_limits<float>::max() / 64);
  std::vector<Vec3> points;
  while (static_cast<int>(points.size()) < count) {
    const Triangle t = pick();
    Vec3 p;
    switch (lattice(random, 0, 7)) {
      case 0:
        p = t.a;  // on a vertex: every triangle around it at distance 0
        break;
      case 1:
        p = 0.5f * (t.a + t.b);  // on (or a rounding off) an edge
        break;
      case 2:
        p = (t.a + t.b + t.c) / 3.0f;  // on (or a rounding off) the face
        break;
      case 3:
        p = t.b + Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1)) *
                      (0.02f * size);
        break;
      case 4:
        if (step > 0) {
          p = t.c;
          for (int axis = 0; axis < 3; ++axis) p[axis] += step * float(lattice(random, -3, 3));
          break;
        }
        [[fallthrough]];
      case 5:
        for (int axis = 0; axis < 3; ++axis)
          p[axis] = uniform(random, bounds.min[axis] - 0.1f * size, bounds.max[axis] + 0.1f * size);
        break;
      case 6:  // far away: one direction, many triangles at nearly the same distance
        p = bounds.min -
            Vec3(uniform(random, 1, 50), uniform(random, 1, 50), uniform(random, 1, 50)) * size;
        break;
      default: {  // very far: 1e30 (or as far as floats go)
        const float far = std::min(1e30f, std::numeric_limits<float>::max() / 4);
        p = Vec3(lattice(random, 0, 1) != 0 ? far : -far, uniform(random, -1, 1) * far, t.a.z);
        break;
      }
    }
    if (is_finite(p)) points.push_back(p);
  }
  return points;
}

void check_closest_answer(const Scene& scene, const Vec3& point,
                          const std::optional<ClosestPoint>& got,
                          const std::optional<oracle::NearestAnswer>& expected) {
  REQUIRE(got.has_value() == expected.has_value());
  if (!expected) return;
  const Triangle triangle = scene.triangle(expected->id);
  INFO("expected id " << expected->id << " " << describe(triangle) << ", squared distance ~"
                      << expected->squared.get_d());
  INFO("got id " << got->id << " " << describe(scene.triangle(got->id)) << ", distance "
                 << std::hexfloat << got->distance << std::defaultfloat << " point "
                 << describe(got->point));
  REQUIRE(got->id == expected->id);
  CHECK(oracle::near_root(got->distance, expected->squared, mpq_class(1, 1000000)));
  const oracle::QVec3 exact = oracle::nearest_point(triangle, point);
  REQUIRE(oracle::squared_length(oracle::minus(exact, oracle::rational(point))) ==
          expected->squared);  // the oracle agrees with itself
  const mpq_class tolerance = std::max(mpq_class(largest_coordinate(triangle, point) / 1000000),
                                       oracle::rational(std::numeric_limits<float>::denorm_min()));
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis << " exact ~" << exact[static_cast<std::size_t>(axis)].get_d());
    CHECK(abs(oracle::rational(got->point[axis]) - exact[static_cast<std::size_t>(axis)]) <=
          tolerance);
  }
}

void check_closest(const Scene& scene, const Bvh& bvh, const Vec3& point, float max_distance) {
  INFO("query point " << describe(point) << " max_distance " << hex(max_distance));
  const auto expected = oracle::nearest(scene.soup(), point, max_distance);
  const auto got = closest_point(bvh, point, max_distance);
  check_closest_answer(scene, point, got, expected);
  const auto nearest = nearest_triangle(bvh, point, max_distance);
  REQUIRE(nearest.has_value() == expected.has_value());
  if (!expected) return;
  CHECK(nearest->id == expected->id);
  CHECK(nearest->triangle == scene.triangle(expected->id));
  CHECK(oracle::value(nearest->distance) == expected->squared);
}

Scene regime_scene(Regime regime, std::size_t count, std::uint64_t seed) {
  CaseGenerator generate(seed);
  Scene scene{std::string("regime_") + regime_name(regime), {}, {}};
  for (std::size_t k = 0; k < count; ++k) {
    generate.begin(regime);
    const Triangle t = generate.triangle();
    scene.positions.insert(scene.positions.end(), {t.a, t.b, t.c});
  }
  return scene;
}

Scene square_ties_scene() {
  Scene scene{"ties", {}, {}};
  for (int copy = 0; copy < 2; ++copy)
    for (float sx : {1.0f, -1.0f})
      for (float sy : {1.0f, -1.0f}) {
        const Vec3 o(0.0f), x(sx, 0, 0), y(0, sy, 0), xy(sx, sy, 0);
        const Vec3 lift(0, 0, copy == 0 ? 0.0f : 2.0f);
        scene.positions.insert(scene.positions.end(),
                               {xy + lift, o + lift, x + lift, o + lift, xy + lift, y + lift});
      }
  return scene;
}

}  // namespace trisect::testing
