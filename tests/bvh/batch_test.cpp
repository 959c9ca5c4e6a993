// Batch queries answer each query as the single-query functions do.
#include "support/brute_force.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ray_query.hpp>

#include <catch2/catch.hpp>

namespace trisect::testing {
namespace {

TEST_CASE("batch queries answer each query as the single-query functions do", "[bvh]") {
  const Scene scene = lattice_soup(3000, 41);
  const Bvh bvh = build(scene.soup());
  QueryMaker make{scene, std::mt19937_64(42)};
  std::vector<Aabb> boxes;
  std::vector<Plane> planes;
  std::vector<Ray> rays;
  for (int i = 0; i < 200; ++i) {
    boxes.push_back(make.box(2.0f));
    planes.push_back(make.plane());
    rays.push_back(Ray{make.vertex() + Vec3(0.5f, 0.25f, 20.0f), Vec3(0.01f, 0.02f, -1.0f)});
  }
  const auto box_answers = collect_touching_batch(bvh, std::span<const Aabb>(boxes));
  const auto plane_answers = collect_touching_batch(bvh, std::span<const Plane>(planes));
  const auto hits = closest_hit_batch(bvh, rays);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    REQUIRE(box_answers[i] == brute_force(scene, boxes[i]));
    REQUIRE(plane_answers[i] == brute_force(scene, planes[i]));
    const auto expected = closest_hit(bvh, rays[i]);  // checked against the exact oracle
    REQUIRE(hits[i].has_value() == expected.has_value());
    if (expected) {
      REQUIRE(hits[i]->t == expected->t);
      REQUIRE(hits[i]->id == expected->id);
    }
  }
  planes[17].normal = Vec3(0.0f);
  CHECK_THROWS_WITH(collect_touching_batch(bvh, std::span<const Plane>(planes)),
                    Catch::Contains("batch query 17") && Catch::Contains("normal is zero"));
}

}  // namespace
}  // namespace trisect::testing
