// The rebuild spread over frames (`DynamicAabbTree::rebuild_gradually`): while it is under way
// the old tree answers exactly, the invariants hold after every call, proxies created and
// destroyed meanwhile are in or out of the new tree, and the new tree is the one a whole
// rebuild makes from the same leaves.
#include "broadphase/random_boxes.hpp"
#include "broadphase/tree_answer.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

// Moves every live proxy a little (refits in place), then checks the tree against brute force.
void move_all(DynamicAabbTree& tree, std::map<ProxyId, Aabb>& live, std::mt19937_64& random) {
  for (auto& [id, box] : live) {
    const Vec3 step = random_point(random, 0.4f);
    box = Aabb{box.min + step, box.max + step};
    (void)tree.move_proxy(id, box, step);
  }
}

// A tree of `count` random proxies, and the proxies' boxes by id.
DynamicAabbTree random_tree(std::mt19937_64& random, int count, std::map<ProxyId, Aabb>& live) {
  DynamicAabbTree tree(FatBoxOptions{0.05f, 2.0f});
  for (int i = 0; i < count; ++i) {
    const Aabb box = random_box(random, 20.0f);
    live[tree.create_proxy(box)] = box;
  }
  return tree;
}

// Moves every proxy a frame at a time until a gradual rebuild starts.
void start_rebuild(DynamicAabbTree& tree, std::map<ProxyId, Aabb>& live, std::mt19937_64& random) {
  while (!tree.is_rebuilding()) {
    move_all(tree, live, random);
    tree.rebuild_gradually();
  }
}

// A tree of `count` random proxies, moved until a gradual rebuild is under way.
DynamicAabbTree rebuilding_tree(std::mt19937_64& random, int count, std::map<ProxyId, Aabb>& live) {
  DynamicAabbTree tree = random_tree(random, count, live);
  start_rebuild(tree, live, random);
  return tree;
}

}  // namespace

TEST_CASE("A gradual rebuild keeps the tree exact while creates, moves and destroys go on",
          "[broadphase]") {
  std::mt19937_64 random(41);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree tree = random_tree(random, 400, live);
  int finished = 0, steps_while_active = 0;
  for (int frame = 0; frame < 120; ++frame) {
    move_all(tree, live, random);
    for (int k = 0; k < 6; ++k) {  // churn: some leave, some arrive, during the rebuild too
      auto victim = live.begin();
      std::advance(victim, std::uniform_int_distribution<int>(0, int(live.size()) - 1)(random));
      tree.destroy_proxy(victim->first);
      live.erase(victim);
      const Aabb box = random_box(random, 20.0f);
      const ProxyId id = tree.create_proxy(box);
      REQUIRE(live.count(id) == 0);  // an id placed by the rebuild is not handed out again
      live[id] = box;
    }
    const bool was_active = tree.is_rebuilding();
    tree.rebuild_gradually();
    steps_while_active += was_active ? 1 : 0;
    finished += was_active && !tree.is_rebuilding() ? 1 : 0;
    REQUIRE_NOTHROW(tree.validate());
    REQUIRE(tree.size() == live.size());
    for (int q = 0; q < 10; ++q) {
      const Aabb query = random_box(random, 25.0f);
      REQUIRE(tree_answer(tree, query) == fat_answer(tree, live, query));
    }
  }
  CHECK(finished >= 2);            // rebuilds both ran and ended
  CHECK(steps_while_active >= 4);  // over several calls each
}

TEST_CASE("A gradual rebuild ends in the tree a whole rebuild makes", "[broadphase]") {
  std::mt19937_64 random(7);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree gradual = random_tree(random, 300, live);
  std::mt19937_64 motion(3);
  start_rebuild(gradual, live, motion);
  DynamicAabbTree whole = gradual;  // the same leaves when the rebuild started
  whole.rebuild();
  while (gradual.is_rebuilding()) gradual.rebuild_gradually();  // no changes meanwhile
  REQUIRE_NOTHROW(gradual.validate());
  CHECK(gradual.height() == whole.height());
  CHECK(gradual.sah_cost() == Approx(whole.sah_cost()).epsilon(1e-12));
  CHECK(gradual.refits_since_rebuild() == 0);
  for (int q = 0; q < 50; ++q) {
    const Aabb query = random_box(random, 25.0f);
    REQUIRE(tree_answer(gradual, query) == tree_answer(whole, query));
  }
}

TEST_CASE("A whole rebuild or an origin shift during a gradual rebuild keeps the tree exact",
          "[broadphase]") {
  std::mt19937_64 random(11);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree tree = rebuilding_tree(random, 200, live);
  const ProxyId gone = live.begin()->first;
  tree.destroy_proxy(gone);
  live.erase(gone);
  tree.shift(Vec3(0.5f, -0.25f, 1.0f));
  REQUIRE_NOTHROW(tree.validate());
  SECTION("finished") {
    while (tree.is_rebuilding()) tree.rebuild_gradually();
  }
  SECTION("replaced by a whole rebuild") {
    tree.rebuild();
    CHECK_FALSE(tree.is_rebuilding());
  }
  require_exact_answers(tree, live, random, 25.0f, 30);
}

TEST_CASE("A rebuild spread over many calls stays exact through moves, jumps and shifts",
          "[broadphase]") {
  // Few changes a call, so that every phase (gathering, splitting, installing, and freeing the
  // old nodes after) spans many calls with changes between them.
  std::mt19937_64 random(13);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree tree = rebuilding_tree(random, 300, live);
  int calls = 0, after = 0;
  while (after < 40) {
    for (int k = 0; k < 3; ++k) {  // small steps: refitted in place
      auto moving = live.begin();
      std::advance(moving, std::uniform_int_distribution<int>(0, int(live.size()) - 1)(random));
      const Vec3 step = random_point(random, 0.3f);
      moving->second = Aabb{moving->second.min + step, moving->second.max + step};
      (void)tree.move_proxy(moving->first, moving->second, step);
    }
    if (calls % 7 == 0) {  // a jump: reinserted
      auto jumping = live.begin();
      std::advance(jumping, std::uniform_int_distribution<int>(0, int(live.size()) - 1)(random));
      jumping->second = random_box(random, 20.0f);
      (void)tree.move_proxy(jumping->first, jumping->second);
    }
    if (calls % 29 == 0) tree.shift(Vec3(0.5f, -0.25f, 1.0f));
    const bool was_rebuilding = tree.is_rebuilding();
    tree.rebuild_gradually();
    ++calls;
    after += was_rebuilding ? 0 : 1;
    require_exact_answers(tree, live, random, 25.0f, 5);
  }
  CHECK(calls >= 60);  // spread over many calls
}

}  // namespace trisect::testing
