// Box queries against brute force, as exact sorted sets, on every scene; infinite bounds.
#include "support/brute_force.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

namespace trisect::test {
namespace {

TEST_CASE("box queries equal brute force on every scene", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(11)};
    const float size = 0.05f * scene_size(scene);
    for (int q = 0; q < 150; ++q) {
      const Aabb box = make.box(size);
      INFO("box " << box.min.x << ' ' << box.min.y << ' ' << box.min.z << " / " << box.max.x << ' '
                  << box.max.y << ' ' << box.max.z);
      const auto expected = brute_force(scene, box);
      REQUIRE(collect_touching(bvh, box) == expected);
      REQUIRE(any_touching(bvh, box) == !expected.empty());
    }
  }
}

TEST_CASE("infinite box bounds and an infinite radius answer as half-spaces and all space",
          "[bvh]") {
  const Scene scene = lattice_soup(2000, 51);
  const Bvh bvh = build(scene.soup());
  constexpr float inf = std::numeric_limits<float>::infinity();
  const Aabb half_space{Vec3(-inf, -inf, 1.0f), Vec3(inf)};
  const Aabb finite_equivalent{Vec3(-100.0f, -100.0f, 1.0f), Vec3(100.0f)};
  CHECK(collect_touching(bvh, half_space) == brute_force(scene, finite_equivalent));
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf), Vec3(inf)}).size() == scene.size());
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf), Vec3(-inf, inf, inf)}).empty());
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf, -inf, 50.0f), Vec3(inf)}).empty());
  CHECK(collect_touching(bvh, Sphere{Vec3(3.0f), inf}).size() == scene.size());
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(3.0f), -inf}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(inf), 1.0f}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Aabb{Vec3(std::nanf("")), Vec3(1.0f)}), InvalidInput);
}

}  // namespace
}  // namespace trisect::test
