// The heights of DynamicAabbTree and of the Broadphase's static tree on layouts that defeat
// area-guided insertion alone (issue 22): nested boxes, identical boxes, chains of overlapping
// boxes, and a few large boxes among many small ones, built by insertion, thinned by removal
// and churned by moves. The bound is the one the header documents.
#include "broadphase/random_boxes.hpp"
#include "broadphase/tree_answer.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

// The documented bound on the height of a tree of `count` proxies: below 2.16·log2(count).
double height_bound(std::size_t count) { return count < 2 ? 0.0 : 2.16 * std::log2(double(count)); }

struct Layout {
  std::string name;
  std::function<Aabb(int i, std::mt19937_64& random)> box;
};

// The layouts, each of `count` boxes in insertion order.
std::vector<Layout> layouts(int count) {
  const auto cube = [](float low, float high) { return Aabb{Vec3(low), Vec3(high)}; };
  return {
      {"nested, growing", [=](int i, std::mt19937_64&) { return cube(-float(i), float(i)); }},
      {"nested, shrinking",
       [=](int i, std::mt19937_64&) { return cube(-float(count - i), float(count - i)); }},
      {"identical", [=](int, std::mt19937_64&) { return cube(0.0f, 1.0f); }},
      {"chained",
       [](int i, std::mt19937_64&) {
         return Aabb{Vec3(float(i), 0, 0), Vec3(float(i) + 1.5f, 1, 1)};
       }},
      {"nested and identical, alternating",
       [=](int i, std::mt19937_64&) {
         return i % 2 == 0 ? cube(-float(i), float(i)) : cube(0.0f, 1.0f);
       }},
      {"two large among small",  // issue 22: height 519 and more
       [=](int i, std::mt19937_64& random) {
         if (i == 100 || i == 101) return cube(-1000.0f, 1000.0f);
         return random_box(random, 20.0f);
       }},
      {"mixed sizes",
       [](int i, std::mt19937_64& random) {
         const float half = std::ldexp(1.0f, i % 16 - 4);  // 2^-4 .. 2^11
         return Aabb::from_center_extents(random_point(random, 10.0f), Vec3(half));
       }},
  };
}

void require_height_bound(const DynamicAabbTree& tree) {
  INFO("proxies " << tree.size() << " height " << tree.height());
  REQUIRE(tree.height() <= height_bound(tree.size()));
  REQUIRE_NOTHROW(tree.validate());
}

}  // namespace

TEST_CASE("DynamicAabbTree height stays logarithmic on degenerate layouts", "[broadphase]") {
  constexpr int count = 10000;
  for (const Layout& layout : layouts(count)) {
    INFO(layout.name);
    std::mt19937_64 random(13);
    DynamicAabbTree tree(FatBoxOptions{0.0f, 0.0f});
    std::vector<ProxyId> ids;
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) {
      boxes.push_back(layout.box(i, random));
      ids.push_back(tree.create_proxy(boxes.back()));
    }
    require_height_bound(tree);
    for (std::size_t i = 0; i < ids.size(); i += 3) {  // jumps: reinsertions
      const Vec3 step(3.0f, 0.0f, 0.0f);
      boxes[i] = Aabb{boxes[i].min + step, boxes[i].max + step};
      (void)tree.move_proxy(ids[i], boxes[i], step);
    }
    require_height_bound(tree);
    for (std::size_t i = 0; i < ids.size(); i += 2) tree.destroy_proxy(ids[i]);  // removals
    require_height_bound(tree);
    const Aabb query = Aabb::from_center_extents(Vec3(1.0f), Vec3(0.5f));
    std::vector<ProxyId> expected;
    for (std::size_t i = 1; i < ids.size(); i += 2)
      if (boxes[i].overlaps(query)) expected.push_back(ids[i]);
    std::sort(expected.begin(), expected.end());
    REQUIRE(tree_answer(tree, query) == expected);
    // The SAH rebuild keeps the lowest height and the same answers.
    tree.rebuild();
    REQUIRE_NOTHROW(tree.validate());
    REQUIRE(tree.height() == static_cast<int>(std::ceil(std::log2(double(tree.size())))));
    REQUIRE(tree_answer(tree, query) == expected);
  }
}

TEST_CASE("Broadphase static tree height stays logarithmic on degenerate layouts", "[broadphase]") {
  constexpr int count = 10000;
  for (const Layout& layout : layouts(count)) {
    INFO(layout.name);
    std::mt19937_64 random(19);
    Broadphase broadphase;
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) {
      boxes.push_back(layout.box(i, random));
      (void)broadphase.create_proxy(boxes.back(), Layer::static_layer);
    }
    const Aabb body_box{Vec3(0.25f), Vec3(0.5f)};
    (void)broadphase.create_proxy(body_box);
    broadphase.update_pairs();
    require_height_bound(broadphase.tree(Layer::static_layer));
    const auto expected = std::count_if(boxes.begin(), boxes.end(),
                                        [&](const Aabb& box) { return box.overlaps(body_box); });
    CHECK(std::ssize(broadphase.pairs()) == expected);
  }
}

TEST_CASE("fewest_leaves is the documented recurrence", "[broadphase]") {
  // max_imbalance 3: L(h) = L(h - 1) + L(max(h - 4, 0)), L(0) = 1.
  REQUIRE(DynamicAabbTree::max_imbalance == 3);
  const std::vector<std::size_t> expected{1, 2, 3, 4, 5, 7, 10, 14, 19, 26, 36, 50};
  for (std::size_t h = 0; h < expected.size(); ++h)
    CHECK(DynamicAabbTree::fewest_leaves(int(h)) == expected[h]);
  CHECK(DynamicAabbTree::fewest_leaves(1000) == std::numeric_limits<std::size_t>::max());
  for (std::size_t n = 2; n < 2000000; n = n * 3 + 1) {  // the documented bound holds
    int most = 0;
    while (DynamicAabbTree::fewest_leaves(most + 1) <= n) ++most;
    CHECK(most <= height_bound(n));
  }
}

}  // namespace trisect::testing
