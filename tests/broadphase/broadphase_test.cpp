#include "broadphase/random_boxes.hpp"
#include "broadphase/ray_box_oracle.hpp"
#include "support/exact_oracle.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/math/validate.hpp>

#include <glm/geometric.hpp>

#include <tbb/task_arena.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <thread>
#include <vector>

namespace trisect::testing {
namespace {

struct ModelProxy {
  Aabb box;
  Layer layer;
  ProxyFilter filter;
  bool sensor = false;
};

using Model = std::map<ProxyId, ModelProxy>;

// The O(n^2) oracle: every pair of live proxies, not both static, passing the filter, whose
// closed boxes overlap.
std::vector<ProxyPair> brute_force_pairs(const Model& model) {
  std::vector<ProxyPair> pairs;
  for (auto a = model.begin(); a != model.end(); ++a)
    for (auto b = std::next(a); b != model.end(); ++b) {
      const ModelProxy& p = a->second;
      const ModelProxy& q = b->second;
      if (p.layer == Layer::static_layer && q.layer == Layer::static_layer) continue;
      if ((p.filter.group & q.filter.mask) == 0 || (q.filter.group & p.filter.mask) == 0) continue;
      if (p.box.overlaps(q.box)) pairs.push_back({a->first, b->first});
    }
  return pairs;
}

std::vector<ProxyPair> difference(const std::vector<ProxyPair>& a,
                                  const std::vector<ProxyPair>& b) {
  std::vector<ProxyPair> result;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(result));
  return result;
}

ProxyFilter random_filter(std::mt19937_64& random) {
  const int kind = std::uniform_int_distribution<int>(0, 5)(random);
  if (kind == 0) return {2u, ~2u};  // group 2 never pairs with group 2
  if (kind == 1) return {4u, 1u};   // group 4 pairs with group 1 only
  return {};
}

// The broadphase's default, or a margin of its own (none, absolute, relative or both).
std::optional<FatMargin> random_margin(std::mt19937_64& random) {
  switch (std::uniform_int_distribution<int>(0, 4)(random)) {
    case 0:
      return FatMargin{0.0f, 0.0f};
    case 1:
      return FatMargin{0.3f, 0.0f};
    case 2:
      return FatMargin{0.0f, 0.5f};
    case 3:
      return FatMargin{0.01f, 0.02f};
    default:
      return std::nullopt;
  }
}

// The kind the broadphase must give the pair of `model`'s proxies.
PairKind expected_kind(const Model& model, const ProxyPair& pair) {
  return model.at(pair.first).sensor || model.at(pair.second).sensor ? PairKind::sensor
                                                                     : PairKind::contact;
}

ProxyId pick(std::mt19937_64& random, const Model& model) {
  auto index = std::uniform_int_distribution<std::ptrdiff_t>(0, std::ssize(model) - 1);
  return std::next(model.begin(), index(random))->first;
}

// One random frame: creations, destructions and moves (small steps, some teleports, a static
// proxy now and then), applied to the broadphase and the model alike.
void random_frame(std::mt19937_64& random, Broadphase& broadphase, Model& model, float side,
                  int changes) {
  for (int change = 0; change < changes; ++change) {
    const int action = std::uniform_int_distribution<int>(0, 19)(random);
    if (model.size() < 4 || action < 2) {
      const Layer layer = action == 0 ? Layer::static_layer : Layer::dynamic_layer;
      const bool sensor = std::uniform_int_distribution<int>(0, 7)(random) == 0;
      const ModelProxy proxy{random_awkward_box(random, side), layer, random_filter(random),
                             sensor};
      const std::uint64_t user_data = random();
      const ProxyId id = broadphase.create_proxy(
          proxy.box,
          ProxyOptions{proxy.layer, proxy.filter, user_data, random_margin(random), proxy.sensor});
      REQUIRE(broadphase.user_data(id) == user_data);
      REQUIRE(broadphase.is_sensor(id) == sensor);
      REQUIRE(model.count(id) == 0);
      model[id] = proxy;
    } else if (action < 4) {
      const ProxyId id = pick(random, model);
      broadphase.destroy_proxy(id);
      model.erase(id);
    } else if (action == 7) {  // a new margin: the pairs stay as they are
      const ProxyId id = pick(random, model);
      const std::optional<FatMargin> margin = random_margin(random);
      broadphase.set_margin(id, margin.value_or(FatMargin{}));
      REQUIRE(broadphase.margin(id) == margin.value_or(FatMargin{}));
    } else if (action == 5) {  // a new filter in place
      const ProxyId id = pick(random, model);
      model[id].filter = random_filter(random);
      broadphase.set_filter(id, model[id].filter);
    } else if (action == 6 && std::uniform_int_distribution<int>(0, 3)(random) == 0) {
      const ProxyId id = pick(random, model);  // to the other layer, or the same one
      model[id].layer = std::uniform_int_distribution<int>(0, 1)(random) == 0
                            ? Layer::static_layer
                            : Layer::dynamic_layer;
      broadphase.set_layer(id, model[id].layer);
    } else {
      const ProxyId id = pick(random, model);
      ModelProxy& proxy = model[id];
      const bool teleport = action == 4;
      const Vec3 step = teleport ? random_point(random, side) : random_point(random, 0.2f);
      proxy.box = teleport ? random_awkward_box(random, side)
                           : Aabb{proxy.box.min + step, proxy.box.max + step};
      broadphase.move_proxy(id, proxy.box, step);
    }
  }
}

struct FrameLog {
  std::vector<ProxyPair> began, ended;
  std::vector<PairKind> began_kinds, ended_kinds;
  friend bool operator==(const FrameLog&, const FrameLog&) = default;
};

FrameLog update_logged(Broadphase& broadphase) {
  FrameLog log;
  broadphase.update(
      [&](ProxyPair pair, PairKind kind) {
        log.began.push_back(pair);
        log.began_kinds.push_back(kind);
      },
      [&](ProxyPair pair, PairKind kind) {
        log.ended.push_back(pair);
        log.ended_kinds.push_back(kind);
      });
  REQUIRE(broadphase.began_kinds() == log.began_kinds);
  REQUIRE(broadphase.ended_kinds() == log.ended_kinds);
  return log;
}

// The kinds of `pairs` as `model` gives them.
std::vector<PairKind> kinds_of(const Model& model, const std::vector<ProxyPair>& pairs) {
  std::vector<PairKind> kinds;
  for (const ProxyPair& pair : pairs) kinds.push_back(expected_kind(model, pair));
  return kinds;
}

// The logs that `frames(logs)` collects when run in a TBB arena of `threads` threads.
template <class Frames>
std::vector<FrameLog> logs_with_threads(int threads, const Frames& frames) {
  std::vector<FrameLog> logs;
  tbb::task_arena arena(threads);
  arena.execute([&] { frames(logs); });
  return logs;
}

// `frames` logs the same events with 1, 2 and 4 threads.
template <class Frames>
void check_same_for_thread_counts(const Frames& frames) {
  const std::vector<FrameLog> one = logs_with_threads(1, frames);
  CHECK(one == logs_with_threads(2, frames));
  CHECK(one == logs_with_threads(4, frames));
}

// Ends the frame and checks its pairs and events against brute force over `model`, given the
// pairs of the frame before in `previous`, which become this frame's; returns its events.
FrameLog require_brute_force_frame(Broadphase& broadphase, const Model& model,
                                   std::vector<ProxyPair>& previous) {
  const FrameLog log = update_logged(broadphase);
  const std::vector<ProxyPair> expected = brute_force_pairs(model);
  REQUIRE(broadphase.pairs() == expected);
  REQUIRE(log.began == difference(expected, previous));
  REQUIRE(log.ended == difference(previous, expected));
  previous = expected;
  return log;
}

}  // namespace

TEST_CASE("Broadphase stays exact for a resting pile that jitters within its slacks",
          "[broadphase]") {
  // Unit boxes on a 10 x 10 grid whose neighbours overlap a little, touch, or stand a little
  // apart (gaps from below to above the jitter), jittering about their rest positions; now and
  // then one is pushed into its neighbour and back, or dragged away for a while. After frame
  // 100 a third stop where they are (no more moves), leaning a little towards the neighbour
  // that then creeps into them.
  std::mt19937_64 random(71);
  Broadphase broadphase(FatBoxOptions{0.05f, 4.0f});
  Model model;
  std::vector<Vec3> rest;
  const float spacings[] = {0.99f, 1.0f, 1.001f, 1.004f, 1.02f};
  std::vector<ProxyId> ids;
  float x = 0;
  for (int i = 0; i < 10; ++i, x += spacings[std::uniform_int_distribution<int>(0, 4)(random)]) {
    float y = 0;
    for (int j = 0; j < 10; ++j, y += spacings[std::uniform_int_distribution<int>(0, 4)(random)]) {
      rest.emplace_back(x, y, 0.0f);
      const Aabb box{rest.back(), rest.back() + Vec3(1.0f)};
      ids.push_back(broadphase.create_proxy(box));
      model[ids.back()] = {box, Layer::dynamic_layer, ProxyFilter{}};
    }
  }
  std::vector<ProxyPair> previous;
  std::uniform_real_distribution<float> jitter(-0.002f, 0.002f);
  for (int frame = 0; frame < 400; ++frame) {
    const std::size_t pushed = frame % 25 < 5 ? std::size_t(frame / 25 * 7 % 100) : 100;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (k % 3 == 0 && frame >= 100) continue;        // stopped where it was: never moved again
      const bool creeps = k % 3 == 2 && frame >= 100;  // into the stopped one, steadily
      if (creeps) rest[k].y += 0.0003f;
      Vec3 at = rest[k];
      if (!creeps) at += Vec3(jitter(random), jitter(random), jitter(random));
      if (k % 3 == 0 && frame == 99) at.y = rest[k].y - 0.0019f;  // stops leaning towards it
      if (k == pushed)
        at += Vec3(frame % 25 == 2 ? 0.5f : 0.03f, frame % 50 < 25 ? 0.01f : -0.03f, 0);
      const Aabb box{at, at + Vec3(1.0f)};
      broadphase.move_proxy(ids[k], box, box.min - model[ids[k]].box.min);
      model[ids[k]].box = box;
    }
    INFO("frame " << frame);
    (void)require_brute_force_frame(broadphase, model, previous);
    REQUIRE_NOTHROW(broadphase.validate());
  }
}

TEST_CASE("Broadphase stays exact when creeping boxes stop one by one", "[broadphase]") {
  // Slow steady motions, each box stopping for good at a frame of its own: a stopped box is
  // never moved again, so its slack must hold the box where it stopped, whatever comes to it.
  for (const std::uint64_t seed : {14u, 15u}) {
    std::mt19937_64 random(seed);
    Broadphase broadphase;
    Model model;
    std::vector<std::pair<ProxyId, Vec3>> movers;  // each with its velocity
    std::vector<int> stops;
    std::uniform_real_distribution<float> creep(-0.01f, 0.01f);
    for (int i = 0; i < 600; ++i) {
      const Aabb box = random_box(random, 30.0f);
      movers.emplace_back(broadphase.create_proxy(box),
                          Vec3(creep(random), creep(random), creep(random)));
      model[movers.back().first] = {box, Layer::dynamic_layer, ProxyFilter{}};
      stops.push_back(std::uniform_int_distribution<int>(0, 150)(random));
    }
    std::vector<ProxyPair> previous;
    for (int frame = 0; frame < 200; ++frame) {
      for (std::size_t i = 0; i < movers.size(); ++i) {
        if (frame > stops[i]) continue;
        const auto& [id, velocity] = movers[i];
        Aabb& box = model[id].box;
        box = Aabb{box.min + velocity, box.max + velocity};
        broadphase.move_proxy(id, box, velocity);
      }
      INFO("seed " << seed << " frame " << frame);
      (void)require_brute_force_frame(broadphase, model, previous);
    }
    REQUIRE_NOTHROW(broadphase.validate());
  }
}

TEST_CASE("Broadphase pairs and events match brute force over random frames", "[broadphase]") {
  // Seeds 1 to 3 change about a quarter of the proxies a frame, 4 and 5 about 2%: the frames
  // decide the changed pairs in one pass over all of them, and by the changed proxies' lists.
  for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    std::mt19937_64 random(seed);
    Broadphase broadphase(FatBoxOptions{seed == 3 ? 0.0f : 0.1f, 4.0f});
    Model model, previous_model;
    std::vector<ProxyPair> previous;
    const int first_changes = seed <= 3 ? 150 : 400, changes = seed <= 3 ? 40 : 8;
    for (int frame = 0; frame < 300; ++frame) {
      random_frame(random, broadphase, model, 12.0f, frame == 0 ? first_changes : changes);
      const FrameLog log = update_logged(broadphase);
      const std::vector<ProxyPair> expected = brute_force_pairs(model);
      INFO("seed " << seed << " frame " << frame << " proxies " << model.size());
      REQUIRE(broadphase.pairs() == expected);
      REQUIRE(log.began == difference(expected, previous));
      REQUIRE(log.ended == difference(previous, expected));
      // A pair's kind is its proxies' sensor flags, which are fixed at their creation: the
      // ended pairs' kinds are those of the proxies they had then.
      REQUIRE(log.began_kinds == kinds_of(model, log.began));
      REQUIRE(log.ended_kinds == kinds_of(previous_model, log.ended));
      REQUIRE(broadphase.pair_kinds() == kinds_of(model, expected));
      previous_model = model;
      REQUIRE(broadphase.began() == log.began);
      REQUIRE(broadphase.size() == model.size());
      REQUIRE_NOTHROW(broadphase.validate());  // both trees, and fat boxes hold the boxes
      previous = expected;
    }
  }
}

// Every proxy drifts every frame, as bodies do: most new fat boxes are refitted in place, the
// trees are rebuilt gradually, and whole when one frame's refits reach half their proxies
// (Broadphase::update).
TEST_CASE("Broadphase stays exact while every proxy moves every frame", "[broadphase]") {
  const auto frames = [](std::vector<FrameLog>& logs) {
    std::mt19937_64 random(23);
    Broadphase broadphase(FatBoxOptions{0.05f, 8.0f});
    Model model;
    std::vector<Vec3> velocities;
    for (int i = 0; i < 400; ++i) {
      const Layer layer = i % 20 == 0 ? Layer::static_layer : Layer::dynamic_layer;
      const ModelProxy proxy{random_box(random, 30.0f), layer, random_filter(random)};
      model[broadphase.create_proxy(proxy.box, proxy.layer, proxy.filter)] = proxy;
      velocities.push_back(random_point(random, 0.1f));
    }
    std::vector<ProxyPair> previous;
    std::size_t most_refits = 0, refits_before = 0;
    int whole_rebuilds = 0;
    for (int frame = 0; frame < 200; ++frame) {
      for (auto& [id, proxy] : model) {
        const Vec3 step = velocities[id] * (frame % 50 < 25 ? 1.0f : -1.0f);
        proxy.box = Aabb{proxy.box.min + step, proxy.box.max + step};
        broadphase.move_proxy(id, proxy.box, step);
      }
      INFO("frame " << frame);
      const DynamicAabbTree& tree = broadphase.tree(Layer::dynamic_layer);
      const std::size_t refits = tree.refits_since_rebuild();
      const std::size_t this_frame = refits >= refits_before ? refits - refits_before : refits;
      const FrameLog log = require_brute_force_frame(broadphase, model, previous);
      REQUIRE_NOTHROW(tree.validate());
      REQUIRE_NOTHROW(broadphase.tree(Layer::static_layer).validate());
      // a frame that refitted half the proxies or more ends with the tree rebuilt whole
      if (double(this_frame) >= Broadphase::rebuild_after_refits * double(tree.size())) {
        REQUIRE(tree.refits_since_rebuild() == 0);
        ++whole_rebuilds;
      }
      refits_before = tree.refits_since_rebuild();
      most_refits = std::max(most_refits, this_frame);
      logs.push_back(log);
    }
    CHECK(most_refits > 0);      // the in-place path ran
    CHECK(whole_rebuilds < 10);  // the first frames' waves, not every frame
  };
  check_same_for_thread_counts(frames);
}

TEST_CASE("Broadphase box query matches brute force", "[broadphase]") {
  std::mt19937_64 random(9);
  Broadphase broadphase;
  Model model;
  random_frame(random, broadphase, model, 12.0f, 300);
  for (int q = 0; q < 100; ++q) {
    const Aabb query = random_awkward_box(random, 12.0f);
    std::vector<ProxyId> answer, expected;
    (void)broadphase.query(query, [&](ProxyId id) {
      answer.push_back(id);
      return true;
    });
    std::sort(answer.begin(), answer.end());
    for (const auto& [id, proxy] : model)
      if (proxy.box.overlaps(query)) expected.push_back(id);
    REQUIRE(answer == expected);
  }
}

// A query filter drawn from the filters `random_filter` gives, with one layer or both.
ProxyQueryFilter random_query_filter(std::mt19937_64& random) {
  const ProxyFilter filter = random_filter(random);
  const int layers = std::uniform_int_distribution<int>(0, 2)(random);
  return {layers != 1, layers != 2, filter.group, filter.mask};
}

// The ids a filtered query reports, sorted.
template <class Shape>
std::vector<ProxyId> filtered_answer(const Broadphase& broadphase, const Shape& shape,
                                     const ProxyQueryFilter& filter) {
  std::vector<ProxyId> answer;
  (void)broadphase.query(shape, filter, [&](ProxyId id) {
    answer.push_back(id);
    return true;
  });
  std::sort(answer.begin(), answer.end());
  return answer;
}

// The ball meets the closed box, in rationals: the squared distance from the centre to the box.
bool exact_ball_meets_box(const Sphere& ball, const Aabb& box) {
  mpq_class squared = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const mpq_class c = oracle::rational(ball.center[axis]);
    const mpq_class low = oracle::rational(box.min[axis]), high = oracle::rational(box.max[axis]);
    const mpq_class gap = c < low ? low - c : (c > high ? c - high : mpq_class(0));
    squared += gap * gap;
  }
  return squared <= oracle::rational(ball.radius) * oracle::rational(ball.radius);
}

TEST_CASE("Broadphase filtered box, point, ball and ray queries match brute force",
          "[broadphase]") {
  std::mt19937_64 random(19);
  Broadphase broadphase;
  Model model;
  for (int frame = 0; frame < 4; ++frame) {
    random_frame(random, broadphase, model, 12.0f, frame == 0 ? 300 : 60);
    broadphase.update_pairs();
    for (int q = 0; q < 100; ++q) {
      const ProxyQueryFilter filter = random_query_filter(random);
      const auto expected = [&](auto&& meets) {
        std::vector<ProxyId> ids;
        for (const auto& [id, proxy] : model)
          if (filter.passes(proxy.layer, proxy.filter) && meets(proxy.box)) ids.push_back(id);
        return ids;
      };
      const Aabb box = random_awkward_box(random, 12.0f);
      REQUIRE(filtered_answer(broadphase, box, filter) ==
              expected([&](const Aabb& b) { return b.overlaps(box); }));
      // A point on a corner of a proxy's box, or anywhere.
      const Aabb& some = model.begin()->second.box;
      const Vec3 point = q % 2 == 0 ? some.max : random_point(random, 12.0f);
      REQUIRE(filtered_answer(broadphase, point, filter) ==
              expected([&](const Aabb& b) { return b.contains(point); }));
      // A ball about tangent to a proxy's corner, or of random size.
      const Vec3 centre = random_point(random, 12.0f);
      const float radius = q % 3 == 0 ? glm::length(some.min - centre)
                                      : std::uniform_real_distribution<float>(0, 4)(random);
      const Sphere ball{centre, radius};
      REQUIRE(filtered_answer(broadphase, ball, filter) ==
              expected([&](const Aabb& b) { return exact_ball_meets_box(ball, b); }));
      Ray ray{random_point(random, 12.0f), random_point(random, 1.0f)};
      if (ray.direction == Vec3(0.0f)) continue;
      ray.t_max = std::uniform_real_distribution<float>(0, 30)(random);
      REQUIRE(filtered_answer(broadphase, ray, filter) ==
              expected([&](const Aabb& b) { return exact_ray_meets_box(ray, b); }));
    }
  }
  CHECK_THROWS_AS(filtered_answer(broadphase, Sphere{Vec3(0.0f), -1.0f}, {}), InvalidInput);
}

TEST_CASE("Broadphase keeps a user value per proxy and changes filters and layers in place",
          "[broadphase]") {
  Broadphase broadphase;
  const ProxyId a = broadphase.create_proxy({{0, 0, 0}, {1, 1, 1}}, Layer::dynamic_layer, {}, 7);
  const ProxyId b = broadphase.create_proxy({{1, 1, 1}, {2, 2, 2}});  // touches a's corner
  CHECK(broadphase.user_data(a) == 7);
  CHECK(broadphase.user_data(b) == 0);
  broadphase.set_user_data(b, ~std::uint64_t{0});
  CHECK(broadphase.user_data(b) == ~std::uint64_t{0});
  FrameLog log = update_logged(broadphase);
  CHECK(log.began == std::vector<ProxyPair>{{a, b}});
  // A filter that b's mask excludes ends the pair; the old one brings it back.
  broadphase.set_filter(a, {8u, ~0u});
  broadphase.set_filter(b, {1u, ~8u});
  CHECK(broadphase.filter(a).group == 8u);
  log = update_logged(broadphase);
  CHECK(log.began.empty());
  CHECK(log.ended == std::vector<ProxyPair>{{a, b}});
  broadphase.set_filter(a, {});
  log = update_logged(broadphase);
  CHECK(log.began == std::vector<ProxyPair>{{a, b}});
  // Both static: the pair ends; one dynamic again: it begins.
  broadphase.set_layer(a, Layer::static_layer);
  broadphase.set_layer(b, Layer::static_layer);
  CHECK(broadphase.layer(a) == Layer::static_layer);
  log = update_logged(broadphase);
  CHECK(log.ended == std::vector<ProxyPair>{{a, b}});
  CHECK(broadphase.tree(Layer::static_layer).size() == 2);
  broadphase.set_layer(b, Layer::dynamic_layer);
  log = update_logged(broadphase);
  CHECK(log.began == std::vector<ProxyPair>{{a, b}});
  CHECK(broadphase.user_data(a) == 7);
  // Bad ids and layers change nothing.
  CHECK_THROWS_AS(broadphase.set_filter(99, {}), InvalidInput);
  CHECK_THROWS_AS(broadphase.set_layer(a, static_cast<Layer>(2)), InvalidInput);
  CHECK_THROWS_AS(broadphase.user_data(99), InvalidInput);
  CHECK(broadphase.layer(a) == Layer::static_layer);
  broadphase.destroy_proxy(a);
  CHECK_THROWS_AS(broadphase.set_user_data(a, 1), InvalidInput);
  log = update_logged(broadphase);
  CHECK(log.ended == std::vector<ProxyPair>{{a, b}});
  CHECK(broadphase.user_data(a) == 7);  // kept for the end events until the id is reused
  const ProxyId reused = broadphase.create_proxy({{5, 5, 5}, {6, 6, 6}});
  CHECK(reused == a);
  CHECK(broadphase.user_data(reused) == 0);
}

TEST_CASE("Broadphase pair filter removes the pairs it refuses", "[broadphase]") {
  std::mt19937_64 random(29);
  Broadphase broadphase;
  const auto refused = [](ProxyId a, ProxyId b) { return (a + 2 * b) % 3 == 0; };
  broadphase.set_pair_filter([&](ProxyId a, ProxyId b) { return !refused(a, b); });
  Model model;
  for (int frame = 0; frame < 80; ++frame) {
    random_frame(random, broadphase, model, 12.0f, frame == 0 ? 150 : 30);
    broadphase.update_pairs();
    std::vector<ProxyPair> expected = brute_force_pairs(model);
    std::erase_if(expected,
                  [&](const ProxyPair& pair) { return refused(pair.first, pair.second); });
    REQUIRE(broadphase.pairs() == expected);
  }
}

TEST_CASE("Broadphase origin shifts keep pairs and events exact", "[broadphase]") {
  for (const float margin : {0.0f, 0.1f}) {
    std::mt19937_64 random(23);
    Broadphase broadphase(FatBoxOptions{margin, 4.0f});
    Model model;
    std::vector<ProxyPair> previous;
    for (int frame = 0; frame < 60; ++frame) {
      random_frame(random, broadphase, model, 12.0f, frame == 0 ? 200 : 30);
      if (frame % 5 == 2) {
        // Offsets of every scale: small ones round boxes that touch apart or together.
        const float scale = std::ldexp(1.0f, std::uniform_int_distribution<int>(-20, 20)(random));
        const Vec3 offset = scale * random_point(random, 1.0f);
        broadphase.shift_origin(offset);
        for (auto& [id, proxy] : model)
          proxy.box = {proxy.box.min + offset, proxy.box.max + offset};
      }
      const FrameLog log = update_logged(broadphase);
      const std::vector<ProxyPair> expected = brute_force_pairs(model);
      INFO("margin " << margin << " frame " << frame);
      REQUIRE(broadphase.pairs() == expected);
      REQUIRE(log.began == difference(expected, previous));
      REQUIRE(log.ended == difference(previous, expected));
      for (const auto& [id, proxy] : model) REQUIRE(broadphase.box(id) == proxy.box);
      REQUIRE_NOTHROW(broadphase.validate());  // both trees, and fat boxes hold the boxes
      previous = expected;
    }
    // An offset that would take a box beyond the float range changes nothing.
    const ProxyId far = broadphase.create_proxy({{3e38f, 0, 0}, {3.1e38f, 1, 1}});
    const ProxyId some = model.begin()->first;
    const Aabb before = broadphase.box(some);
    CHECK_THROWS_WITH(
        broadphase.shift_origin(Vec3(1e38f, 0, 0)),
        Catch::Contains("proxy " + std::to_string(far) + "'s box would leave the float range"));
    CHECK(broadphase.box(far).max.x == 3.1e38f);
    CHECK_THROWS_AS(broadphase.shift_origin(Vec3(std::numeric_limits<float>::quiet_NaN())),
                    InvalidInput);
    CHECK(broadphase.box(some) == before);
  }
}

TEST_CASE("Broadphase events do not depend on the thread count", "[broadphase]") {
  const auto frames = [](std::vector<FrameLog>& logs) {
    std::mt19937_64 random(17);
    Broadphase broadphase;
    Model model;
    for (int frame = 0; frame < 12; ++frame) {
      random_frame(random, broadphase, model, 60.0f, frame == 0 ? 6000 : 3000);
      logs.push_back(update_logged(broadphase));
    }
    REQUIRE(broadphase.pairs() == brute_force_pairs(model));
  };
  check_same_for_thread_counts(frames);
}

// update runs a step on the calling thread alone when it is small (few searches, few fat
// pairs) and in parallel otherwise: frames on either side of both cut-offs (4000 searches and
// tens of thousands of pairs, then 100 movers) must be exact and the same for any thread count.
TEST_CASE("Broadphase is exact on small and large frames for any thread count", "[broadphase]") {
  const auto frames = [](std::vector<FrameLog>& logs) {
    std::mt19937_64 random(31);
    Broadphase broadphase;
    Model model;
    for (int i = 0; i < 4000; ++i) {
      const ModelProxy proxy{random_box(random, 20.0f), Layer::dynamic_layer, ProxyFilter{}};
      model[broadphase.create_proxy(proxy.box)] = proxy;
    }
    for (int frame = 0; frame < 8; ++frame) {
      const std::size_t movers = frame == 0 ? 0 : (frame < 5 ? 100 : model.size());
      for (std::size_t i = 0; i < movers; ++i) {
        const ProxyId id = frame < 5 ? pick(random, model) : static_cast<ProxyId>(i);
        ModelProxy& proxy = model[id];
        const Vec3 step = random_point(random, frame < 5 ? 3.0f : 0.2f);
        proxy.box = Aabb{proxy.box.min + step, proxy.box.max + step};
        broadphase.move_proxy(id, proxy.box, step);
      }
      logs.push_back(update_logged(broadphase));
      const std::vector<ProxyPair> expected = brute_force_pairs(model);
      INFO("frame " << frame);
      REQUIRE(expected.size() > 40000);  // more fat pairs than the serial cut-off
      REQUIRE(broadphase.pairs() == expected);
    }
  };
  check_same_for_thread_counts(frames);
}

TEST_CASE("Broadphase rejects bad input and stays intact", "[broadphase]") {
  Broadphase broadphase;
  const ProxyId a = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  const ProxyId b = broadphase.create_proxy(Aabb{Vec3(0.5f), Vec3(2.0f)});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_AS(broadphase.create_proxy(Aabb{Vec3(nan), Vec3(1.0f)}), InvalidInput);
  REQUIRE_THROWS_WITH(broadphase.move_proxy(a, Aabb{Vec3(2.0f), Vec3(1.0f)}),
                      Catch::Contains("exceeds"));
  REQUIRE_THROWS_AS(broadphase.move_proxy(a, Aabb{Vec3(0.0f), Vec3(nan)}), InvalidInput);
  REQUIRE_THROWS_WITH(broadphase.move_proxy(99, Aabb{Vec3(0.0f), Vec3(1.0f)}),
                      Catch::Contains("proxy id 99 is not a live proxy"));
  REQUIRE(broadphase.box(a) == Aabb{Vec3(0.0f), Vec3(1.0f)});
  broadphase.update_pairs();
  REQUIRE(broadphase.pairs() == (std::vector<ProxyPair>{{a, b}}));
  broadphase.destroy_proxy(b);
  REQUIRE_THROWS_AS(broadphase.destroy_proxy(b), InvalidInput);
  REQUIRE_THROWS_AS(broadphase.move_proxy(b, Aabb{Vec3(0.0f), Vec3(1.0f)}), InvalidInput);
  REQUIRE_THROWS_AS(broadphase.box(b), InvalidInput);
  // The destroyed id is not reused before the update that reports its pairs' end.
  const ProxyId c = broadphase.create_proxy(Aabb{Vec3(5.0f), Vec3(6.0f)});
  CHECK(c != b);
  broadphase.update_pairs();
  CHECK(broadphase.ended() == (std::vector<ProxyPair>{{a, b}}));
  CHECK(broadphase.pairs().empty());
  CHECK(broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)}) == b);
  broadphase.update_pairs();
  CHECK(broadphase.began() == (std::vector<ProxyPair>{{a, b}}));
  REQUIRE_NOTHROW(broadphase.tree(Layer::dynamic_layer).validate());
}

TEST_CASE("Broadphase never pairs two static proxies", "[broadphase]") {
  Broadphase broadphase;
  const ProxyId ground =
      broadphase.create_proxy(Aabb{Vec3(-10.0f), Vec3(10.0f)}, Layer::static_layer);
  (void)broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)}, Layer::static_layer);
  const ProxyId body = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  broadphase.update_pairs();
  CHECK(broadphase.pairs() == (std::vector<ProxyPair>{{ground, body}, {1, body}}));
}

TEST_CASE("Broadphase fat-box margins are per proxy, absolute and relative", "[broadphase]") {
  DynamicAabbTree tree(FatBoxOptions{0.0f, 4.0f});
  const Aabb box{Vec3(0.0f), Vec3(1.0f, 2.0f, 4.0f)};
  // 0.5 + 0.25 times the largest side, 4: 1.5 on every side.
  const ProxyId id = tree.create_proxy(box, 0, FatMargin{0.5f, 0.25f});
  CHECK(tree.fat_box(id) == Aabb{Vec3(-1.5f), Vec3(2.5f, 3.5f, 5.5f)});
  CHECK(tree.margin(id) == FatMargin{0.5f, 0.25f});
  // A new margin takes effect with the next new fat box.
  tree.set_margin(id, FatMargin{0.0f, 0.0f});
  const Vec3 jump(10.0f, 0.0f, 0.0f);
  REQUIRE(tree.move_proxy(id, Aabb{box.min + jump, box.max + jump}));
  CHECK(tree.fat_box(id) == Aabb{box.min + jump, box.max + jump});
  // The defaults are relative: 0.05 of the largest side.
  const DynamicAabbTree defaults;
  CHECK(defaults.options().default_margin() == FatMargin{0.0f, 0.05f});
  // Bad margins are refused and change nothing.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const FatMargin bad : {FatMargin{-1.0f, 0.0f}, FatMargin{0.0f, -0.5f}, FatMargin{nan, 0.0f},
                              FatMargin{0.0f, inf}}) {
    REQUIRE_THROWS_WITH(tree.create_proxy(box, 0, bad), Catch::Contains("fat-box margin"));
    REQUIRE_THROWS_AS(tree.set_margin(id, bad), InvalidInput);
    REQUIRE_THROWS_AS(Broadphase(FatBoxOptions{bad.absolute, 4.0f, bad.relative}), InvalidInput);
  }
  CHECK(tree.size() == 1);
  CHECK(tree.margin(id) == FatMargin{0.0f, 0.0f});
  // A box as large as the float range gets a margin clamped to it.
  const float largest = std::numeric_limits<float>::max();
  const ProxyId huge = tree.create_proxy(Aabb{Vec3(-largest), Vec3(largest)}, 0, FatMargin{});
  CHECK(tree.fat_box(huge) == Aabb{Vec3(-largest), Vec3(largest)});
  REQUIRE_NOTHROW(tree.validate());
}

// A world of millimetre boxes a centimetre apart: the default margin, relative to the boxes,
// keeps their fat boxes apart (an absolute 0.1 would join them all).
TEST_CASE("Broadphase default margin scales with a small world", "[broadphase]") {
  Broadphase broadphase;
  std::vector<ProxyId> ids;
  for (int i = 0; i < 10; ++i) {
    const Vec3 corner(0.01f * float(i), 0.0f, 0.0f);
    ids.push_back(broadphase.create_proxy(Aabb{corner, corner + Vec3(0.001f)}));
  }
  broadphase.update_pairs();
  CHECK(broadphase.pairs().empty());
  const DynamicAabbTree& tree = broadphase.tree(Layer::dynamic_layer);
  const float largest = std::numeric_limits<float>::max();
  std::size_t visited = 0;
  tree.query(Aabb{Vec3(-largest), Vec3(largest)}, [&](ProxyId node) {
    const Aabb& fat = tree.fat_box(node);
    const Aabb& box = broadphase.box(static_cast<ProxyId>(tree.user_data(node)));
    CHECK(fat.contains(box));
    CHECK(glm::all(glm::lessThanEqual(fat.max - fat.min, box.max - box.min + Vec3(0.00011f))));
    ++visited;
    return true;
  });
  CHECK(visited == ids.size());
  CHECK(broadphase.margin(ids[0]) == FatMargin{0.0f, 0.05f});
}

TEST_CASE("Broadphase sensors pair like any proxy, marked as sensor pairs", "[broadphase]") {
  Broadphase broadphase;
  const ProxyId solid = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  ProxyOptions trigger;
  trigger.sensor = true;
  trigger.layer = Layer::static_layer;
  const ProxyId sensor = broadphase.create_proxy(Aabb{Vec3(0.5f), Vec3(3.0f)}, trigger);
  const ProxyId other = broadphase.create_proxy(Aabb{Vec3(0.9f), Vec3(1.5f)});
  CHECK(broadphase.is_sensor(sensor));
  CHECK_FALSE(broadphase.is_sensor(solid));
  const FrameLog first = update_logged(broadphase);
  CHECK(first.began == std::vector<ProxyPair>{{solid, sensor}, {solid, other}, {sensor, other}});
  CHECK(first.began_kinds ==
        std::vector<PairKind>{PairKind::sensor, PairKind::contact, PairKind::sensor});
  CHECK(broadphase.pair_kinds() == first.began_kinds);
  broadphase.destroy_proxy(sensor);
  const FrameLog second = update_logged(broadphase);
  CHECK(second.ended == std::vector<ProxyPair>{{solid, sensor}, {sensor, other}});
  CHECK(second.ended_kinds == std::vector<PairKind>{PairKind::sensor, PairKind::sensor});
  CHECK(broadphase.pair_kinds() == std::vector<PairKind>{PairKind::contact});
  // The destroyed sensor still answers for its end events, until its id is reused.
  CHECK(broadphase.is_sensor(sensor));
  REQUIRE_THROWS_AS(broadphase.is_sensor(99), InvalidInput);
  const ProxyId reused = broadphase.create_proxy(Aabb{Vec3(0.0f), Vec3(1.0f)});
  CHECK(reused == sensor);
  CHECK_FALSE(broadphase.is_sensor(reused));
}

// An engine's own task system: tasks run on two plain threads, in reverse order. The events
// are those of TBB, and the executor was used.
TEST_CASE("Broadphase runs its parallel steps on a given executor", "[broadphase]") {
  std::size_t executor_calls = 0;
  const TaskExecutor two_threads = [&](std::size_t count,
                                       const std::function<void(std::size_t)>& task) {
    ++executor_calls;
    std::thread odd([&] {
      for (std::size_t i = count; i-- > 0;)
        if (i % 2 == 1) task(i);
    });
    for (std::size_t i = count; i-- > 0;)
      if (i % 2 == 0) task(i);
    odd.join();
  };
  const auto frames = [&](bool own_executor) {
    std::mt19937_64 random(41);
    Broadphase broadphase;
    if (own_executor) broadphase.set_executor(two_threads);
    Model model;
    std::vector<FrameLog> logs;
    for (int frame = 0; frame < 6; ++frame) {
      random_frame(random, broadphase, model, 60.0f, frame == 0 ? 6000 : 3000);
      logs.push_back(update_logged(broadphase));
      REQUIRE(broadphase.pairs() == brute_force_pairs(model));
    }
    return logs;
  };
  CHECK(frames(true) == frames(false));
  CHECK(executor_calls > 0);
}

}  // namespace trisect::testing
