#include "broadphase/random_boxes.hpp"
#include "broadphase/tree_answer.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/broadphase/dynamic_aabb_tree.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

std::vector<ProxyId> brute_force_answer(const DynamicAabbTree& tree,
                                        const std::map<ProxyId, Aabb>& live, const Aabb& box) {
  std::vector<ProxyId> ids;
  for (const auto& [id, tight] : live)
    if (tree.fat_box(id).overlaps(box)) ids.push_back(id);
  return ids;
}

}  // namespace

TEST_CASE("DynamicAabbTree matches brute force through random create, move and destroy",
          "[broadphase]") {
  std::mt19937_64 random(11);
  DynamicAabbTree tree;
  std::map<ProxyId, Aabb> live;
  for (int step = 0; step < 3000; ++step) {
    const int action = std::uniform_int_distribution<int>(0, 9)(random);
    if (live.empty() || action < 3) {
      const Aabb box = random_box(random, 20.0f);
      const ProxyId id = tree.create_proxy(box, 1000 + live.size());
      REQUIRE(live.count(id) == 0);
      live[id] = box;
    } else if (action < 4) {
      auto it = std::next(live.begin(), std::uniform_int_distribution<std::ptrdiff_t>(
                                            0, std::ssize(live) - 1)(random));
      tree.destroy_proxy(it->first);
      live.erase(it);
    } else {
      auto it = std::next(live.begin(), std::uniform_int_distribution<std::ptrdiff_t>(
                                            0, std::ssize(live) - 1)(random));
      const Vec3 displacement = random_point(random, 0.3f);
      const Aabb moved{it->second.min + displacement, it->second.max + displacement};
      (void)tree.move_proxy(it->first, moved, displacement);
      it->second = moved;
    }
    if (step % 50 == 0) {
      REQUIRE_NOTHROW(tree.validate());
      REQUIRE(tree.size() == live.size());
      for (const auto& [id, box] : live) REQUIRE(tree.fat_box(id).contains(box));
      for (int q = 0; q < 10; ++q) {
        const Aabb query = random_box(random, 20.0f);
        REQUIRE(tree_answer(tree, query) == brute_force_answer(tree, live, query));
      }
    }
  }
  tree.rebuild();
  REQUIRE_NOTHROW(tree.validate());
  for (int q = 0; q < 50; ++q) {
    const Aabb query = random_box(random, 20.0f);
    REQUIRE(tree_answer(tree, query) == brute_force_answer(tree, live, query));
  }
}

TEST_CASE("DynamicAabbTree query_each equals one query per box", "[broadphase]") {
  std::mt19937_64 random(29);
  DynamicAabbTree tree;
  std::map<ProxyId, Aabb> live;
  for (int i = 0; i < 600; ++i) {
    const Aabb box = random_awkward_box(random, 40.0f);
    live[tree.create_proxy(box, 7)] = box;
  }
  for (int round = 0; round < 20; ++round) {
    for (auto& [id, box] : live) {  // small steps: refitted in place, some jumps: reinserted
      const Vec3 step = random_point(random, round % 5 == 4 ? 30.0f : 0.4f);
      box = Aabb{box.min + step, box.max + step};
      (void)tree.move_proxy(id, box, step);
    }
    REQUIRE_NOTHROW(tree.validate());
    std::vector<Aabb> queries;
    for (int q = 0; q < 50; ++q) queries.push_back(random_awkward_box(random, 40.0f));
    std::vector<std::vector<ProxyId>> answers(queries.size());
    tree.query_each(queries, [&](std::size_t q, ProxyId id) { answers[q].push_back(id); });
    for (std::size_t q = 0; q < queries.size(); ++q) {
      std::sort(answers[q].begin(), answers[q].end());
      REQUIRE(answers[q] == tree_answer(tree, queries[q]));
      REQUIRE(answers[q] == brute_force_answer(tree, live, queries[q]));
    }
  }
  CHECK(tree.refits_since_rebuild() > 0);
  tree.rebuild();
  CHECK(tree.refits_since_rebuild() == 0);
  REQUIRE_NOTHROW(tree.validate());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Aabb> bad{Aabb{Vec3(0.0f), Vec3(1.0f)}, Aabb{Vec3(nan), Vec3(1.0f)}};
  std::size_t visited = 0;
  REQUIRE_THROWS_AS(tree.query_each(bad, [&](std::size_t, ProxyId) { ++visited; }), InvalidInput);
  CHECK(visited == 0);
}

// Each inner node keeps copies of its children's boxes and leaf bits: every single refit,
// rotation, removal and reuse of a node's storage (an inner node's index coming back as a
// proxy, and the other way) must keep them equal to the children's own, which validate() checks.
TEST_CASE("DynamicAabbTree keeps the parents' copies of child boxes through every update",
          "[broadphase]") {
  std::mt19937_64 random(41);
  DynamicAabbTree tree(FatBoxOptions{0.05f, 2.0f});
  std::map<ProxyId, Aabb> live;
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 150; ++i) {
      const Aabb box = random_box(random, 15.0f);
      const ProxyId id = tree.create_proxy(box);
      REQUIRE(live.count(id) == 0);
      live[id] = box;
      REQUIRE_NOTHROW(tree.validate());
    }
    for (auto& [id, box] : live) {  // continuous motions: refits in place with rotations
      const Vec3 step = random_point(random, 0.3f);
      box = Aabb{box.min + step, box.max + step};
      (void)tree.move_proxy(id, box, step);
      REQUIRE_NOTHROW(tree.validate());
    }
    for (auto it = live.begin(); it != live.end();) {  // frees inner nodes for later proxies
      if (std::uniform_int_distribution<int>(0, 2)(random) == 0) {
        tree.destroy_proxy(it->first);
        it = live.erase(it);
        REQUIRE_NOTHROW(tree.validate());
      } else {
        ++it;
      }
    }
    if (round % 2 == 1) tree.rebuild();
    REQUIRE_NOTHROW(tree.validate());
    for (int q = 0; q < 20; ++q) {
      const Aabb query = random_box(random, 15.0f);
      REQUIRE(tree_answer(tree, query) == brute_force_answer(tree, live, query));
    }
  }
}

TEST_CASE("DynamicAabbTree moves inside the fat box change nothing", "[broadphase]") {
  DynamicAabbTree tree(FatBoxOptions{0.5f, 4.0f});
  const Aabb box{Vec3(0.0f), Vec3(1.0f)};
  const ProxyId id = tree.create_proxy(box, 7);
  REQUIRE(tree.fat_box(id) == Aabb{Vec3(-0.5f), Vec3(1.5f)});
  REQUIRE(tree.user_data(id) == 7);
  const Vec3 small(0.25f, 0.0f, 0.0f);
  REQUIRE_FALSE(tree.move_proxy(id, Aabb{box.min + small, box.max + small}, small));
  const Vec3 large(1.0f, 0.0f, 0.0f);
  REQUIRE(tree.move_proxy(id, Aabb{box.min + large, box.max + large}, large));
  // Grown by the margin, then by 4 displacements ahead along +x.
  REQUIRE(tree.fat_box(id) == Aabb{Vec3(0.5f, -0.5f, -0.5f), Vec3(6.5f, 1.5f, 1.5f)});
  // Stopping: the stored box is far larger than needed, so it shrinks.
  REQUIRE(tree.move_proxy(id, Aabb{box.min + large, box.max + large}, Vec3(0.0f)));
  REQUIRE(tree.fat_box(id) == Aabb{Vec3(0.5f, -0.5f, -0.5f), Vec3(2.5f, 1.5f, 1.5f)});
}

// Issue 35, item 10: after an origin shift each stored box must still contain the proxy's box
// moved by the offset (each face rounded to the nearest float); a face rounded inward instead
// loses the proxy's own corners when the margin is 0. Offsets whose sums are not floats.
TEST_CASE("DynamicAabbTree and Broadphase shifts keep each proxy's box inside its fat box",
          "[broadphase]") {
  const std::vector<Aabb> boxes = {{Vec3(0.1f), Vec3(0.3f)},
                                   {Vec3(-1.0f / 3.0f, 0.7f, 5.0f), Vec3(0.2f, 0.9f, 5.0f)},
                                   {Vec3(12345.678f, -0.001f, 1e-7f), Vec3(12346.5f, 0.0f, 3.3f)}};
  const std::vector<Vec3> offsets = {Vec3(0.7f, -0.1f, 1.0f / 3.0f), Vec3(1e-3f, 3e5f, -2.9f),
                                     Vec3(-12345.6f, 0.3f, 1e-9f)};
  DynamicAabbTree tree(FatBoxOptions{0.0f, 0.0f});
  Broadphase broadphase(FatBoxOptions{0.0f, 0.0f});
  std::vector<Aabb> moved = boxes;
  std::vector<ProxyId> in_tree_ids, in_broadphase_ids;  // index for index with `boxes`
  for (const Aabb& box : boxes) {
    in_tree_ids.push_back(tree.create_proxy(box));
    in_broadphase_ids.push_back(broadphase.create_proxy(box));
  }
  const auto finds = [](const auto& search, const Vec3& point, ProxyId wanted) {
    bool found = false;
    search(point, [&](ProxyId id) {
      found = found || id == wanted;
      return true;
    });
    return found;
  };
  const auto in_tree = [&](const Vec3& point, auto&& visit) {
    tree.query(Aabb{point, point}, visit);
  };
  const auto in_broadphase = [&](const Vec3& point, auto&& visit) {
    broadphase.query(point, ProxyQueryFilter{}, visit);
  };
  for (const Vec3& offset : offsets) {
    tree.shift(offset);
    broadphase.shift_origin(offset);
    REQUIRE_NOTHROW(tree.validate());
    REQUIRE_NOTHROW(broadphase.validate());
    for (std::size_t i = 0; i < moved.size(); ++i) {
      moved[i] = {moved[i].min + offset, moved[i].max + offset};
      INFO("box " << i << " after offset " << offset.x << ' ' << offset.y << ' ' << offset.z);
      REQUIRE(broadphase.box(in_broadphase_ids[i]) == moved[i]);
      CHECK(tree.fat_box(in_tree_ids[i]).contains(moved[i]));
      for (const Vec3& corner : {moved[i].min, moved[i].max}) {
        CHECK(finds(in_tree, corner, in_tree_ids[i]));
        CHECK(finds(in_broadphase, corner, in_broadphase_ids[i]));
      }
    }
  }
}

TEST_CASE("DynamicAabbTree height stays near log2 of the proxy count", "[broadphase]") {
  std::mt19937_64 random(5);
  for (const std::size_t count : {1000u, 20000u}) {
    DynamicAabbTree tree;
    std::vector<ProxyId> ids;
    const float side = std::cbrt(36.0f * float(count));
    for (std::size_t i = 0; i < count; ++i)
      ids.push_back(tree.create_proxy(random_box(random, side)));
    const double log_n = std::log2(double(count));
    INFO("count " << count << " height " << tree.height() << " sah " << tree.sah_cost());
    CHECK(tree.height() <= 3 * log_n);
    // Churn: every proxy moves far, twice.
    for (int round = 0; round < 2; ++round)
      for (const ProxyId id : ids) (void)tree.move_proxy(id, random_box(random, side));
    INFO("after moves: height " << tree.height());
    CHECK(tree.height() <= 3 * log_n);
    REQUIRE_NOTHROW(tree.validate());
    const double incremental_cost = tree.sah_cost();
    tree.rebuild();
    REQUIRE_NOTHROW(tree.validate());
    CHECK(tree.height() <= std::ceil(log_n));
    INFO("incremental sah " << incremental_cost << " rebuilt " << tree.sah_cost());
    CHECK(incremental_cost < 2 * tree.sah_cost());
  }
}

TEST_CASE("DynamicAabbTree handles degenerate, huge, tiny and identical boxes", "[broadphase]") {
  constexpr float largest = std::numeric_limits<float>::max();
  DynamicAabbTree tree(FatBoxOptions{0.0f, 0.0f});
  std::vector<ProxyId> same;
  const Aabb unit{Vec3(0.0f), Vec3(1.0f)};
  for (int i = 0; i < 4096; ++i) same.push_back(tree.create_proxy(unit));
  CHECK(tree.height() <= 2 * 12);
  const ProxyId point = tree.create_proxy(Aabb{Vec3(5.0f), Vec3(5.0f)});
  const ProxyId flat = tree.create_proxy(Aabb{Vec3(-3, -3, 2), Vec3(3, 3, 2)});
  const ProxyId huge = tree.create_proxy(Aabb{Vec3(-largest), Vec3(largest)});
  const ProxyId tiny = tree.create_proxy(Aabb{Vec3(-1e-30f), Vec3(1e-30f)});
  REQUIRE_NOTHROW(tree.validate());
  CHECK(tree.sah_cost() >= 0);
  CHECK(tree_answer(tree, Aabb{Vec3(5.0f), Vec3(5.0f)}) == (std::vector<ProxyId>{point, huge}));
  CHECK(tree_answer(tree, Aabb{Vec3(0, 0, 2), Vec3(0, 0, 2)}) ==
        (std::vector<ProxyId>{flat, huge}));
  std::vector<ProxyId> at_origin = same;
  at_origin.insert(at_origin.end(), {huge, tiny});
  std::sort(at_origin.begin(), at_origin.end());
  CHECK(tree_answer(tree, Aabb{Vec3(0.0f), Vec3(0.0f)}) == at_origin);
  for (const ProxyId id : same) tree.destroy_proxy(id);
  REQUIRE_NOTHROW(tree.validate());
  CHECK(tree.size() == 4);
}

TEST_CASE("DynamicAabbTree queries stop early", "[broadphase]") {
  DynamicAabbTree tree;
  for (int i = 0; i < 100; ++i) (void)tree.create_proxy(Aabb{Vec3(float(i)), Vec3(float(i) + 1)});
  int visits = 0;
  CHECK_FALSE(tree.query(Aabb{Vec3(0.0f), Vec3(100.0f)}, [&](ProxyId) { return ++visits < 3; }));
  CHECK(visits == 3);
  visits = 0;
  const Ray diagonal{Vec3(-1.0f), Vec3(1.0f)};
  CHECK_FALSE(tree.query(diagonal, [&](ProxyId) { return ++visits < 5; }));
  CHECK(visits == 5);
  CHECK(tree.query(Aabb{Vec3(500.0f), Vec3(600.0f)}, [](ProxyId) { return false; }));
}

TEST_CASE("DynamicAabbTree rejects bad input and stays intact", "[broadphase]") {
  DynamicAabbTree tree;
  const ProxyId id = tree.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_AS(tree.create_proxy(Aabb{Vec3(nan), Vec3(1.0f)}), InvalidInput);
  REQUIRE_THROWS_AS(tree.create_proxy(Aabb{Vec3(1.0f), Vec3(0.0f)}), InvalidInput);
  REQUIRE_THROWS_WITH(tree.move_proxy(id, Aabb{Vec3(0, 0, 0), Vec3(1, nan, 1)}),
                      Catch::Contains("not finite"));
  REQUIRE_THROWS_WITH(tree.move_proxy(id, Aabb{Vec3(0, 2, 0), Vec3(1, 1, 1)}),
                      Catch::Contains("exceeds"));
  REQUIRE_THROWS_AS(tree.move_proxy(id, Aabb{Vec3(0.0f), Vec3(1.0f)}, Vec3(nan)), InvalidInput);
  REQUIRE_THROWS_WITH(tree.move_proxy(id + 1, Aabb{Vec3(0.0f), Vec3(1.0f)}),
                      Catch::Contains("not a live proxy"));
  REQUIRE_THROWS_AS(tree.query(Aabb{Vec3(nan), Vec3(nan)}, [](ProxyId) { return true; }),
                    InvalidInput);
  const FatBoxOptions negative_margin{-1.0f, 4.0f};
  REQUIRE_THROWS_AS(DynamicAabbTree(negative_margin), InvalidInput);
  tree.destroy_proxy(id);
  REQUIRE_THROWS_AS(tree.destroy_proxy(id), InvalidInput);
  REQUIRE_THROWS_AS(tree.fat_box(id), InvalidInput);
  REQUIRE_NOTHROW(tree.validate());
  CHECK(tree.size() == 0);
}

TEST_CASE("TraversalStack grows instead of overflowing", "[broadphase]") {
  TraversalStack stack;
  for (std::int32_t i = 0; i < 1000; ++i) stack.push(i);
  for (std::int32_t i = 999; i >= 0; --i) REQUIRE(stack.pop() == i);
  CHECK(stack.is_empty());
}

}  // namespace trisect::testing
