// The builders that write 8-wide nodes directly: identical trees for any thread count on scenes
// large enough for their parallel paths, leaves within the size asked for, degenerate input, and
// the SAH tree's cost against the Morton tree's.
#include "support/every_query_check.hpp"
#include "support/same_tree.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <vector>

namespace trisect::testing {
namespace {

// Calls `visit(first, end)` for the slots of every leaf of `bvh`.
template <class Visit>
void for_each_leaf(const Bvh& bvh, const Visit& visit) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{
      {0, static_cast<std::uint32_t>(bvh.size())}};
  while (!stack.empty()) {
    const auto [index, end] = stack.back();
    stack.pop_back();
    const WideNode& node = bvh.wide[index];
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      if (node.child[i] == WideNode::leaf)
        visit(node.first[i], node.child_end(i, end));
      else
        stack.emplace_back(node.child[i], node.child_end(i, end));
    }
  }
}

// The largest leaf of `bvh`.
std::uint32_t largest_leaf(const Bvh& bvh) {
  std::uint32_t largest = 0;
  for_each_leaf(bvh, [&](std::uint32_t first, std::uint32_t end) {
    largest = std::max(largest, end - first);
  });
  return largest;
}

const BuildMethod methods[] = {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc};

TEST_CASE("wide builds of a large scene are valid and identical for 1, 2 and 8 threads", "[bvh]") {
  // 6 x 150^2 x 2 = 270,000 triangles: above every parallel threshold of both builders.
  const Scene scene = scenes::cube_sphere("sphere_270k", 150);
  const TriangleSoup soup = scene.soup();
  for (const BuildMethod method : methods) {
    INFO(static_cast<int>(method));
    const Bvh one = build(soup, {.threads = 1, .method = method});
    REQUIRE_NOTHROW(validate(one, &soup));
    for (const unsigned threads : {2u, 8u})
      REQUIRE(same_tree(one, build(soup, {.threads = threads, .method = method})));
  }
}

TEST_CASE("sah leaves hold at most max_leaf_size triangles", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    for (const std::uint32_t max_leaf : {1u, 3u, 8u, 255u}) {
      INFO(max_leaf);
      // Free traversal would split everything; costly traversal keeps the largest leaves.
      for (const float traversal : {0.0f, 2.0f, 1000.0f}) {
        const Bvh bvh = build(soup, {.max_leaf_size = max_leaf, .traversal_cost = traversal});
        REQUIRE_NOTHROW(validate(bvh, &soup));
        CHECK(largest_leaf(bvh) <= max_leaf);
      }
    }
  }
}

TEST_CASE("morton and ploc leaves hold at most min(max_leaf_size, 4) triangles", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    for (const BuildMethod method : {BuildMethod::morton, BuildMethod::ploc})
      for (const std::uint32_t max_leaf : {1u, 3u, 8u}) {
        INFO("method " << static_cast<int>(method) << " max_leaf " << max_leaf);
        const Bvh bvh = build(soup, {.max_leaf_size = max_leaf, .method = method});
        REQUIRE_NOTHROW(validate(bvh, &soup));
        CHECK(largest_leaf(bvh) <= std::min(max_leaf, 4u));
      }
  }
}

// The triangles of the leaf holding triangle `id`, as ids.
std::vector<TriangleId> leaf_of(const Bvh& bvh, TriangleId id) {
  std::vector<TriangleId> found;
  for_each_leaf(bvh, [&](std::uint32_t first, std::uint32_t end) {
    const std::vector<TriangleId> ids(bvh.ids.begin() + first, bvh.ids.begin() + end);
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) found = ids;
  });
  return found;
}

TEST_CASE("sah builds of a sphere with a far handful: one leaf for it, exact answers", "[bvh]") {
  // 1,200 triangles of a sphere and three triangles far away, split off at the root into one
  // leaf (one leaf of four lanes costs less than two), for every leaf size that holds them.
  scenes::Scene scene = scenes::cube_sphere("sphere_1200", 10);
  const auto far_id = static_cast<TriangleId>(scene.size());
  for (int k = 0; k < 3; ++k) {
    const Vec3 corner(1000.0f + float(k), 1000.0f, 1000.0f);
    scene.positions.insert(scene.positions.end(),
                           {corner, corner + Vec3(0.5f, 0, 0), corner + Vec3(0, 0.5f, 0)});
  }
  if (!scene.indices.empty())
    for (std::uint32_t v = 0; v < 9; ++v)
      scene.indices.push_back(static_cast<std::uint32_t>(scene.positions.size()) - 9 + v);
  const TriangleSoup soup = scene.soup();
  REQUIRE(soup.size() == std::size_t{far_id} + 3);
  for (const std::uint32_t max_leaf : {2u, 3u, 4u, 8u}) {
    INFO("max_leaf_size " << max_leaf);
    const Bvh bvh = build(soup, {.max_leaf_size = max_leaf});
    REQUIRE_NOTHROW(validate(bvh, &soup));
    CHECK(largest_leaf(bvh) <= max_leaf);
    REQUIRE(same_tree(bvh, build(soup, {.max_leaf_size = max_leaf, .threads = 2})));
    check_every_query(bvh, scene, 40);
    if (max_leaf >= 3) {
      std::vector<TriangleId> far = leaf_of(bvh, far_id);
      std::sort(far.begin(), far.end());
      CHECK(far == std::vector<TriangleId>{far_id, far_id + 1, far_id + 2});
    }
  }
}

TEST_CASE("sah builds of coincident triangles split at the median and stay shallow", "[bvh]") {
  // 5,000 copies of one triangle: no binned split separates them, so every node splits at the
  // object median, and the depth is that of a balanced tree.
  std::vector<Vec3> positions;
  for (int i = 0; i < 5000; ++i)
    positions.insert(positions.end(), {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)});
  const TriangleSoup soup{positions};
  for (const BuildMethod method : methods) {
    const Bvh bvh = build(soup, {.method = method});
    REQUIRE_NOTHROW(validate(bvh, &soup));
    CHECK(statistics(bvh).depth <= 13);  // 8 children per node at best, 2 at worst
  }
}

TEST_CASE("the sah tree costs no more than the morton tree", "[bvh]") {
  // Both trees are wide trees over the same triangles; the SAH builder chooses every split by
  // the cost that `statistics` measures (with unit costs, it needs no leaf larger than the
  // Morton builder's 4 to beat a spatial median), so on every scene it should cost no more.
  std::vector<Scene> scenes = all_scenes();
  scenes.push_back(scenes::cube_sphere("sphere_60k", 70));
  for (const Scene& scene : scenes) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const BuildOptions unit{.traversal_cost = 1.0f};
    const double sah = statistics(build(soup, unit)).sah_cost;
    const double morton = statistics(build(soup, {.method = BuildMethod::morton})).sah_cost;
    CHECK(sah <= morton);
  }
}

}  // namespace
}  // namespace trisect::testing
