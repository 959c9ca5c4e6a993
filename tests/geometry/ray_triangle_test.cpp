// The watertight ray–triangle test, case by case (inside, edges and vertices, both ends of the
// t interval, parallel and zero-area triangles, float edge functions that round to zero) and
// on random rays against the exact oracle (support/exact_ray_oracle.hpp).
#include "support/exact_ray_oracle.hpp"
#include "support/ray_check.hpp"

#include <trisect/geometry/ray_triangle.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>

namespace trisect::testing {
namespace {

constexpr float infinity = std::numeric_limits<float>::infinity();

// a at the origin, b = (4, 0, 0), c = (0, 2, 0); the ray comes down from z = 2 at speed 1/2.
const Triangle flat{Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 2, 0)};
const Vec3 down(0.0f, 0.0f, -0.5f);

TEST_CASE("a hit inside gives t and the weights of b and c", "[ray_triangle]") {
  const auto hit = intersect(Ray{Vec3(2.0f, 0.5f, 2.0f), down}, flat);
  REQUIRE(hit.has_value());
  CHECK(hit->t == 4.0);
  CHECK(hit->u == 0.5f);  // (2, 0.5) = 0.25 a + 0.5 b + 0.25 c
  CHECK(hit->v == 0.25f);
  const auto other = intersect(Ray{Vec3(1.0f, 1.5f, 2.0f), down}, flat);
  REQUIRE(other.has_value());
  CHECK(other->u == 0.25f);
  CHECK(other->v == 0.75f);
}

TEST_CASE("the t interval is closed at both ends", "[ray_triangle]") {
  const Vec3 origin(2.0f, 0.5f, 2.0f);
  const float before = std::nextafter(4.0f, 0.0f), after = std::nextafter(4.0f, infinity);
  CHECK(intersect(Ray{origin, down, 0.0f, 4.0f}, flat).has_value());
  CHECK(intersect(Ray{origin, down, 4.0f, infinity}, flat).has_value());
  CHECK(intersect(Ray{origin, down, 4.0f, 4.0f}, flat).has_value());
  CHECK_FALSE(intersect(Ray{origin, down, 0.0f, before}, flat).has_value());
  CHECK_FALSE(intersect(Ray{origin, down, after, infinity}, flat).has_value());
  // Behind the origin, when t_min allows it.
  const auto behind = intersect(Ray{origin, -down, -infinity, 0.0f}, flat);
  REQUIRE(behind.has_value());
  CHECK(behind->t == -4.0);
}

TEST_CASE("edges and vertices belong to the closed triangle", "[ray_triangle]") {
  for (const Vec3 point :
       {Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 2, 0), Vec3(2, 0, 0), Vec3(0, 1, 0), Vec3(2, 1, 0)}) {
    INFO(point.x << ' ' << point.y);
    const auto hit = intersect(Ray{point + Vec3(0, 0, 2), down}, flat);
    REQUIRE(hit.has_value());
    CHECK(hit->t == 4.0);
    const auto exact = oracle::hit(Ray{point + Vec3(0, 0, 2), down}, flat);
    REQUIRE(exact.has_value());
    CHECK(double(hit->u) == exact->u.get_d());
    CHECK(double(hit->v) == exact->v.get_d());
  }
  CHECK_FALSE(intersect(Ray{Vec3(2.0f, 1.0001f, 2.0f), down}, flat).has_value());
  CHECK_FALSE(intersect(Ray{Vec3(-0.0001f, 1.0f, 2.0f), down}, flat).has_value());
}

TEST_CASE("parallel rays and zero-area triangles never hit", "[ray_triangle]") {
  // In the triangle's plane, through its inside.
  CHECK_FALSE(intersect(Ray{Vec3(-1.0f, 0.5f, 0.0f), Vec3(1, 0, 0)}, flat).has_value());
  // Parallel above it.
  CHECK_FALSE(intersect(Ray{Vec3(-1.0f, 0.5f, 1.0f), Vec3(1, 0, 0)}, flat).has_value());
  // A segment and a point.
  const Triangle segment{Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(2, 0, 0)};
  const Triangle point{Vec3(1, 1, 0), Vec3(1, 1, 0), Vec3(1, 1, 0)};
  CHECK_FALSE(intersect(Ray{Vec3(2.0f, 0.0f, 2.0f), down}, segment).has_value());
  CHECK_FALSE(intersect(Ray{Vec3(1.0f, 1.0f, 2.0f), down}, point).has_value());
}

TEST_CASE("a float edge function that rounds to zero is decided in double", "[ray_triangle]") {
  // b and c lie on either side of the ray (down the z axis), on a line that misses the origin
  // by 1e-7: c·by - cy·bx rounds to 0 in float but not in double. With a on one side the
  // origin is inside (a hit); with a on the other it is just outside edge bc (a miss), which
  // a zero edge function would have called an edge hit.
  const Vec3 b(0x1.ffffd8p-1f, 0x1.000072p+0f, 0.0f), c(-0x1.80002ep+1f, -0x1.8000f8p+1f, 0.0f);
  REQUIRE(c.x * b.y - c.y * b.x == 0.0f);
  const Ray ray{Vec3(0.0f, 0.0f, 1.0f), Vec3(0.0f, 0.0f, -1.0f)};
  const Triangle inside{Vec3(-1, 1, 0), b, c}, outside{Vec3(1, -1, 0), b, c};
  REQUIRE(oracle::hit(ray, inside).has_value());
  REQUIRE_FALSE(oracle::hit(ray, outside).has_value());
  CHECK(intersect(ray, inside).has_value());
  CHECK_FALSE(intersect(ray, outside).has_value());
}

TEST_CASE("random rays at random triangles agree with the exact oracle", "[ray_triangle]") {
  std::mt19937_64 random(91);
  std::uniform_real_distribution<float> coordinate(-4.0f, 4.0f), weight(-0.2f, 1.2f);
  int hits = 0, misses = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle triangle{Vec3(coordinate(random), coordinate(random), coordinate(random)),
                            Vec3(coordinate(random), coordinate(random), coordinate(random)),
                            Vec3(coordinate(random), coordinate(random), coordinate(random))};
    // Aimed at a point of the triangle's plane near it (weights slightly outside [0, 1] too),
    // and every tenth ray at a vertex or an edge midpoint exactly.
    const float u = i % 10 == 0 ? 0.5f * float(i % 3) : weight(random);
    const float v = i % 10 == 0 ? 0.0f : weight(random);
    const Vec3 target = triangle.a + u * (triangle.b - triangle.a) + v * (triangle.c - triangle.a);
    const Vec3 origin(coordinate(random), coordinate(random), coordinate(random));
    Ray ray{origin, target - origin};
    if (ray.direction == Vec3(0.0f)) continue;
    if (i % 4 == 1) ray.t_max = 1.0f;  // the target itself sits at t = 1, about
    INFO("case " << i);
    const auto got = intersect(ray, triangle);
    std::optional<Hit> as_hit;
    if (got) as_hit = Hit{got->t, 0, got->u, got->v};
    const std::vector<Vec3> soup_positions{triangle.a, triangle.b, triangle.c};
    check_closest_hit(TriangleSoup{soup_positions}, ray, as_hit);
    (got ? hits : misses) += 1;
  }
  CHECK(hits > 2000);
  CHECK(misses > 2000);
}

// The scalar float pre-test of `intersect` for `triangle`.
bool scalar_pretest_misses(const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  return detail::along_axis(
      shear.kz, [&](auto kz) { return detail::clearly_misses<kz()>(ray, shear, triangle); });
}

TEST_CASE("four triangles at a time through possible_hits answer as intersect does",
          "[ray_triangle]") {
  std::mt19937_64 random(44);
  std::uniform_real_distribution<float> coordinate(-4.0f, 4.0f), weight(-0.1f, 1.1f);
  int kept = 0, ruled_out = 0;
  for (int i = 0; i < 5000; ++i) {
    // Scales that put the float pre-test out of its range too (it then keeps the triangle).
    const float scale = i % 7 == 0 ? 1e-13f : i % 7 == 1 ? 1e13f : 1.0f;
    const auto point = [&] {
      return scale * Vec3(coordinate(random), coordinate(random), coordinate(random));
    };
    Triangle group[4];
    for (Triangle& triangle : group) triangle = {point(), point(), point()};
    // Aimed near the first triangle, or exactly at its vertex a.
    const Triangle& first = group[0];
    const Vec3 target = i % 5 == 0 ? first.a
                                   : first.a + weight(random) * (first.b - first.a) +
                                         weight(random) * (first.c - first.a);
    const Vec3 origin = point();
    const Ray ray{origin, target - origin};
    if (ray.direction == Vec3(0.0f)) continue;
    const RayShear shear = RayShear::of(ray);
    const int count = 1 + i % 4;
    // Structure-of-arrays as a leaf stores them; what lies past the last lane is NaN, which
    // must not matter.
    std::array<float, 9 * 4 + 3> packed;
    packed.fill(std::numeric_limits<float>::quiet_NaN());
    for (int lane = 0; lane < count; ++lane) {
      const Vec3 vertices[3] = {group[lane].a, group[lane].b, group[lane].c};
      for (int j = 0; j < 9; ++j)
        packed[static_cast<std::size_t>(j * count + lane)] = vertices[j / 3][j % 3];
    }
    const TriangleGroup soa{packed.data(), count};
    for (int lane = 0; lane < count; ++lane) REQUIRE(soa.triangle(lane) == group[lane]);
    const unsigned possible = possible_hits(ray, shear, soa);
    INFO("case " << i);
    CHECK(possible >> count == 0);
    for (int t = 0; t < count; ++t) {
      const bool is_possible = ((possible >> t) & 1u) != 0;
      CHECK(is_possible == !scalar_pretest_misses(ray, shear, group[t]));
      const auto expected = intersect(ray, shear, group[t]);
      if (!is_possible) {
        CHECK_FALSE(expected);
        ++ruled_out;
        continue;
      }
      ++kept;
      const auto got = intersect_possible(ray, shear, group[t]);
      REQUIRE(got.has_value() == expected.has_value());
      if (got) CHECK((got->t == expected->t && got->u == expected->u && got->v == expected->v));
    }
  }
  CHECK(kept > 1000);
  CHECK(ruled_out > 1000);
}

}  // namespace
}  // namespace trisect::testing
