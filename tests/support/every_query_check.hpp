#pragma once
/// \file
/// One check of a tree against brute force on every kind of query it answers: boxes, planes,
/// balls, closest and any hits.

#include "support/brute_force.hpp"
#include "support/query_maker.hpp"
#include "support/ray_check.hpp"

#include <trisect/bvh/collect.hpp>

#include <random>

namespace trisect::testing {

/// Checks `queries` rounds of a box, a plane, a ball and a ray drawn from `scene` (fixed seed)
/// on `bvh`, a tree over `scene`'s triangles, against brute force and the exact ray oracle.
inline void check_every_query(const Bvh& bvh, const Scene& scene, int queries) {
  QueryMaker make{scene, std::mt19937_64(31)};
  const float size = scene_size(scene);
  for (int q = 0; q < queries; ++q) {
    const Aabb box = make.box(0.05f * size);
    REQUIRE(collect_touching(bvh, box) == brute_force(scene, box));
    const Plane plane = make.plane();
    REQUIRE(collect_touching(bvh, plane) == brute_force(scene, plane));
    const Sphere sphere = make.sphere(0.05f * size);
    REQUIRE(collect_touching(bvh, sphere) == brute_force(scene, sphere));
    const Vec3 origin = make.vertex() + Vec3(uniform(make.random, -3, 3) * size * 0.1f);
    const Ray ray{origin, make.vertex() - origin};
    if (ray.direction == Vec3(0.0f)) continue;
    check_closest_hit(scene.soup(), ray, closest_hit(bvh, ray));
    check_any_hit(scene.soup(), ray, any_hit(bvh, ray));
  }
}

}  // namespace trisect::testing
