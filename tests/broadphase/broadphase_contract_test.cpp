// Broadphase contracts at the edges: layer values that name no layer, pair callbacks that
// throw, and static proxies that move onto each other.
#include <trisect/broadphase/broadphase.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

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

}  // namespace trisect::testing
