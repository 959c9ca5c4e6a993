// Embree as the oracle: closest hits against rtcIntersect1, and box and ball answers against
// Embree's own candidate searches (rtcCollide of user geometries, rtcPointQuery) filtered by the
// exact predicates: trisect's answer must be exactly the filtered candidates, so it misses no
// triangle that Embree's bounds tests find and reports no other.
#include "support/ray_check.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/geometry/aabb_triangle.hpp>
#include <trisect/geometry/self_overlap.hpp>
#include <trisect/geometry/sphere_triangle.hpp>
#include <trisect/geometry/triangle_triangle.hpp>
#include <trisect/overlap/overlap.hpp>

#include "embree_peer.hpp"

#include <embree3/rtcore.h>
#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

RTCDevice device() {
  static const embree::Device instance(1);
  return instance.get();
}

constexpr float infinity = std::numeric_limits<float>::infinity();

// Outward by one float step per side, so that Embree's bounds tests cannot drop a candidate
// whose bounds merely touch.
RTCBounds widened(const Aabb& box) {
  return {std::nextafter(box.min.x, -infinity), std::nextafter(box.min.y, -infinity),
          std::nextafter(box.min.z, -infinity), 0.0f,
          std::nextafter(box.max.x, infinity),  std::nextafter(box.max.y, infinity),
          std::nextafter(box.max.z, infinity),  0.0f};
}

// The scene's triangles, robust and high quality; the buffers must outlive the scene.
embree::SceneHandle triangle_scene(const embree::MeshBuffers& buffers) {
  return embree::triangle_scene(device(), buffers, RTC_BUILD_QUALITY_HIGH, RTC_SCENE_FLAG_ROBUST);
}

// The widened boxes of the scene's triangles.
std::vector<RTCBounds> triangle_bounds(const Scene& scene) {
  std::vector<RTCBounds> bounds;
  for (std::size_t t = 0; t < scene.size(); ++t)
    bounds.push_back(widened(scene.soup().triangle(t).bounds()));
  return bounds;
}

std::vector<Scene> oracle_scenes() {
  std::vector<Scene> scenes{noisy_sphere(40, 60, 61), random_soup(3000, 62), lattice_soup(3000, 63),
                            needles(800, 64)};
  for (Scene& mesh : shared_mesh_scenes()) scenes.push_back(std::move(mesh));
  return scenes;
}

Aabb bounds_of(const Scene& scene) {
  Aabb box = Aabb::empty();
  for (const Vec3& p : scene.positions) box.extend(p);
  return box;
}

TEST_CASE("closest hits agree with Embree's rtcIntersect1", "[embree]") {
  for (const Scene& scene : oracle_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    const embree::MeshBuffers buffers(scene.positions, scene.indices);
    const embree::SceneHandle embree_scene = triangle_scene(buffers);
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    std::mt19937_64 random(7);
    const Aabb box = bounds_of(scene);
    const Vec3 size = box.max - box.min;
    int rays = 0;
    std::vector<std::string> disagreements;
    for (int i = 0; i < 3000; ++i) {
      const Vec3 origin =
          box.min + size * Vec3(uniform(random, -0.5f, 1.5f), uniform(random, -0.5f, 1.5f),
                                uniform(random, -0.5f, 1.5f));
      const Vec3 target =
          scene.positions[std::size_t(random() % scene.positions.size())] +
          size * 0.01f *
              Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
      const Ray ray{origin, target - origin};
      if (ray.direction == Vec3(0.0f)) continue;
      RTCRayHit query = embree::to_ray_hit(ray);  // t in [0, inf]
      rtcIntersect1(embree_scene.get(), &context, &query);
      const auto ours = closest_hit(bvh, ray);
      const bool embree_hit = query.hit.geomID != RTC_INVALID_GEOMETRY_ID;
      ++rays;
      const bool agree =
          ours.has_value() == embree_hit &&
          (!ours || ours->id == query.hit.primID ||
           std::fabs(ours->t - double(query.ray.tfar)) <= 1e-6 * std::max(1.0, std::fabs(ours->t)));
      if (agree) continue;
      // Embree's float watertight test rounds: a ray within a rounding error of an edge, a
      // vertex or another triangle's t may hit, miss or pick differently there. Each such
      // disagreement is listed, and the exact oracle must side with trisect.
      std::ostringstream line;
      line << "ray " << i << ": trisect " << (ours ? std::to_string(ours->id) : "miss")
           << ", embree " << (embree_hit ? std::to_string(query.hit.primID) : "miss");
      disagreements.push_back(line.str());
      INFO(line.str());
      check_closest_hit(scene.soup(), ray, ours);
    }
    std::string listed;
    for (const std::string& line : disagreements) listed += line + "\n";
    if (!disagreements.empty())
      WARN(disagreements.size() << " of " << rays
                                << " rays differ from Embree, trisect exact on each:\n"
                                << listed);
    CHECK(disagreements.size() * 100 <= std::size_t(rays));  // Embree is right almost everywhere
  }
}

struct Collisions {
  std::vector<std::vector<TriangleId>> candidates;  // per query box
};

void collect_collisions(void* user, RTCCollision* collisions, unsigned count) {
  auto* found = static_cast<Collisions*>(user);
  for (unsigned i = 0; i < count; ++i)
    found->candidates[collisions[i].primID1].push_back(collisions[i].primID0);
}

TEST_CASE("box answers are Embree's rtcCollide candidates that the exact SAT keeps", "[embree]") {
  for (const Scene& scene : oracle_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    const std::vector<RTCBounds> triangles = triangle_bounds(scene);
    const embree::SceneHandle triangle_scene_ = embree::user_box_scene(device(), triangles);
    std::mt19937_64 random(8);
    const Aabb bounds = bounds_of(scene);
    const float diagonal = glm::length(bounds.max - bounds.min);
    std::vector<Aabb> boxes;
    for (float fraction : {0.001f, 0.01f, 0.1f})
      for (int i = 0; i < 100; ++i)
        boxes.push_back(Aabb::from_center_extents(
            scene.positions[std::size_t(random() % scene.positions.size())],
            Vec3(fraction * diagonal)));
    for (int i = 0; i < 100; ++i)  // faces through vertices
      boxes.push_back(
          Aabb::from_corners(scene.positions[std::size_t(random() % scene.positions.size())],
                             scene.positions[std::size_t(random() % scene.positions.size())]));
    std::vector<RTCBounds> queries;
    for (const Aabb& box : boxes) queries.push_back(widened(box));
    const embree::SceneHandle query_scene = embree::user_box_scene(device(), queries);
    Collisions found{std::vector<std::vector<TriangleId>>(boxes.size())};
    rtcCollide(triangle_scene_.get(), query_scene.get(), collect_collisions, &found);
    for (std::size_t q = 0; q < boxes.size(); ++q) {
      std::vector<TriangleId> expected;
      for (const TriangleId id : found.candidates[q])
        if (intersects(scene.soup().triangle(id), boxes[q])) expected.push_back(id);
      std::sort(expected.begin(), expected.end());
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      INFO("box " << q);
      REQUIRE(collect_touching(bvh, boxes[q]) == expected);
    }
  }
}

struct PointQueryState {
  const Scene* scene;
  Sphere sphere;
  std::vector<TriangleId> touching;
};

bool visit_point_query(RTCPointQueryFunctionArguments* arguments) {
  auto* state = static_cast<PointQueryState*>(arguments->userPtr);
  if (intersects(state->scene->soup().triangle(arguments->primID), state->sphere))
    state->touching.push_back(arguments->primID);
  return false;  // the query radius stays as it is
}

TEST_CASE("ball answers are Embree's rtcPointQuery candidates that the exact test keeps",
          "[embree]") {
  for (const Scene& scene : oracle_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    const std::vector<RTCBounds> triangles = triangle_bounds(scene);
    const embree::SceneHandle embree_scene =
        embree::user_box_scene(device(), triangles, RTC_BUILD_QUALITY_MEDIUM, visit_point_query);
    std::mt19937_64 random(9);
    const Aabb bounds = bounds_of(scene);
    const float diagonal = glm::length(bounds.max - bounds.min);
    for (int i = 0; i < 300; ++i) {
      const Vec3 center =
          scene.positions[std::size_t(random() % scene.positions.size())] +
          0.01f * diagonal *
              Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
      const float radius = diagonal * (i % 3 == 0 ? 0.001f : i % 3 == 1 ? 0.01f : 0.1f);
      PointQueryState state{&scene, {center, radius}, {}};
      RTCPointQuery query{};
      query.x = center.x, query.y = center.y, query.z = center.z;
      query.radius = std::nextafter(radius * 1.0001f, infinity);  // a candidate superset
      RTCPointQueryContext context;
      rtcInitPointQueryContext(&context);
      rtcPointQuery(embree_scene.get(), &query, &context, nullptr, &state);
      std::sort(state.touching.begin(), state.touching.end());
      state.touching.erase(std::unique(state.touching.begin(), state.touching.end()),
                           state.touching.end());
      INFO("sphere " << i);
      REQUIRE(collect_touching(bvh, state.sphere) == state.touching);
    }
  }
}

void collect_pair_candidates(void* user, RTCCollision* collisions, unsigned count) {
  auto* found = static_cast<std::vector<TrianglePair>*>(user);
  for (unsigned i = 0; i < count; ++i)
    found->push_back({collisions[i].primID0, collisions[i].primID1});
}

/// `scene` with every vertex mapped by `transform` (the copy Embree needs).
Scene mapped_scene(const Scene& scene, const Transform& transform) {
  Scene result = scene;
  for (Vec3& p : result.positions) p = transform.apply(p);
  return result;
}

/// Embree's candidate pairs of triangle boxes (first scene's triangle, second's), with the
/// exact test `keep` applied, sorted, each once.
template <class Keep>
std::vector<TrianglePair> embree_pairs(const Scene& first, const Scene& second, const Keep& keep) {
  const std::vector<RTCBounds> first_boxes = triangle_bounds(first),
                               second_boxes = triangle_bounds(second);
  const embree::SceneHandle first_scene = embree::user_box_scene(device(), first_boxes),
                            second_scene = embree::user_box_scene(device(), second_boxes);
  std::vector<TrianglePair> candidates;
  rtcCollide(first_scene.get(), second_scene.get(), collect_pair_candidates, &candidates);
  std::vector<TrianglePair> pairs;
  for (const TrianglePair& pair : candidates)
    if (keep(first.soup().triangle(pair.a), second.soup().triangle(pair.b), pair))
      pairs.push_back(pair);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

TEST_CASE("overlap pairs are Embree's rtcCollide candidates that the exact test keeps",
          "[embree][overlap]") {
  const std::vector<Scene> scenes = oracle_scenes();
  const auto exact = [](const Triangle& s, const Triangle& t, const TrianglePair&) {
    return intersects(s, t);
  };
  for (std::size_t k = 0; k < scenes.size(); ++k) {
    const Scene& first = scenes[k];
    const Aabb bounds = bounds_of(first);
    const Vec3 shift(0.1f * glm::length(bounds.max - bounds.min), 0.0f, 0.0f);
    const float c = std::cos(0.3f), s = std::sin(0.3f);
    for (const Transform& transform :
         {Transform{{1, 0, 0, shift.x, 0, 1, 0, 0, 0, 0, 1, 0}},
          Transform{{c, -s, 0, shift.x, s, c, 0, 0, 0, 0, 1, shift.x}}}) {
      INFO(first.name << " against itself moved");
      const Bvh bvh = build(first.soup());
      REQUIRE(collect_intersecting_pairs(bvh, bvh, transform) ==
              embree_pairs(first, mapped_scene(first, transform), exact));
    }
    const Scene& second = scenes[(k + 1) % scenes.size()];
    INFO(first.name << " against " << second.name);
    REQUIRE(collect_intersecting_pairs(build(first.soup()), build(second.soup())) ==
            embree_pairs(first, second, exact));
  }
}

TEST_CASE("self intersections are Embree's rtcCollide candidates that the exact rule keeps",
          "[embree][overlap]") {
  for (const Scene& scene : oracle_scenes()) {
    INFO(scene.name);
    const auto rule = [](const Triangle& s, const Triangle& t, const TrianglePair& pair) {
      return pair.a < pair.b && intersects_beyond_shared_vertices(s, t);
    };
    REQUIRE(self_intersections(build(scene.soup())) == embree_pairs(scene, scene, rule));
  }
}

}  // namespace
}  // namespace trisect::testing
