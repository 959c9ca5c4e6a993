// mesh_distance against the exact brute force over every pair of triangles (GMP rationals):
// the smallest (I, J) at the least exact distance, touching (0), nested and far meshes,
// transforms applied as Transform::apply does, degenerate triangles, extreme scales.
#include "support/closed_meshes.hpp"
#include "support/describe.hpp"
#include "support/nearest_check.hpp"
#include "support/nearest_oracle.hpp"
#include "support/random_cases.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/geometry/triangle_distance.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/nearest/mesh_distance.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

Transform translation(const Vec3& t) { return {{1, 0, 0, t.x, 0, 1, 0, t.y, 0, 0, 1, t.z}}; }

std::string describe(const Transform& transform) {
  std::string text;
  for (const float number : transform.rows) text += hex(number) + ' ';
  return text;
}

Scene mapped(Scene scene, const Transform& transform) {
  for (Vec3& p : scene.positions) p = transform.apply(p);
  return scene;
}

/// mesh_distance(a, b, transform) against the brute force on a and b mapped by `transform`.
void check_distance(const Scene& a, const Scene& b, const Transform& transform = {}) {
  INFO(a.name << " (" << a.size() << ") with " << b.name << " (" << b.size() << "), transform "
              << describe(transform));
  const Scene b_mapped = mapped(b, transform);
  const auto expected = oracle::nearest_pair(a.soup(), b_mapped.soup());
  const auto got = mesh_distance(build(a.soup()), build(b.soup()), transform);
  REQUIRE(got.has_value() == expected.has_value());
  if (!expected) return;
  INFO("expected (" << expected->first << ", " << expected->second << ") "
                    << testing::describe(a.triangle(expected->first)) << ' '
                    << testing::describe(b_mapped.triangle(expected->second))
                    << " squared distance ~" << expected->squared.get_d());
  INFO("got (" << got->first << ", " << got->second << ") distance " << got->distance);
  CHECK(got->first == expected->first);
  CHECK(got->second == expected->second);
  CHECK(oracle::near_root(got->distance, expected->squared, mpq_class(1, 1000000)));
}

TEST_CASE("mesh_distance equals the exact brute force on random and lattice soups",
          "[nearest][mesh_distance]") {
  check_distance(random_soup(60, 301), random_soup(60, 302));
  check_distance(needles(60, 303), random_soup(60, 304));
  const Scene lattice_a = lattice_soup(50, 305), lattice_b = lattice_soup(50, 306);
  check_distance(lattice_a, lattice_a);  // the same mesh: touching everywhere, (0, j) first
  std::mt19937_64 random(307);
  for (int k = 0; k < 12; ++k) {
    // Integer and half-integer moves: touching, exact ties, and gaps of whole units.
    const float step = k % 2 == 0 ? 1.0f : 0.5f;
    const Vec3 move(step * float(lattice(random, -12, 12)), step * float(lattice(random, -12, 12)),
                    step * float(lattice(random, -12, 12)));
    check_distance(lattice_a, lattice_b, translation(move));
  }
}

TEST_CASE("mesh_distance with degenerate triangles and in every numeric regime",
          "[nearest][mesh_distance]") {
  std::uint64_t seed = 310;
  for (const Regime regime : all_regimes) {
    const Scene a = regime_scene(regime, 40, ++seed), b = regime_scene(regime, 40, ++seed);
    check_distance(a, b);
    check_distance(b, a);
  }
}

TEST_CASE("mesh_distance of touching, nested and far meshes", "[nearest][mesh_distance]") {
  const Scene inner = box_mesh(Vec3(-1.0f), Vec3(1.0f), "inner");
  const Scene outer = box_mesh(Vec3(-3.0f), Vec3(3.0f), "outer");
  check_distance(outer, inner);  // nested: 2 apart, many tied pairs
  check_distance(inner, outer);
  check_distance(inner, inner, translation(Vec3(2, 0, 0)));     // sharing a face
  check_distance(inner, inner, translation(Vec3(2, 2, 2)));     // sharing a corner
  check_distance(inner, inner, translation(Vec3(2, 2, 0.5f)));  // sharing part of an edge
  check_distance(inner, inner, translation(Vec3(std::nextafter(2.0f, 3.0f), 0, 0)));
  check_distance(inner, outer, translation(Vec3(0, 0, 4)));  // crossing faces
  check_distance(inner, inner, translation(Vec3(0, 0, 1e30f)));
  check_distance(random_soup(40, 320), random_soup(40, 321), translation(Vec3(1e6f, 0, -1e6f)));
  check_distance(lattice_soup(40, 322), lattice_soup(40, 323), translation(Vec3(0, -3e38f, 0)));
}

TEST_CASE("mesh_distance: a near miss with smaller ids before a pair that touches",
          "[nearest][mesh_distance]") {
  // A's triangle lies in the plane z = (1 + 2^-23) x + y. B's triangle 0 reaches
  // (2^-25, 1/4, 1/4 + 2^-25), 2^-48 below that plane over the inside of A's triangle: a near
  // miss (about 2e-15) whose double bounds reach down to 0. B's triangle 1 has a vertex on A's
  // triangle: distance exactly 0, and (0, 1) is the answer.
  const Triangle a{Vec3(0, 0, 0), Vec3(1, 0, 1 + 0x1p-23f), Vec3(0, 1, 1)};
  const Vec3 near(0x1p-25f, 0.25f, 0.25f + 0x1p-25f), on(0.5f, 0.25f, 0.75f + 0x1p-24f);
  const Triangle near_miss{near, near - Vec3(0, 0, 1), near + Vec3(0.125f, 0, -1)};
  const Triangle touching{on, on + Vec3(0, 0, 1), on + Vec3(0.125f, 0, 1)};
  const SquaredDistance miss = squared_distance(a, near_miss);
  REQUIRE_FALSE(is_zero(miss));
  REQUIRE(bounds_of(miss).lower == 0);
  REQUIRE(is_zero(squared_distance(a, touching)));
  const Scene first{"a", {a.a, a.b, a.c}};
  const Scene second{"near_miss_then_touching",
                     {near_miss.a, near_miss.b, near_miss.c, touching.a, touching.b, touching.c}};
  for (const float scale : {1.0f, 0x1p10f, 0x1p-10f}) {  // exact: powers of two
    const Transform scaled{{scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0}};
    const Scene a_scaled = mapped(first, scaled);
    check_distance(a_scaled, second, scaled);
    const auto got = mesh_distance(build(a_scaled.soup()), build(second.soup()), scaled);
    REQUIRE(got);
    CHECK(got->distance == 0.0);
    CHECK(got->first == 0);
    CHECK(got->second == 1);
  }
}

TEST_CASE("mesh_distance maps the second mesh exactly as Transform::apply",
          "[nearest][mesh_distance]") {
  const float c = std::cos(0.5f), s = std::sin(0.5f);
  const std::vector<Transform> transforms = {
      {{c, -s, 0, 1.5f, s, c, 0, -0.25f, 0, 0, 1, 0.125f}},  // a rotation, rounded
      {{0, 1, 0, 2, 0, 0, 1, -1, 1, 0, 0, 3}},               // a permutation: lattice ties kept
      {{2, 0.5f, 0, 0, 0.1f, 1.5f, 0.3f, 1, 0, -0.7f, 0.9f, -2}},  // shear and scale
      {{0.1f, 0, 0, 0, 0, 0.1f, 0, 0, 0, 0, 0.1f, 0}},             // not exact in float
      {{-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0}},                   // through the origin
  };
  const Scene random_a = random_soup(50, 330), random_b = random_soup(50, 331);
  const Scene lattice_a = lattice_soup(40, 332), lattice_b = lattice_soup(40, 333);
  const Scene box = box_mesh(Vec3(-1, -2, -0.5f), Vec3(2, 1, 0.75f));
  for (const Transform& transform : transforms) {
    check_distance(random_a, random_b, transform);
    check_distance(lattice_a, lattice_b, transform);
    check_distance(box, box, transform);
    check_distance(box, lattice_a, transform);
  }
}

TEST_CASE("mesh_distance at extreme scales: subnormal, 1e-30, 1e30, near FLT_MAX",
          "[nearest][mesh_distance]") {
  const auto scaled = [](Scene scene, float scale, const std::string& suffix) {
    return transformed(std::move(scene), scale, Vec3(0.0f), suffix);
  };
  check_distance(scaled(lattice_soup(40, 340), 0x1p-140f, "_2^-140"),
                 scaled(lattice_soup(40, 341), 0x1p-140f, "_2^-140"));
  check_distance(scaled(random_soup(40, 342), 1e-44f, "_1e-44"),
                 scaled(random_soup(40, 343), 1e-44f, "_1e-44"));
  check_distance(scaled(random_soup(40, 344), 1e-30f, "_1e-30"),
                 scaled(random_soup(40, 345), 1e-30f, "_1e-30"));
  check_distance(scaled(lattice_soup(40, 346), 1e30f, "_1e30"),
                 scaled(lattice_soup(40, 347), 1e30f, "_1e30"), translation(Vec3(0, 0, 2e30f)));
  // Coordinates up to 2^127 on both sides of 0: differences overflow float.
  const Scene big = box_mesh(Vec3(-0x1p127f), Vec3(-0x1p126f), "big");
  const Scene other = box_mesh(Vec3(0x1p126f, 0x1p126f, -0x1p127f), Vec3(0x1p127f), "other");
  check_distance(big, other);
  check_distance(big, big, translation(Vec3(0x1p127f + 0x1p126f, 0, 0)));
  check_distance(scaled(random_soup(40, 348), 3e37f, "_3e37"),
                 scaled(random_soup(40, 349), 3e37f, "_3e37"));
}

TEST_CASE("mesh_distance of an empty mesh is none, and a bad transform throws",
          "[nearest][mesh_distance]") {
  const Scene box = box_mesh(Vec3(0.0f), Vec3(1.0f));
  const Bvh empty = build(TriangleSoup{}), full = build(box.soup());
  CHECK_FALSE(mesh_distance(empty, full));
  CHECK_FALSE(mesh_distance(full, empty));
  CHECK_FALSE(mesh_distance(empty, empty));
  Transform bad;
  bad.rows[5] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(mesh_distance(full, full, bad), InvalidInput);
  bad.rows[5] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(mesh_distance(full, full, bad), InvalidInput);
  // Finite numbers that map a vertex of the second mesh to infinity.
  const Transform huge{{3e38f, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
  const Scene wide = box_mesh(Vec3(-4.0f), Vec3(4.0f));
  CHECK_THROWS_AS(mesh_distance(full, build(wide.soup()), huge), InvalidInput);
}

}  // namespace
}  // namespace trisect::testing
