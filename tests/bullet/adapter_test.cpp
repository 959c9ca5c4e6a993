// trisect::bullet::BroadphaseAdapter (examples/bullet) against brute force: the pair cache after
// each frame of random creations, moves and destructions (with filters, the static layer and an
// overlap filter callback), and the proxies rayTest and aabbTest visit.
#include "pair_oracle.hpp"
#include "trisect_bullet_broadphase.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btAabbUtil2.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace trisect::bullet {
namespace {

constexpr int static_group = btBroadphaseProxy::StaticFilter;

struct Box {
  btVector3 min, max;
};

// A box on a grid of quarter units, so that many boxes touch exactly (touching counts).
Box grid_box(std::mt19937_64& random) {
  std::uniform_int_distribution<int> cell(-32, 32), half(1, 6);
  const btVector3 centre(0.25f * float(cell(random)), 0.25f * float(cell(random)),
                         0.25f * float(cell(random)));
  const btVector3 extent(0.25f * float(half(random)), 0.25f * float(half(random)),
                         0.25f * float(half(random)));
  return {centre - extent, centre + extent};
}

// A box with its centre uniform in [-10, 10]^3 and half-extents 0.3..1.5.
Box scattered_box(std::mt19937_64& random) {
  std::uniform_real_distribution<float> coordinate(-10.0f, 10.0f), half(0.3f, 1.5f);
  const btVector3 centre(coordinate(random), coordinate(random), coordinate(random));
  const btVector3 extent(half(random), half(random), half(random));
  return {centre - extent, centre + extent};
}

// Filter bits: a fifth of the proxies static (Bullet's StaticFilter group), the others in one or
// two of the groups 1, 4 and 8; masks are any of the four bits, now and then none.
std::pair<int, int> random_filter(std::mt19937_64& random) {
  std::uniform_int_distribution<int> kind(0, 9), bits(0, 15);
  const int dynamic_groups[] = {1, 4, 8, 1 | 4};
  const int group = kind(random) < 2 ? static_group : dynamic_groups[kind(random) % 4];
  return {group, bits(random)};
}

bool has_static_group(const btBroadphaseProxy& proxy) {
  return (proxy.m_collisionFilterGroup & static_group) != 0;
}

// The live proxies of a test, by unique id.
class Proxies {
 public:
  explicit Proxies(BroadphaseAdapter& adapter) : adapter_(adapter) {}

  btBroadphaseProxy* create(const Box& box, int group, int mask, void* client = nullptr) {
    btBroadphaseProxy* proxy =
        adapter_.createProxy(box.min, box.max, BOX_SHAPE_PROXYTYPE, client, group, mask, nullptr);
    REQUIRE(live_.emplace(proxy->m_uniqueId, proxy).second);
    return proxy;
  }

  void destroy(btBroadphaseProxy* proxy) {
    live_.erase(proxy->m_uniqueId);
    adapter_.destroyProxy(proxy, nullptr);
  }

  [[nodiscard]] std::vector<btBroadphaseProxy*> all() const {
    std::vector<btBroadphaseProxy*> proxies;
    for (const auto& [uid, proxy] : live_) proxies.push_back(proxy);
    return proxies;
  }

  [[nodiscard]] btBroadphaseProxy* pick(std::mt19937_64& random) const {
    auto it = live_.begin();
    std::advance(it, std::uniform_int_distribution<std::size_t>(0, live_.size() - 1)(random));
    return it->second;
  }

  [[nodiscard]] std::size_t size() const noexcept { return live_.size(); }

 private:
  BroadphaseAdapter& adapter_;
  std::map<int, btBroadphaseProxy*> live_;
};

// One frame of churn: about a third of the proxies moved (a few far), a few destroyed, a few
// created, and some of those created destroyed again before the frame ends.
void churn(Proxies& proxies, BroadphaseAdapter& adapter, std::mt19937_64& random) {
  std::uniform_int_distribution<int> percent(0, 99);
  for (btBroadphaseProxy* proxy : proxies.all()) {
    const int roll = percent(random);
    if (roll < 30) {
      const btVector3 step(0.25f * float(percent(random) % 3 - 1), 0.25f * float(roll % 3 - 1),
                           0.0f);
      adapter.setAabb(proxy, proxy->m_aabbMin + step, proxy->m_aabbMax + step, nullptr);
    } else if (roll < 33) {
      const Box box = grid_box(random);
      adapter.setAabb(proxy, box.min, box.max, nullptr);
    } else if (roll < 36) {
      proxies.destroy(proxy);
    }
  }
  for (int i = 0; i < 12; ++i) {
    const auto [group, mask] = random_filter(random);
    btBroadphaseProxy* created = proxies.create(grid_box(random), group, mask);
    if (i % 4 == 0) proxies.destroy(created);
  }
}

// No pair in `cache` names the proxy with unique id `uid`.
bool cache_is_free_of(const btOverlappingPairCache& cache, int uid) {
  for (const UidPair& pair : cached_pairs(cache))
    if (pair.first == uid || pair.second == uid) return false;
  return true;
}

// Checks that `cache` holds exactly the pairs brute force finds over `proxies` at `frame`.
void require_brute_force_pairs(Proxies& proxies, const btOverlappingPairCache& cache, int frame) {
  const auto all = proxies.all();
  const PairDifference difference = compare_with_brute_force(all, has_static_group, cache);
  INFO("frame " << frame << ": " << describe(difference));
  REQUIRE(difference.none());
}

TEST_CASE("the pair cache holds exactly the overlapping pairs, frame after frame",
          "[bullet][pairs]") {
  std::mt19937_64 random(7);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  for (int i = 0; i < 400; ++i) {
    const auto [group, mask] = random_filter(random);
    proxies.create(grid_box(random), group, mask);
  }
  for (int frame = 0; frame < 40; ++frame) {
    adapter.calculateOverlappingPairs(nullptr);
    require_brute_force_pairs(proxies, *adapter.getOverlappingPairCache(), frame);
    churn(proxies, adapter, random);
  }
  REQUIRE(!cached_pairs(*adapter.getOverlappingPairCache()).empty());
}

// Boxes creeping by less than a hundredth a frame, each coming to a stop for good at a random
// frame, as bodies in a pile do before they sleep: slow approaches between a moving box and one
// at rest must begin their pairs on the frame the boxes meet.
TEST_CASE("pairs begin when a creeping box reaches one that stopped", "[bullet][pairs]") {
  std::mt19937_64 random(14);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  std::uniform_real_distribution<float> creep(-0.01f, 0.01f);
  std::uniform_int_distribution<int> last_frame(0, 150);
  std::vector<std::pair<btBroadphaseProxy*, btVector3>> movers;  // each with its velocity
  std::vector<int> stops;
  for (int i = 0; i < 600; ++i) {
    const Box box = scattered_box(random);
    const btVector3 velocity(creep(random), creep(random), creep(random));
    movers.emplace_back(proxies.create({0.5f * box.min, 0.5f * box.max}, 1, -1), velocity);
    stops.push_back(last_frame(random));
  }
  for (int frame = 0; frame < 200; ++frame) {
    for (std::size_t i = 0; i < movers.size(); ++i) {
      if (frame > stops[i]) continue;
      auto& [proxy, velocity] = movers[i];
      adapter.setAabb(proxy, proxy->m_aabbMin + velocity, proxy->m_aabbMax + velocity, nullptr);
    }
    adapter.calculateOverlappingPairs(nullptr);
    require_brute_force_pairs(proxies, *adapter.getOverlappingPairCache(), frame);
  }
}

TEST_CASE("a destroyed proxy leaves the pair cache at once", "[bullet][pairs]") {
  std::mt19937_64 random(8);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  for (int i = 0; i < 200; ++i) proxies.create(grid_box(random), 1, -1);
  adapter.calculateOverlappingPairs(nullptr);
  const btOverlappingPairCache& cache = *adapter.getOverlappingPairCache();
  for (int round = 0; round < 20; ++round) {
    btBroadphaseProxy* doomed = proxies.pick(random);
    const int uid = doomed->m_uniqueId;
    const std::size_t pairs_before = cached_pairs(cache).size();
    proxies.destroy(doomed);
    CHECK(cache_is_free_of(cache, uid));
    CHECK(cached_pairs(cache).size() <= pairs_before);
    // A proxy created in the same frame is not paired before the frame ends.
    const btBroadphaseProxy* created = proxies.create(grid_box(random), 1, -1);
    CHECK(cache_is_free_of(cache, created->m_uniqueId));
    if (round % 3 == 0) adapter.calculateOverlappingPairs(nullptr);
  }
  adapter.calculateOverlappingPairs(nullptr);
  const auto all = proxies.all();
  REQUIRE(compare_with_brute_force(all, has_static_group, cache).none());
}

// Accepts a pair when its unique ids' sum is not a multiple of 3, whatever the filter bits (a
// callback replaces Bullet's group and mask rule).
struct SkipThirds : btOverlapFilterCallback {
  bool needBroadphaseCollision(btBroadphaseProxy* a, btBroadphaseProxy* b) const override {
    return (a->m_uniqueId + b->m_uniqueId) % 3 != 0;
  }
};

TEST_CASE("with an overlap filter callback on the cache, the callback alone decides",
          "[bullet][pairs][filter]") {
  std::mt19937_64 random(9);
  btHashedOverlappingPairCache cache;
  BroadphaseAdapter adapter({}, &cache);
  Proxies proxies(adapter);
  for (int i = 0; i < 300; ++i) {
    const auto [group, mask] = random_filter(random);
    proxies.create(grid_box(random), group, mask);
  }
  adapter.calculateOverlappingPairs(nullptr);
  SkipThirds callback;
  cache.setOverlapFilterCallback(&callback);
  // The callback is asked when a pair begins: the pairs already there would stay, so start again
  // with new proxies (made before the next frame takes the callback into account).
  for (btBroadphaseProxy* proxy : proxies.all()) proxies.destroy(proxy);
  for (int i = 0; i < 300; ++i) {
    const auto [group, mask] = random_filter(random);
    proxies.create(grid_box(random), group, mask);
  }
  for (int frame = 0; frame < 20; ++frame) {
    adapter.calculateOverlappingPairs(nullptr);
    require_brute_force_pairs(proxies, cache, frame);
    churn(proxies, adapter, random);
  }
  cache.setOverlapFilterCallback(nullptr);
}

// Accepts every pair but the one it is told to refuse.
struct RefuseOne : btOverlapFilterCallback {
  std::pair<int, int> refused{-1, -1};
  mutable int asked = 0;
  bool needBroadphaseCollision(btBroadphaseProxy* a, btBroadphaseProxy* b) const override {
    ++asked;
    const auto pair = std::minmax(a->m_uniqueId, b->m_uniqueId);
    return std::pair<int, int>(pair) != refused;
  }
};

TEST_CASE("a pair the filter callback refused is asked again once its boxes part and meet",
          "[bullet][pairs][filter]") {
  btHashedOverlappingPairCache cache;
  RefuseOne callback;
  cache.setOverlapFilterCallback(&callback);
  BroadphaseAdapter adapter({}, &cache);
  Proxies proxies(adapter);
  const Box unit{{0, 0, 0}, {1, 1, 1}}, touching{{1, 0, 0}, {2, 1, 1}}, apart{{3, 0, 0}, {4, 1, 1}};
  btBroadphaseProxy* a = proxies.create(unit, 1, -1);
  btBroadphaseProxy* b = proxies.create(touching, 1, -1);
  callback.refused = std::minmax(a->m_uniqueId, b->m_uniqueId);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(callback.asked == 1);
  CHECK(cache.getNumOverlappingPairs() == 0);
  // Parting ends the pair in trisect; the cache, which never held it, is left as it was.
  adapter.setAabb(b, apart.min, apart.max, nullptr);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(cache.getNumOverlappingPairs() == 0);
  callback.refused = {-1, -1};
  adapter.setAabb(b, touching.min, touching.max, nullptr);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(callback.asked == 2);
  REQUIRE(cache.getNumOverlappingPairs() == 1);
  cache.setOverlapFilterCallback(nullptr);
}

TEST_CASE("a filter changed on a proxy is taken over at its next setAabb", "[bullet][filter]") {
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  btBroadphaseProxy* a = proxies.create({{0, 0, 0}, {1, 1, 1}}, 1, 1);
  btBroadphaseProxy* b = proxies.create({{0.5f, 0, 0}, {1.5f, 1, 1}}, 4, 4);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(adapter.getOverlappingPairCache()->getNumOverlappingPairs() == 0);
  a->m_collisionFilterMask = 4;
  b->m_collisionFilterMask = 1;
  adapter.setAabb(a, a->m_aabbMin, a->m_aabbMax, nullptr);
  adapter.setAabb(b, b->m_aabbMin, b->m_aabbMax, nullptr);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(adapter.getOverlappingPairCache()->getNumOverlappingPairs() == 1);
  b->m_collisionFilterMask = 0;
  adapter.setAabb(b, b->m_aabbMin, b->m_aabbMax, nullptr);
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(adapter.getOverlappingPairCache()->getNumOverlappingPairs() == 0);
}

TEST_CASE("static collision objects go to the static layer", "[bullet][layers]") {
  btCollisionObject fixed, moving;  // a btCollisionObject starts static
  moving.setCollisionFlags(0);
  const Box box{{0, 0, 0}, {1, 1, 1}};
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  const btBroadphaseProxy* by_object = proxies.create(box, 1, -1, &fixed);
  const btBroadphaseProxy* by_group = proxies.create(box, static_group, -1);
  const btBroadphaseProxy* dynamic = proxies.create(box, static_group, -1, &moving);
  CHECK(adapter.layer(*by_object) == Layer::static_layer);
  CHECK(adapter.layer(*by_group) == Layer::static_layer);
  CHECK(adapter.layer(*dynamic) == Layer::dynamic_layer);
  // Two static proxies never pair; each pairs with the dynamic one.
  adapter.calculateOverlappingPairs(nullptr);
  CHECK(adapter.getOverlappingPairCache()->getNumOverlappingPairs() == 2);

  BroadphaseAdapter by_groups({.clients_are_collision_objects = false});
  Proxies others(by_groups);
  CHECK(by_groups.layer(*others.create(box, 1, -1, &fixed)) == Layer::dynamic_layer);
  CHECK(by_groups.layer(*others.create(box, static_group, -1, &moving)) == Layer::static_layer);
}

TEST_CASE("getAabb, getBroadphaseAabb and resetPool", "[bullet]") {
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  btVector3 min, max;
  adapter.getBroadphaseAabb(min, max);
  CHECK((min == btVector3(0, 0, 0) && max == btVector3(0, 0, 0)));
  btBroadphaseProxy* a = proxies.create({{0, 0, 0}, {1, 1, 1}}, 1, -1);
  btBroadphaseProxy* b = proxies.create({{-3, 2, 0}, {-2, 5, 0.5f}}, 1, -1);
  adapter.setAabb(a, btVector3(1, 1, 1), btVector3(2, 3, 4), nullptr);
  adapter.getAabb(a, min, max);
  CHECK((min == btVector3(1, 1, 1) && max == btVector3(2, 3, 4)));
  adapter.getBroadphaseAabb(min, max);
  CHECK((min == btVector3(-3, 1, 0) && max == btVector3(2, 5, 4)));
  adapter.resetPool(nullptr);  // proxies left: nothing happens
  CHECK(adapter.broadphase().size() == 2);
  proxies.destroy(a);
  proxies.destroy(b);
  adapter.resetPool(nullptr);
  CHECK(proxies.create({{0, 0, 0}, {1, 1, 1}}, 1, -1)->m_uniqueId == 0);
}

// A ray callback as btCollisionWorld's are: the direction normalised, m_lambda_max the
// segment's length. It records the proxies it is offered; `shorten` makes it a closest-hit
// search that cuts the ray at each offered box's entry.
struct Recorder : btBroadphaseRayCallback {
  Recorder(const btVector3& start, const btVector3& stop) : from(start), to(stop) {
    const btVector3 direction = (to - from).length2() > 0 ? (to - from).normalized() : to - from;
    for (int axis = 0; axis < 3; ++axis) {
      m_rayDirectionInverse[axis] =
          direction[axis] == 0 ? btScalar(BT_LARGE_FLOAT) : 1 / direction[axis];
      m_signs[axis] = m_rayDirectionInverse[axis] < 0;
    }
    m_lambda_max = direction.dot(to - from);
    length = m_lambda_max;
  }

  bool process(const btBroadphaseProxy* proxy) override;

  btVector3 from, to;
  float length;
  bool shorten = false;
  std::vector<int> offered;
  bool offered_beyond_end = false;  // a box offered that the segment as cut then missed
};

// The parameters t in [0, 1] of from + t·(to − from) where the segment is inside the box grown
// by `grow` on every side (shrunk when negative), in double; empty (first > second) when none.
std::pair<double, double> inside(const btVector3& from, const btVector3& to, const Box& box,
                                 double grow) {
  double low = 0, high = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const double start = from[axis], delta = double(to[axis]) - start;
    const double face_low = double(box.min[axis]) - grow, face_high = double(box.max[axis]) + grow;
    if (delta == 0) {
      if (start < face_low || start > face_high) return {1, 0};
      continue;
    }
    double enter = (face_low - start) / delta, leave = (face_high - start) / delta;
    if (enter > leave) std::swap(enter, leave);
    low = std::max(low, enter);
    high = std::min(high, leave);
  }
  return {low, high};
}

bool meets(const btVector3& from, const btVector3& to, const Box& box, double grow,
           double end = 1) {
  const auto [low, high] = inside(from, to, box, grow);
  return low <= high && low <= end;
}

constexpr double slack = 1e-4;  // ties closer than this are left undecided

bool Recorder::process(const btBroadphaseProxy* proxy) {
  offered.push_back(proxy->m_uniqueId);
  const Box box{proxy->m_aabbMin, proxy->m_aabbMax};
  const double end = length > 0 ? m_lambda_max / length : 1;
  if (!meets(from, to, box, slack, end + slack)) offered_beyond_end = true;
  if (shorten) {
    const double entry = inside(from, to, box, 0).first;
    m_lambda_max = std::min(m_lambda_max, float(entry) * length);
  }
  return true;
}

// Offered proxies, sorted; each must be offered once.
std::vector<int> sorted_once(std::vector<int> uids) {
  std::sort(uids.begin(), uids.end());
  CHECK(std::adjacent_find(uids.begin(), uids.end()) == uids.end());
  return uids;
}

// Checks that `offered` holds every proxy whose box, grown to [min − high, max − low], surely
// meets the segment, and none that surely misses it.
void check_offered(const std::vector<btBroadphaseProxy*>& all, const std::vector<int>& offered,
                   const btVector3& from, const btVector3& to, const btVector3& low,
                   const btVector3& high) {
  const std::set<int> seen(offered.begin(), offered.end());
  for (const btBroadphaseProxy* proxy : all) {
    const Box grown{proxy->m_aabbMin - high, proxy->m_aabbMax - low};
    if (meets(from, to, grown, -slack)) CHECK(seen.count(proxy->m_uniqueId) == 1);
    if (!meets(from, to, grown, slack)) CHECK(seen.count(proxy->m_uniqueId) == 0);
  }
}

btVector3 random_point(std::mt19937_64& random, float half) {
  std::uniform_real_distribution<float> coordinate(-half, half);
  return {coordinate(random), coordinate(random), coordinate(random)};
}

// A scene of scattered boxes with filters that pass rayTest (no zero group or mask).
std::vector<btBroadphaseProxy*> scatter(Proxies& proxies, std::mt19937_64& random, int count) {
  for (int i = 0; i < count; ++i) proxies.create(scattered_box(random), i % 5 == 0 ? 2 : 1, -1);
  return proxies.all();
}

TEST_CASE("rayTest offers each proxy whose box the segment meets, once", "[bullet][ray]") {
  std::mt19937_64 random(10);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  const auto all = scatter(proxies, random, 500);
  const btVector3 zero(0, 0, 0);
  for (int test = 0; test < 300; ++test) {
    btVector3 from = random_point(random, 12.0f), to = random_point(random, 12.0f);
    if (test % 10 == 0) to = btVector3(from.x(), from.y(), to.z());  // parallel to an axis
    if (test % 25 == 0) to = from;                                   // a point
    Recorder recorder(from, to);
    adapter.rayTest(from, to, recorder);
    check_offered(all, sorted_once(recorder.offered), from, to, zero, zero);
    CHECK(!recorder.offered_beyond_end);
  }
}

TEST_CASE("rayTest with a cast shape's box offers the proxies the swept box meets",
          "[bullet][ray]") {
  std::mt19937_64 random(11);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  const auto all = scatter(proxies, random, 500);
  std::uniform_real_distribution<float> size(0.0f, 1.0f);
  for (int test = 0; test < 300; ++test) {
    const btVector3 from = random_point(random, 12.0f);
    const btVector3 to = test % 25 == 0 ? from : random_point(random, 12.0f);
    const btVector3 low(-size(random), -size(random), -size(random));
    const btVector3 high(size(random), size(random), size(random));
    Recorder recorder(from, to);
    adapter.rayTest(from, to, recorder, low, high);
    check_offered(all, sorted_once(recorder.offered), from, to, low, high);
  }
}

TEST_CASE("rayTest follows a callback that shortens the ray", "[bullet][ray]") {
  std::mt19937_64 random(12);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  const auto all = scatter(proxies, random, 500);
  int hits = 0;
  for (int test = 0; test < 300; ++test) {
    const btVector3 from = random_point(random, 12.0f), to = random_point(random, 12.0f);
    Recorder recorder(from, to);
    recorder.shorten = true;
    adapter.rayTest(from, to, recorder);
    double nearest = 2;
    for (const btBroadphaseProxy* proxy : all) {
      const auto [low, high] = inside(from, to, {proxy->m_aabbMin, proxy->m_aabbMax}, 0);
      if (low <= high) nearest = std::min(nearest, low);
    }
    CHECK(!recorder.offered_beyond_end);
    if (nearest > 1) continue;
    ++hits;
    CHECK(recorder.m_lambda_max / recorder.length == Approx(nearest).margin(slack));
  }
  CHECK(hits > 50);
}

// Records the proxies an aabbTest offers.
struct BoxRecorder : btBroadphaseAabbCallback {
  std::vector<int> offered;
  bool process(const btBroadphaseProxy* proxy) override {
    offered.push_back(proxy->m_uniqueId);
    return true;
  }
};

TEST_CASE("aabbTest offers exactly the proxies whose boxes meet the box", "[bullet][box]") {
  std::mt19937_64 random(13);
  BroadphaseAdapter adapter;
  Proxies proxies(adapter);
  for (int i = 0; i < 400; ++i) {
    const auto [group, mask] = random_filter(random);
    proxies.create(grid_box(random), group, mask);  // every filter: aabbTest ignores them
  }
  const auto all = proxies.all();
  for (int test = 0; test < 200; ++test) {
    const Box query = grid_box(random);
    BoxRecorder recorder;
    adapter.aabbTest(query.min, query.max, recorder);
    std::vector<int> expected;
    for (const btBroadphaseProxy* proxy : all)
      if (TestAabbAgainstAabb2(proxy->m_aabbMin, proxy->m_aabbMax, query.min, query.max))
        expected.push_back(proxy->m_uniqueId);
    REQUIRE(sorted_once(recorder.offered) == expected);
  }
  BoxRecorder none;
  adapter.aabbTest(btVector3(1, 1, 1), btVector3(0, 0, 0), none);  // min above max: empty
  CHECK(none.offered.empty());
}

}  // namespace
}  // namespace trisect::bullet
