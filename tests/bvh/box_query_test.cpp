// Box queries against brute force, as exact sorted sets, on every scene; infinite bounds.
#include "support/brute_force.hpp"
#include "support/node_picker.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace trisect::testing {
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

TEST_CASE("box node tests equal the exact comparisons of decoded boxes", "[bvh]") {
  // Query boxes whose faces are the decoded faces of a node's children (and their float
  // neighbours), so that touching and inside are decided by ties: the SIMD masks must equal
  // may_touch and contains child by child.
  std::mt19937_64 random(84);
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    if (bvh.wide.empty()) continue;
    NodePicker picker(bvh);
    int touching = 0, inside = 0, apart = 0;
    for (int q = 0; q < 3000; ++q) {
      const WideNode& node = picker.node(random);
      const Aabb first = node.child_bounds(NodePicker::used_lane(node, random));
      const Aabb second = node.child_bounds(NodePicker::used_lane(node, random));
      Aabb box = Aabb::empty();
      for (int axis = 0; axis < 3; ++axis) {
        const float faces[4] = {first.min[axis], first.max[axis], second.min[axis],
                                second.max[axis]};
        std::uniform_int_distribution<int> pick_face(0, 3), nudge(-1, 1);
        const auto near_face = [&] {
          const float face = faces[pick_face(random)];
          const int step = nudge(random);
          return step == 0
                     ? face
                     : std::nextafter(face, step > 0 ? std::numeric_limits<float>::infinity()
                                                     : -std::numeric_limits<float>::infinity());
        };
        // Every other query is the union of the two children's boxes, exactly: it holds both,
        // face on face.
        const bool spanning = q % 2 == 0;
        const float a = spanning ? std::min(faces[0], faces[2]) : near_face();
        const float b = spanning ? std::max(faces[1], faces[3]) : near_face();
        box.min[axis] = std::min(a, b);
        box.max[axis] = std::max(a, b);
      }
      const ChildMasks masks = BoxQuery{box}.child_masks(node);
      for (int i = 0; i < NodePicker::used_lanes(node); ++i) {
        const bool touches = box.overlaps(node.child_bounds(i));
        const bool holds = touches && BoxQuery{box}.contains(node.child_bounds(i));
        REQUIRE((masks.touching >> i & 1u) == (touches ? 1u : 0u));
        REQUIRE((masks.inside >> i & 1u) == (holds ? 1u : 0u));
        (holds ? inside : touches ? touching : apart) += 1;
      }
    }
    CHECK(touching > 1000);
    CHECK(inside > 300);
    CHECK(apart > 1000);
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
}  // namespace trisect::testing
