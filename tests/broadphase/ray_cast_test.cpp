// Nearest-first ray casts of the tree and the broadphase against the exact oracle: every proxy
// whose box meets the ray is offered once when the ray is not shortened, only proxies that
// meet the ray as it stands are offered, and a closest-hit search that shortens the ray ends
// at the nearest hit.
#include "broadphase/random_boxes.hpp"
#include "broadphase/ray_box_oracle.hpp"

#include <trisect/broadphase/broadphase.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

// A random ray through the scene's region, now and then axis-parallel or shortened.
Ray random_ray(std::mt19937_64& random, float side) {
  Ray ray;
  do {
    ray = Ray{random_point(random, side), random_point(random, 1.0f)};
    const int kind = std::uniform_int_distribution<int>(0, 5)(random);
    if (kind == 0) ray.direction = Vec3(ray.direction.x, 0, 0);
    if (kind == 1) ray.t_max = std::uniform_real_distribution<float>(0, 2 * side)(random);
    if (kind == 2) ray.t_min = -side;
  } while (ray.direction == Vec3(0.0f));
  return ray;
}

// The smallest float t >= the ray's t_min such that the box meets the ray cut at t, found
// exactly: where a closest-hit search would say the box is hit. The box must meet the ray.
float hit_parameter(const Ray& ray, const Aabb& box) {
  float low = ray.t_min == -std::numeric_limits<float>::infinity() ? -1e30f : ray.t_min;
  float high = ray.t_max == std::numeric_limits<float>::infinity() ? 1e30f : ray.t_max;
  for (int step = 0; step < 200 && low < high; ++step) {  // bisection on floats
    const float middle = low + (high - low) / 2;
    if (middle <= low || middle >= high) break;
    Ray cut = ray;
    cut.t_max = middle;
    (exact_ray_meets_box(cut, box) ? high : low) = middle;
  }
  Ray cut = ray;
  cut.t_max = low;
  return exact_ray_meets_box(cut, box) ? low : high;
}

TEST_CASE("a tree's ray cast offers each proxy its ray meets, once", "[broadphase][cast]") {
  std::mt19937_64 random(41);
  DynamicAabbTree tree;
  std::vector<ProxyId> ids;
  for (int i = 0; i < 800; ++i)
    ids.push_back(tree.create_proxy(random_awkward_box(random, 10.0f), 0));
  for (int q = 0; q < 300; ++q) {
    const Ray ray = random_ray(random, 10.0f);
    std::vector<ProxyId> offered;
    const float end = cast(tree, ray, [&](ProxyId id, float t_max) {
      offered.push_back(id);
      return t_max;
    });
    CHECK(end == ray.t_max);
    std::sort(offered.begin(), offered.end());
    CHECK(std::adjacent_find(offered.begin(), offered.end()) == offered.end());
    std::vector<ProxyId> expected;
    for (const ProxyId id : ids)
      if (exact_ray_meets_box(ray, tree.fat_box(id))) expected.push_back(id);
    std::sort(expected.begin(), expected.end());
    REQUIRE(offered == expected);
  }
}

TEST_CASE("a broadphase closest-hit cast ends at the nearest hit and skips what lies beyond",
          "[broadphase][cast]") {
  std::mt19937_64 random(42);
  Broadphase broadphase;
  std::map<ProxyId, std::pair<Aabb, ProxyFilter>> live;
  for (int i = 0; i < 600; ++i) {
    const Aabb box = random_awkward_box(random, 10.0f);
    const Layer layer = i % 4 == 0 ? Layer::static_layer : Layer::dynamic_layer;
    const ProxyFilter filter = i % 5 == 0 ? ProxyFilter{2u, ~0u} : ProxyFilter{};
    live[broadphase.create_proxy(box, layer, filter)] = {box, filter};
  }
  broadphase.update_pairs();
  const ProxyQueryFilter skip_group_2{true, true, ~0u, ~2u};
  int hits = 0;
  for (int q = 0; q < 300; ++q) {
    const Ray ray = random_ray(random, 10.0f);
    const ProxyQueryFilter filter = q % 2 == 0 ? ProxyQueryFilter{} : skip_group_2;
    // Every offered proxy passes the filter and meets the ray as shortened so far.
    float current = ray.t_max;
    const float end = broadphase.cast(ray, filter, [&](ProxyId id, float t_max) {
      CHECK(t_max == current);
      const auto& [box, proxy_filter] = live.at(id);
      CHECK(filter.passes(broadphase.layer(id), proxy_filter));
      Ray cut = ray;
      cut.t_max = t_max;
      CHECK(exact_ray_meets_box(cut, box));
      current = std::min(current, hit_parameter(ray, box));
      return hit_parameter(ray, box);
    });
    float nearest = ray.t_max;
    for (const auto& [id, entry] : live)
      if (filter.passes(broadphase.layer(id), entry.second) &&
          exact_ray_meets_box(ray, entry.first))
        nearest = std::min(nearest, hit_parameter(ray, entry.first));
    REQUIRE(end == nearest);
    hits += nearest < ray.t_max ? 1 : 0;
  }
  CHECK(hits > 50);
  // A value below t_min ends the cast at once.
  Ray down{{0, 0, 20}, {0, 0, -1}};
  int offers = 0;
  const float stop = broadphase.cast(down, {}, [&](ProxyId, float) {
    ++offers;
    return -1.0f;
  });
  CHECK(stop == -1.0f);
  CHECK(offers <= 1);
  CHECK_THROWS_AS(
      broadphase.cast(Ray{{0, 0, 0}, {0, 0, 0}}, {}, [](ProxyId, float t) { return t; }),
      InvalidInput);
}

}  // namespace
}  // namespace trisect::testing
