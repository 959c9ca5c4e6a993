// The mid-phase: for every moved body's box, the static mesh triangles it touches, answered by
// the BVH's batch box query (trisect::collect_touching_batch), checked against brute force.
#include "broadphase/random_boxes.hpp"
#include "support/scenes.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/geometry/aabb_triangle.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <span>
#include <vector>

namespace trisect::testing {

TEST_CASE("Mid-phase of broadphase bodies equals brute force over the mesh", "[broadphase]") {
  const Scene scene = random_soup(3000, 4);
  const Bvh bvh = build(scene.soup());
  std::mt19937_64 random(8);
  Broadphase broadphase;
  std::vector<ProxyId> ids;
  for (int i = 0; i < 300; ++i)
    ids.push_back(broadphase.create_proxy(random_awkward_box(random, 20.0f)));
  broadphase.update_pairs();
  std::vector<Aabb> moved;
  for (std::size_t i = 0; i < ids.size(); i += 3) {
    const Vec3 step = random_point(random, 0.5f);
    const Aabb box{broadphase.box(ids[i]).min + step, broadphase.box(ids[i]).max + step};
    broadphase.move_proxy(ids[i], box, step);
    moved.push_back(box);
  }
  broadphase.update_pairs();
  const auto answers = collect_touching_batch(bvh, std::span<const Aabb>(moved));
  REQUIRE(answers.size() == moved.size());
  std::size_t total = 0;
  for (std::size_t b = 0; b < moved.size(); ++b) {
    std::vector<TriangleId> expected;
    for (TriangleId id = 0; id < scene.size(); ++id)
      if (intersects(scene.soup().triangle(id), moved[b])) expected.push_back(id);
    REQUIRE(answers[b] == expected);
    total += expected.size();
  }
  CHECK(total > 0);
}

}  // namespace trisect::testing
