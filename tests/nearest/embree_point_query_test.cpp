// trisect::closest_point against Embree's point query (embree_closest_point.hpp: rtcPointQuery
// with a float Ericson closest point that shrinks the radius, Embree's closest_point tutorial)
// on the shared real meshes and procedural scenes. Embree's distances are float, so they agree
// with trisect's to a relative 1e-4 (an absolute 1e-6 of the diagonal on the surface); where
// the triangles differ (ties, float rounding), trisect's exact distance to Embree's triangle
// must be trisect's own distance, and never less than it.
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/geometry/point_triangle_distance.hpp>
#include <trisect/geometry/squared_distance.hpp>
#include <trisect/nearest/closest_point.hpp>

#include "embree_closest_point.hpp"
#include "embree_peer.hpp"

#include <embree3/rtcore.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

RTCDevice device() {
  static const embree::Device instance(1);
  return instance.get();
}

/// `count` seeded query points of each kind: on a random point of a random triangle, near one
/// (moved by up to 0.01 of the diagonal per axis), and far away (in the box of 3x the extents
/// of the bounds, outside the bounds).
std::vector<Vec3> query_points(const Scene& scene, int count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const Aabb box = scene.bounds();
  const Vec3 size = box.max - box.min;
  const float diagonal = scene.diagonal();
  const auto on_surface = [&] {
    const Triangle t = scene.triangle(std::size_t(random() % scene.size()));
    float s = uniform(random, 0, 1), r = uniform(random, 0, 1);
    if (s + r > 1) s = 1 - s, r = 1 - r;
    return t.a + s * (t.b - t.a) + r * (t.c - t.a);
  };
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(on_surface());
  for (int i = 0; i < count; ++i)
    points.push_back(on_surface() + 0.01f * diagonal *
                                        Vec3(uniform(random, -1, 1), uniform(random, -1, 1),
                                             uniform(random, -1, 1)));
  while (points.size() < std::size_t(3 * count)) {
    const Vec3 p = box.min + size * Vec3(uniform(random, -1, 2), uniform(random, -1, 2),
                                         uniform(random, -1, 2));
    if (!box.contains(p)) points.push_back(p);
  }
  return points;
}

/// Every query point of `scene`'s: trisect's closest point against Embree's (see above).
void compare_with_embree(const Scene& scene, std::uint64_t seed) {
  INFO(scene.name);
  const Bvh bvh = build(scene.soup());
  const embree::MeshBuffers buffers(scene.positions, scene.indices);
  const embree::SceneHandle embree_scene =
      embree::triangle_scene(device(), buffers, RTC_BUILD_QUALITY_MEDIUM);
  const double absolute = 1e-6 * double(scene.diagonal());
  const auto agree = [absolute](double a, double b) {
    return std::fabs(a - b) <= std::max(1e-4 * std::max(a, b), absolute);
  };
  const std::vector<Vec3> points = query_points(scene, 100, seed);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3& p = points[i];
    const auto ours = closest_point(bvh, p);
    const auto theirs = embree::closest_point(embree_scene.get(), buffers, p);
    INFO("point " << i << " (" << p.x << ", " << p.y << ", " << p.z << ")");
    REQUIRE(ours.has_value());
    REQUIRE(theirs.has_value());
    INFO("trisect " << ours->id << " at " << ours->distance << ", embree " << theirs->id << " at "
                    << theirs->distance);
    CHECK(agree(ours->distance, theirs->distance));
    if (theirs->id == ours->id) continue;
    REQUIRE(theirs->id < scene.size());
    const SquaredDistance to_theirs = squared_distance(p, scene.triangle(theirs->id));
    CHECK(agree(distance_of(to_theirs), ours->distance));
    // trisect is exact: Embree's triangle is never nearer than trisect's (almost always an
    // exact tie, at a shared vertex or edge, that trisect breaks to the smallest id).
    CHECK(compare(squared_distance(p, scene.triangle(ours->id)), to_theirs) <= 0);
  }
}

TEST_CASE("closest points agree with Embree's point query on the shared meshes",
          "[nearest][embree]") {
  std::uint64_t seed = 20;
  for (const std::string& name : scenes::shared_mesh_names()) {
    const auto file = scenes::shared_mesh_file(name);
    if (!file) {
      WARN("no shared mesh " << name << " in " << scenes::shared_mesh_folder()
                             << "; it is left out (set TRISECT_MESH_DIR)");
      continue;
    }
    compare_with_embree(scenes::load_scene(name, *file), ++seed);
  }
}

TEST_CASE("closest points agree with Embree's point query on procedural scenes",
          "[nearest][embree]") {
  compare_with_embree(noisy_sphere(40, 60, 11), 12);
  compare_with_embree(scenes::cube_sphere("cube_sphere", 12), 13);
  compare_with_embree(random_soup(3000, 14), 15);
}

}  // namespace
}  // namespace trisect::testing
