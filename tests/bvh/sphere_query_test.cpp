// Sphere queries against brute force, as exact sorted sets, on every scene and where float
// squares underflow.
#include "support/brute_force.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

namespace trisect::testing {
namespace {

TEST_CASE("sphere queries equal brute force on every scene", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(13)};
    const float size = 0.05f * scene_size(scene);
    for (int q = 0; q < 150; ++q) {
      const Sphere sphere = make.sphere(size);
      INFO("sphere " << sphere.center.x << ' ' << sphere.center.y << ' ' << sphere.center.z << " r "
                     << sphere.radius);
      REQUIRE(collect_touching(bvh, sphere) == brute_force(scene, sphere));
    }
  }
}

TEST_CASE("balls and boxes where float squares underflow equal brute force", "[bvh]") {
  // Coordinates near 1e-20: squared distances are subnormal or zero in float, the regime of
  // the sphere query's absolute slack and of its rule that tiny balls accept no node whole.
  for (const Scene& scene : {transformed(random_soup(1500, 8), 0x1p-66f, Vec3(0.0f), "_1e-20"),
                             transformed(lattice_soup(1500, 9), 0x1p-70f, Vec3(0.0f), "_1e-21")}) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(12)};
    const float size = 0.05f * scene_size(scene);
    for (int q = 0; q < 300; ++q) {
      const Sphere sphere = q % 5 == 0 ? Sphere{make.vertex(), 0.0f} : make.sphere(size);
      INFO("sphere " << sphere.center.x << ' ' << sphere.center.y << ' ' << sphere.center.z << " r "
                     << sphere.radius);
      REQUIRE(collect_touching(bvh, sphere) == brute_force(scene, sphere));
      const Aabb box = make.box(size);
      REQUIRE(collect_touching(bvh, box) == brute_force(scene, box));
    }
  }
}

}  // namespace
}  // namespace trisect::testing
