// Broadphase contracts at the edges: layer values that name no layer, pair callbacks that
// throw, static proxies that move onto each other, and displacements that are not finite.
#include <trisect/broadphase/broadphase.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>
#include <vector>

namespace trisect::testing {

TEST_CASE("Broadphase rejects a layer value that names no layer", "[broadphase]") {
  Broadphase broadphase;
  const ProxyId a = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  for (const int value : {2, 255}) {
    const auto layer = static_cast<Layer>(value);
    REQUIRE_THROWS_AS(broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)}, layer), InvalidInput);
    REQUIRE_THROWS_WITH(broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)}, layer),
                        Catch::Contains("layer " + std::to_string(value)));
    REQUIRE_THROWS_AS(broadphase.tree(layer), InvalidInput);
  }
  CHECK(broadphase.size() == 1);
  const ProxyId b = broadphase.create_proxy(Aabb{Vec3(0.5f), Vec3(2.0f)}, Layer::static_layer);
  broadphase.update_pairs();
  CHECK(broadphase.pairs() == (std::vector<ProxyPair>{{a, b}}));
  REQUIRE_NOTHROW(broadphase.tree(Layer::static_layer).validate());
}

TEST_CASE("Broadphase callbacks that throw leave the frame committed", "[broadphase]") {
  Broadphase broadphase;
  std::vector<ProxyId> ids;
  for (int i = 0; i < 4; ++i)  // a chain: i overlaps i + 1
    ids.push_back(broadphase.create_proxy(Aabb{Vec3(float(2 * i)), Vec3(float(2 * i) + 2.5f)}));
  const std::vector<ProxyPair> chain{{0, 1}, {1, 2}, {2, 3}};
  std::vector<ProxyPair> seen;
  const auto throw_at_second = [&](ProxyPair pair) {
    seen.push_back(pair);
    if (seen.size() == 2) throw std::runtime_error("callback");
  };
  const auto never = [](ProxyPair) { FAIL("no pair ends"); };
  REQUIRE_THROWS_AS(broadphase.update(throw_at_second, never), std::runtime_error);
  CHECK(seen == (std::vector<ProxyPair>{{0, 1}, {1, 2}}));  // a prefix, the last one threw
  CHECK(broadphase.began() == chain);                       // the rest is still there
  CHECK(broadphase.pairs() == chain);
  // An end callback that throws: the begin events were all delivered first.
  broadphase.move_proxy(ids[3], Aabb{Vec3(20.0f), Vec3(21.0f)});
  broadphase.destroy_proxy(ids[0]);
  const auto begin_none = [](ProxyPair) { FAIL("no pair begins"); };
  seen.clear();
  REQUIRE_THROWS_AS(broadphase.update(begin_none, throw_at_second), std::runtime_error);
  CHECK(seen == (std::vector<ProxyPair>{{0, 1}, {2, 3}}));
  CHECK(broadphase.ended() == (std::vector<ProxyPair>{{0, 1}, {2, 3}}));
  CHECK(broadphase.pairs() == (std::vector<ProxyPair>{{1, 2}}));
  // The next frame is a new one: nothing is repeated, and the broadphase works on.
  seen.clear();
  broadphase.update([&](ProxyPair pair) { seen.push_back(pair); },
                    [&](ProxyPair pair) { seen.push_back(pair); });
  CHECK(seen.empty());
  broadphase.move_proxy(ids[3], Aabb{Vec3(5.0f), Vec3(7.0f)});
  broadphase.update_pairs();
  CHECK(broadphase.began() == (std::vector<ProxyPair>{{2, 3}}));
  REQUIRE_NOTHROW(broadphase.tree(Layer::dynamic_layer).validate());
}

// A static proxy that moves searches for new pairs like any other; it must still never pair
// with another static proxy, whether it lands on one or one is created on it.
TEST_CASE("Broadphase static proxies moved onto each other do not pair", "[broadphase]") {
  Broadphase broadphase(FatBoxOptions{0.0f, 0.0f});
  const Aabb here{Vec3(0.0f), Vec3(1.0f)};
  const ProxyId wall = broadphase.create_proxy(here, Layer::static_layer);
  const ProxyId door = broadphase.create_proxy(Aabb{Vec3(10.0f), Vec3(11.0f)}, Layer::static_layer);
  const ProxyId body = broadphase.create_proxy(Aabb{Vec3(20.0f), Vec3(21.0f)});
  broadphase.update_pairs();
  CHECK(broadphase.pairs().empty());
  broadphase.move_proxy(door, here, Vec3(-10.0f));
  broadphase.update_pairs();
  CHECK(broadphase.pairs().empty());
  const ProxyId post = broadphase.create_proxy(here, Layer::static_layer);
  broadphase.move_proxy(body, here, Vec3(-20.0f));
  broadphase.update_pairs();
  CHECK(broadphase.pairs() == (std::vector<ProxyPair>{{wall, body}, {door, body}, {body, post}}));
  broadphase.move_proxy(wall, Aabb{Vec3(0.5f), Vec3(2.0f)}, Vec3(0.5f));
  broadphase.update_pairs();
  CHECK(broadphase.began().empty());
  CHECK(broadphase.ended().empty());
}

// Contract 7: a displacement that is not finite throws and changes nothing, in either layer
// and in the tree alone (issue 35, item 9: an infinite one used to be clamped and accepted).
TEST_CASE("Broadphase and DynamicAabbTree refuse a displacement that is not finite",
          "[broadphase]") {
  constexpr float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Vec3 bad[] = {Vec3(inf), Vec3(-inf, 0, 0), Vec3(0, 0, inf), Vec3(nan), Vec3(0, nan, 0)};
  Broadphase broadphase(FatBoxOptions{0.0f, 4.0f});
  const ProxyId moving = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  const ProxyId wall = broadphase.create_proxy(Aabb{Vec3(0.5f), Vec3(2.0f)}, Layer::static_layer);
  broadphase.update_pairs();
  const std::vector<ProxyPair> pairs = broadphase.pairs();
  REQUIRE(pairs == (std::vector<ProxyPair>{{moving, wall}}));
  for (const ProxyId id : {moving, wall}) {
    const Layer layer = id == moving ? Layer::dynamic_layer : Layer::static_layer;
    const DynamicAabbTree& tree = broadphase.tree(layer);
    const ProxyId node = 0;  // each proxy is the only leaf of its layer's tree
    const Aabb box = broadphase.box(id);
    const Aabb fat = tree.fat_box(node);
    for (const Vec3& displacement : bad) {
      const Aabb far{box.min + 100.0f, box.max + 100.0f};
      REQUIRE_THROWS_AS(broadphase.move_proxy(id, far, displacement), InvalidInput);
      REQUIRE_THROWS_WITH(broadphase.move_proxy(id, far, displacement),
                          Catch::Contains("displacement of proxy " + std::to_string(id)));
      CHECK(broadphase.box(id) == box);
      CHECK(tree.fat_box(node) == fat);
      broadphase.update_pairs();
      CHECK(broadphase.began().empty());
      CHECK(broadphase.ended().empty());
      CHECK(broadphase.pairs() == pairs);
      REQUIRE_NOTHROW(broadphase.validate());
    }
  }
  DynamicAabbTree tree(FatBoxOptions{0.0f, 4.0f});
  const ProxyId id = tree.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  for (const Vec3& displacement : bad) {
    REQUIRE_THROWS_AS(tree.move_proxy(id, Aabb{Vec3(5.0f), Vec3(6.0f)}, displacement),
                      InvalidInput);
    CHECK(tree.fat_box(id) == Aabb{Vec3(0.0f), Vec3(1.0f)});
    CHECK(tree.refits_since_rebuild() == 0);
    REQUIRE_NOTHROW(tree.validate());
  }
}

}  // namespace trisect::testing
