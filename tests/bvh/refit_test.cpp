// Refit: the tree refitted to moved vertices answers every query as brute force does on the
// moved triangles, is valid over them, and refitted back is the tree as built, bit for bit.
#include "support/every_query_check.hpp"
#include "support/same_tree.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/refit.hpp>

#include <tbb/task_arena.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

// `scene` bent and twisted about its centre by `amount` (0: unchanged), each position moved as
// a smooth function of itself, so corners that coincide move alike.
Scene deformed(const Scene& scene, float amount) {
  Scene moved = scene;
  moved.name += "_deformed";
  const Aabb box = scene.bounds();
  const Vec3 centre = 0.5f * (box.min + box.max);
  const float size = std::max(scene.diagonal(), std::numeric_limits<float>::min());
  for (Vec3& p : moved.positions) {
    const Vec3 q = (p - centre) / size;  // within about [-1, 1]
    const float angle = amount * 3.0f * q.z;
    const float c = std::cos(angle), s = std::sin(angle);
    const Vec3 twisted(c * q.x - s * q.y, s * q.x + c * q.y, q.z + amount * 0.3f * q.x * q.x);
    p = centre +
        size * (twisted +
                amount * 0.05f * Vec3(std::sin(9 * q.y), std::sin(7 * q.z), std::sin(5 * q.x)));
  }
  return moved;
}

TEST_CASE("a refitted tree is valid and answers every query exactly on the moved mesh",
          "[bvh][refit]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    Bvh bvh = build(scene.soup());
    const Scene moved = deformed(scene, 0.4f);
    refit(bvh, moved.soup());
    const TriangleSoup moved_soup = moved.soup();
    validate(bvh, &moved_soup);
    CHECK(bvh.bounds() == build(moved.soup()).bounds());
    check_every_query(bvh, moved, 60);
  }
}

TEST_CASE("refitted back to its positions, a tree is the tree as built, bit for bit",
          "[bvh][refit]") {
  for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
    for (const Scene& scene : all_scenes()) {
      INFO(scene.name << " method " << static_cast<int>(method));
      BuildOptions options;
      options.method = method;
      const Bvh built = build(scene.soup(), options);
      Bvh bvh = built;
      refit(bvh, deformed(scene, 0.7f).soup());
      refit(bvh, scene.soup());
      CHECK(same_tree(bvh, built));
    }
  }
}

TEST_CASE("a refit gives the same tree on 1 and 2 threads", "[bvh][refit]") {
  const Scene scene = noisy_sphere(200, 300, 8);  // 120k triangles: parallel subtrees
  const Scene moved = deformed(scene, 0.5f);
  Bvh one = build(scene.soup()), two = one;
  tbb::task_arena(1).execute([&] { refit(one, moved.soup()); });
  tbb::task_arena(2).execute([&] { refit(two, moved.soup()); });
  CHECK(same_tree(one, two));
}

// The ids of the triangles with a corner in `vertices` (flags by position index).
std::vector<TriangleId> triangles_using(const Scene& scene, const std::vector<bool>& vertices) {
  std::vector<TriangleId> ids;
  for (std::size_t t = 0; t < scene.size(); ++t) {
    bool uses = false;
    for (int corner = 0; corner < 3; ++corner) {
      const std::size_t slot = scene.indices.empty() ? 3 * t + std::size_t(corner)
                                                     : scene.indices[3 * t + std::size_t(corner)];
      uses = uses || vertices[slot];
    }
    if (uses) ids.push_back(static_cast<TriangleId>(t));
  }
  return ids;
}

TEST_CASE("a partial refit moves the changed triangles and keeps every answer exact",
          "[bvh][refit]") {
  std::mt19937_64 random(5);
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    Bvh bvh = build(scene.soup());
    Scene current = scene;
    for (int round = 0; round < 4; ++round) {
      // A few percent of the vertices move; the triangles using them are the changed ones.
      const Scene target = deformed(scene, 0.2f * float(round + 1));
      std::vector<bool> moves(scene.positions.size(), false);
      std::bernoulli_distribution pick(0.03);
      for (std::size_t v = 0; v < moves.size(); ++v)
        if (pick(random)) {
          moves[v] = true;
          current.positions[v] = target.positions[v];
        }
      refit(bvh, current.soup(), triangles_using(current, moves));
      const TriangleSoup current_soup = current.soup();
      validate(bvh, &current_soup);
      // The tree a full refit gives, boxes and all (the subtrees off the changed paths keep
      // their exact boxes in `child_boxes`).
      Bvh full = bvh;
      refit(full, current_soup);
      CHECK(same_tree(bvh, full));
      CHECK(std::memcmp(full.child_boxes.data(), bvh.child_boxes.data(), bvh.child_boxes.bytes()) ==
            0);
      // And the tree of a full refit that re-quantises every node (no exact boxes kept, so none
      // is skipped as unmoved): the nodes skipped above are bit for bit what quantising gives.
      Bvh requantised = bvh;
      requantised.child_boxes = {};
      refit(requantised, current_soup);
      CHECK(same_tree(bvh, requantised));
    }
    check_every_query(bvh, current, 30);
    // Every triangle named: the same tree as a full refit.
    Bvh full = bvh;
    std::vector<TriangleId> all(scene.size());
    for (std::size_t t = 0; t < all.size(); ++t) all[t] = TriangleId(t);
    refit(bvh, current.soup(), all);
    refit(full, current.soup());
    CHECK(same_tree(bvh, full));
  }
}

// True when `bvh`'s ray leaves are those its triangles give.
bool ray_leaves_in_step(const Bvh& bvh) {
  const RayLeaves fresh = RayLeaves::of(bvh.triangles);
  if (!bvh.has_ray_leaves() || fresh.bytes() != bvh.ray_leaves.bytes()) return false;
  const EdgeGroup all = bvh.ray_leaves.group(0, 4), all_fresh = fresh.group(0, 4);
  return std::memcmp(all.values, all_fresh.values, fresh.bytes()) == 0;
}

TEST_CASE("refit keeps the ray leaves in step, full or partial", "[bvh][refit]") {
  const Scene scene = noisy_sphere(40, 50, 6);
  Bvh bvh = build(scene.soup(), {.ray_leaves = true});
  REQUIRE(ray_leaves_in_step(bvh));
  refit(bvh, deformed(scene, 0.3f).soup());
  CHECK(ray_leaves_in_step(bvh));
  const Scene moved = deformed(scene, 0.6f);
  std::vector<TriangleId> some;
  for (std::size_t t = 0; t < scene.size(); t += 7) some.push_back(TriangleId(t));
  // Only the named triangles move (the others keep their old positions in the soup too).
  Scene current = deformed(scene, 0.3f);
  std::vector<bool> moves(scene.positions.size(), false);
  for (const TriangleId t : some)
    for (int corner = 0; corner < 3; ++corner) {
      const std::size_t v = scene.indices.empty()
                                ? 3 * std::size_t{t} + std::size_t(corner)
                                : scene.indices[3 * std::size_t{t} + std::size_t(corner)];
      moves[v] = true;
      current.positions[v] = moved.positions[v];
    }
  refit(bvh, current.soup(), triangles_using(current, moves));
  CHECK(ray_leaves_in_step(bvh));
  check_every_query(bvh, current, 30);
}

TEST_CASE("the first partial refit makes the slot map, the inverse of the ids", "[bvh][refit]") {
  const Scene scene = noisy_sphere(20, 30, 4);
  Bvh bvh = build(scene.soup());
  CHECK(bvh.slots.empty());  // made on request only
  refit(bvh, scene.soup());
  CHECK(bvh.slots.empty());  // a full refit needs none
  const std::vector<TriangleId> changed{7};
  refit(bvh, scene.soup(), changed);
  REQUIRE(bvh.slots.size() == bvh.size());
  for (std::uint32_t slot = 0; slot < bvh.size(); ++slot) REQUIRE(bvh.slots[bvh.ids[slot]] == slot);
}

TEST_CASE("repeated partial refits of unmoved triangles do not loosen the tree", "[bvh][refit]") {
  const Scene scene = noisy_sphere(60, 80, 9);
  Bvh bvh = build(scene.soup());
  const std::vector<TriangleId> changed{3, 500, 501, 4000, 7000};
  refit(bvh, scene.soup(), changed);
  const Bvh once = bvh;
  for (int round = 0; round < 5; ++round) refit(bvh, scene.soup(), changed);
  CHECK(same_tree(bvh, once));
}

TEST_CASE("refit_quality measures the refitted tree against the built one", "[bvh][refit]") {
  const Scene scene = noisy_sphere(60, 80, 10);
  Bvh bvh = build(scene.soup());
  const double built = statistics(bvh).sah_cost;
  CHECK(refit_quality(bvh).degradation() == 1.0);
  CHECK_FALSE(refit_quality(bvh).rebuild_advised());
  refit(bvh, deformed(scene, 0.05f).soup());
  CHECK(bvh.built_sah_cost == built);
  const RefitQuality slight = refit_quality(bvh);
  CHECK(slight.sah_cost == statistics(bvh).sah_cost);
  CHECK(slight.built_sah_cost == built);
  CHECK_FALSE(slight.rebuild_advised());
  // Every vertex sent to a random place in the box: the boxes overlap everywhere.
  Scene scrambled = scene;
  std::mt19937_64 random(3);
  const Aabb box = scene.bounds();
  for (Vec3& p : scrambled.positions)
    p = Vec3(uniform(random, box.min.x, box.max.x), uniform(random, box.min.y, box.max.y),
             uniform(random, box.min.z, box.max.z));
  refit(bvh, scrambled.soup());
  const RefitQuality scrambled_quality = refit_quality(bvh);
  CHECK(scrambled_quality.degradation() > 5.0);
  CHECK(scrambled_quality.rebuild_advised());
  check_every_query(bvh, scrambled, 20);
}

TEST_CASE("a refit that cannot be done says why and leaves the tree as it was", "[bvh][refit]") {
  const Scene scene = noisy_sphere(20, 30, 11);
  const Bvh built = build(scene.soup());
  Bvh bvh = built;
  Scene bad = deformed(scene, 0.3f);
  bad.positions[3 * 17 + 1].y = std::numeric_limits<float>::quiet_NaN();  // a plain soup
  CHECK_THROWS_WITH(refit(bvh, bad.soup()), Catch::Contains("triangle 17"));
  CHECK(same_tree(bvh, built));
  const std::vector<TriangleId> changed{2, 17};
  CHECK_THROWS_WITH(refit(bvh, bad.soup(), changed), Catch::Contains("triangle 17"));
  CHECK(same_tree(bvh, built));
  const std::vector<TriangleId> out_of_range{1, TriangleId(scene.size())};
  CHECK_THROWS_WITH(refit(bvh, scene.soup(), out_of_range),
                    Catch::Contains("changed id 1 is " + std::to_string(scene.size())));
  CHECK(same_tree(bvh, built));
  const TriangleSoup fewer{std::span(scene.positions).first(scene.positions.size() - 3)};
  CHECK_THROWS_WITH(refit(bvh, fewer), Catch::Contains("the tree " + std::to_string(scene.size())));
  CHECK(same_tree(bvh, built));
  Bvh empty;
  refit(empty, TriangleSoup{});
  CHECK(empty.empty());
}

}  // namespace
}  // namespace trisect::testing
