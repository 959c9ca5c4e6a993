// Proxies created and destroyed in batches (`DynamicAabbTree::create_proxies`,
// `Broadphase::create_proxies`, the `destroy_proxies` of both): the tree stays valid and as low
// as promised, queries see every proxy at once, bad batches change nothing, and a broadphase
// gives the same ids and events as for the same calls one at a time.
#include "broadphase/random_boxes.hpp"
#include "broadphase/tree_answer.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <vector>

namespace trisect::testing {
namespace {

// Checks the tree's invariants, that each proxy's fat box holds its box, and the tree's answers
// to random box queries against brute force.
void require_exact(const DynamicAabbTree& tree, const std::map<ProxyId, Aabb>& boxes,
                   std::mt19937_64& random, float side) {
  REQUIRE(tree.size() == boxes.size());
  for (const auto& [id, box] : boxes) REQUIRE(tree.fat_box(id).contains(box));
  require_exact_answers(tree, boxes, random, side, 20);
}

std::vector<Aabb> random_boxes(std::mt19937_64& random, int count, float side) {
  std::vector<Aabb> boxes;
  for (int i = 0; i < count; ++i) boxes.push_back(random_awkward_box(random, side));
  return boxes;
}

// Records each batch proxy's box by its id.
void record(std::map<ProxyId, Aabb>& live, const std::vector<ProxyId>& ids,
            const std::vector<Aabb>& boxes) {
  REQUIRE(ids.size() == boxes.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    REQUIRE(live.count(ids[i]) == 0);
    live[ids[i]] = boxes[i];
  }
}

// A tree (fat-box margin 0.05, multiplier 2) of a batch of `count` random boxes, recorded in
// `live`.
DynamicAabbTree batch_tree(std::mt19937_64& random, int count, std::map<ProxyId, Aabb>& live) {
  DynamicAabbTree tree(FatBoxOptions{0.05f, 2.0f});
  const std::vector<Aabb> boxes = random_boxes(random, count, 20.0f);
  record(live, tree.create_proxies(boxes), boxes);
  return tree;
}

// ceil(log2(count)): the height of the lowest binary tree over `count` leaves.
int lowest_height(std::size_t count) {
  return count <= 1 ? 0 : static_cast<int>(std::bit_width(count - 1));
}

}  // namespace

TEST_CASE("A batch into an empty tree is as low as a binary tree can be", "[broadphase]") {
  std::mt19937_64 random(5);
  for (const int count : {1, 2, 3, 7, 8, 9, 100, 1000, 4097}) {
    DynamicAabbTree tree(FatBoxOptions{0.05f, 2.0f});
    const std::vector<Aabb> boxes = random_boxes(random, count, 30.0f);
    std::vector<NewProxy> proxies;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      proxies.push_back(
          {boxes[i], 1000 + i, i % 3 == 0 ? std::optional(FatMargin{0.5f, 0}) : std::nullopt});
    const std::vector<ProxyId> ids = tree.create_proxies(proxies);
    std::map<ProxyId, Aabb> live;
    record(live, ids, boxes);
    CHECK(tree.height() == lowest_height(std::size_t(count)));
    require_exact(tree, live, random, 30.0f);
    // Each proxy as `create_proxy` would have made it: the same fat box, value and margin.
    DynamicAabbTree single(FatBoxOptions{0.05f, 2.0f});
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const ProxyId id = proxies[i].margin
                             ? single.create_proxy(boxes[i], 1000 + i, *proxies[i].margin)
                             : single.create_proxy(boxes[i], 1000 + i);
      REQUIRE(tree.fat_box(ids[i]) == single.fat_box(id));
      REQUIRE(tree.user_data(ids[i]) == 1000 + i);
      REQUIRE(tree.margin(ids[i]).absolute == single.margin(id).absolute);
    }
  }
}

TEST_CASE("A batch joins a populated tree whole, keeping the height bound", "[broadphase]") {
  std::mt19937_64 random(17);
  struct Case {
    int existing, batch;
    float batch_offset;  // the batch's boxes far from the tree's, or among them
  };
  for (const Case c : {Case{1000, 10, 0}, Case{10, 1000, 0}, Case{1000, 1000, 0},
                       Case{2000, 300, 500.0f}, Case{300, 2000, -500.0f}, Case{1, 1, 0}}) {
    DynamicAabbTree tree(FatBoxOptions{0.05f, 2.0f});
    std::map<ProxyId, Aabb> live;
    for (const Aabb& box : random_boxes(random, c.existing, 30.0f))
      live[tree.create_proxy(box)] = box;
    std::vector<Aabb> boxes = random_boxes(random, c.batch, 30.0f);
    for (Aabb& box : boxes)
      box = Aabb{box.min + Vec3(c.batch_offset), box.max + Vec3(c.batch_offset)};
    record(live, tree.create_proxies(boxes), boxes);
    CHECK(tree.height() <= 2.0 * std::log2(double(tree.size())) + 1e-9);
    require_exact(tree, live, random, 30.0f);
    require_exact(tree, live, random, 1100.0f);
    // A batch of a tenth of the proxies or more starts a gradual rebuild, which ends exact.
    if (c.existing > 1 && 10 * c.batch >= c.existing + c.batch) {
      tree.rebuild_gradually();
      REQUIRE(tree.is_rebuilding());
      while (tree.is_rebuilding()) tree.rebuild_gradually();
      require_exact(tree, live, random, 30.0f);
    }
  }
}

TEST_CASE("Batches during a gradual rebuild keep the tree exact until it ends", "[broadphase]") {
  std::mt19937_64 random(23);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree tree = batch_tree(random, 500, live);
  while (!tree.is_rebuilding()) {  // move every proxy a little until a rebuild starts
    for (auto& [id, box] : live) {
      const Vec3 step = random_point(random, 0.4f);
      box = Aabb{box.min + step, box.max + step};
      (void)tree.move_proxy(id, box, step);
    }
    tree.rebuild_gradually();
  }
  int calls = 0;
  while (tree.is_rebuilding()) {
    const std::vector<Aabb> boxes = random_boxes(random, 40, 20.0f);
    record(live, tree.create_proxies(boxes), boxes);
    std::vector<ProxyId> leaving;
    std::size_t place = 0;  // every seventh live proxy, 30 at most
    for (auto it = live.begin(); it != live.end() && leaving.size() < 30; ++it, ++place)
      if (place % 7 == 0) leaving.push_back(it->first);
    tree.destroy_proxies(leaving);
    for (const ProxyId id : leaving) live.erase(id);
    require_exact(tree, live, random, 25.0f);
    tree.rebuild_gradually();
    ++calls;
  }
  CHECK(calls >= 2);
  require_exact(tree, live, random, 25.0f);
}

TEST_CASE("A bad batch changes nothing and names the culprit's index", "[broadphase]") {
  std::mt19937_64 random(31);
  std::map<ProxyId, Aabb> live;
  DynamicAabbTree tree = batch_tree(random, 200, live);
  const double cost = tree.sah_cost();
  std::vector<Aabb> boxes = random_boxes(random, 10, 20.0f);
  boxes[6].min.y = std::nanf("");
  REQUIRE_THROWS_WITH(tree.create_proxies(boxes), Catch::Contains("proxy 6 of the batch"));
  boxes[6] = Aabb{Vec3(1.0f), Vec3(0.0f)};  // min > max
  REQUIRE_THROWS_AS(tree.create_proxies(boxes), InvalidInput);
  std::vector<NewProxy> proxies(3, NewProxy{Aabb{Vec3(0.0f), Vec3(1.0f)}});
  proxies[2].margin = FatMargin{-1.0f, 0.0f};
  REQUIRE_THROWS_WITH(tree.create_proxies(proxies), Catch::Contains("proxy 2 of the batch"));
  const ProxyId some = live.begin()->first, other = std::next(live.begin())->first;
  const std::vector<ProxyId> repeated{some, other, some};
  REQUIRE_THROWS_WITH(tree.destroy_proxies(repeated), Catch::Contains("index 2"));
  const std::vector<ProxyId> unknown{some, 999999};
  REQUIRE_THROWS_WITH(tree.destroy_proxies(unknown), Catch::Contains("index 1"));
  CHECK(tree.sah_cost() == cost);
  require_exact(tree, live, random, 20.0f);
  CHECK(tree.create_proxies(std::span<const Aabb>{}).empty());
  tree.destroy_proxies({});
  require_exact(tree, live, random, 20.0f);
}

namespace {

// The frame's events and pairs of a broadphase, to compare two of them.
struct Frame {
  std::vector<ProxyPair> began, ended, pairs;
  std::vector<PairKind> kinds;
  bool operator==(const Frame&) const = default;
};

Frame update(Broadphase& broadphase) {
  broadphase.update_pairs();
  return {broadphase.began(), broadphase.ended(), broadphase.pairs(), broadphase.pair_kinds()};
}

}  // namespace

TEST_CASE("Broadphase batches give the ids and events of the same calls one at a time",
          "[broadphase]") {
  std::mt19937_64 random(37);
  Broadphase batched, single;
  for (int round = 0; round < 4; ++round) {
    const std::vector<Aabb> boxes = random_boxes(random, 300, 25.0f);
    std::vector<ProxyOptions> options(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      options[i].layer = i % 4 == 0 ? Layer::static_layer : Layer::dynamic_layer;
      options[i].filter = ProxyFilter{1u << (i % 3), i % 5 == 0 ? 1u : ~0u};
      options[i].user_data = i * 10;
      options[i].sensor = i % 11 == 0;
      if (i % 7 == 0) options[i].margin = FatMargin{0.3f, 0.0f};
    }
    const std::vector<ProxyId> ids = batched.create_proxies(boxes, options);
    for (std::size_t i = 0; i < boxes.size(); ++i)
      REQUIRE(single.create_proxy(boxes[i], options[i]) == ids[i]);
    REQUIRE(update(batched) == update(single));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      REQUIRE(batched.layer(ids[i]) == options[i].layer);
      REQUIRE(batched.user_data(ids[i]) == options[i].user_data);
      REQUIRE(batched.is_sensor(ids[i]) == options[i].sensor);
    }
    // Some leave, in an order of their own, so that the reused ids' order matters next round.
    std::vector<ProxyId> leaving;
    for (std::size_t i = 0; i < ids.size(); i += 3) leaving.push_back(ids[ids.size() - 1 - i]);
    batched.destroy_proxies(leaving);
    for (const ProxyId id : leaving) single.destroy_proxy(id);
    REQUIRE(update(batched) == update(single));
    REQUIRE_NOTHROW(batched.validate());
  }
  // One options for the whole batch.
  const std::vector<Aabb> boxes = random_boxes(random, 50, 25.0f);
  const ProxyOptions shared{Layer::static_layer, ProxyFilter{2, ~0u}, 7};
  const std::vector<ProxyId> ids = batched.create_proxies(boxes, shared);
  for (std::size_t i = 0; i < boxes.size(); ++i)
    REQUIRE(single.create_proxy(boxes[i], shared) == ids[i]);
  REQUIRE(update(batched) == update(single));
}

TEST_CASE("A bad broadphase batch changes nothing", "[broadphase]") {
  std::mt19937_64 random(41);
  Broadphase broadphase;
  const std::vector<Aabb> first = random_boxes(random, 100, 20.0f);
  const std::vector<ProxyId> ids = broadphase.create_proxies(first);
  broadphase.update_pairs();
  const std::vector<ProxyPair> pairs = broadphase.pairs();
  std::vector<Aabb> boxes = random_boxes(random, 5, 20.0f);
  std::vector<ProxyOptions> options(5);
  options[3].layer = static_cast<Layer>(2);
  REQUIRE_THROWS_WITH(broadphase.create_proxies(boxes, options),
                      Catch::Contains("proxy 3 of the batch"));
  options[3].layer = Layer::static_layer;
  boxes[4].max.x = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(broadphase.create_proxies(boxes, options),
                      Catch::Contains("proxy 4 of the batch"));
  REQUIRE_THROWS_AS(broadphase.create_proxies(boxes, std::span(options).first(4)), InvalidInput);
  const std::vector<ProxyId> repeated{ids[0], ids[1], ids[0]};
  REQUIRE_THROWS_WITH(broadphase.destroy_proxies(repeated), Catch::Contains("index 2"));
  CHECK(broadphase.size() == first.size());
  broadphase.update_pairs();
  CHECK(broadphase.began().empty());
  CHECK(broadphase.ended().empty());
  CHECK(broadphase.pairs() == pairs);
  REQUIRE_NOTHROW(broadphase.validate());
  // The ids the failed batches would have taken are still the next ones.
  CHECK(broadphase.create_proxy(first[0]) == ProxyId(first.size()));
}

}  // namespace trisect::testing
