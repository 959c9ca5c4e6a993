// Box casts through the tree against brute force with the exact rational oracle on every scene
// (the smallest exact time over all triangles, the smallest id on ties, rounded to the nearest
// float); casts that start touching, that miss, with zero motion; exact ties between triangles;
// batches equal single casts; bad boxes and motions named.
#include "support/cast_oracle.hpp"
#include "support/describe.hpp"
#include "support/property.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/nearest/box_cast.hpp>

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace trisect::testing {
namespace {

// True when the box's bounds moved by t·motion may meet `target` for some t in [0, 1]: the
// per-axis intervals of t, widened by 1e-6 relative and 1e-30, intersect (a necessary
// condition for contact, so the brute force skips only triangles that cannot touch).
bool bounds_may_meet(const Aabb& start, const Vec3& motion, const Aabb& target) {
  double earliest = 0, latest = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const double slack =
        1e-6 * (std::fabs(double(start.min[axis])) + std::fabs(double(start.max[axis])) +
                std::fabs(double(target.min[axis])) + std::fabs(double(target.max[axis]))) +
        1e-30;
    const double low = double(target.min[axis]) - double(start.max[axis]) - slack;
    const double high = double(target.max[axis]) - double(start.min[axis]) + slack;
    const double v = motion[axis];
    if (v == 0) {
      if (low > 0 || high < 0) return false;
      continue;
    }
    earliest = std::max(earliest, std::min(low / v, high / v));
    latest = std::min(latest, std::max(low / v, high / v));
  }
  return earliest <= latest;
}

// The first contact over every triangle of the scene, by the oracle (the smallest exact time,
// the smallest id on ties), skipping triangles whose bounds the box's bounds never meet.
std::optional<BoxCastHit> brute_force_cast(const Scene& scene, const OrientedBox& box,
                                           const Vec3& motion) {
  const Aabb start = bounds(box);
  std::optional<mpq_class> best;
  TriangleId best_id = 0;
  for (std::size_t id = 0; id < scene.size(); ++id) {
    const Triangle t = scene.soup().triangle(id);
    if (!bounds_may_meet(start, motion, t.bounds())) continue;
    const std::optional<mpq_class> time = oracle::first_contact(t, box, motion);
    if (time && (!best || *time < *best)) {
      best = time;
      best_id = static_cast<TriangleId>(id);
    }
  }
  if (!best) return std::nullopt;
  return BoxCastHit{oracle::nearest_float(*best), best_id};
}

TEST_CASE("box casts equal brute force with the exact oracle on every scene", "[nearest][cast]") {
  int hits = 0, misses = 0;
  const int casts = reduced_run() ? 6 : 12;  // the oracle is slow under the sanitizers
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(53)};
    const float size = scene_size(scene);
    std::vector<OrientedBox> boxes;
    std::vector<Vec3> motions;
    for (int q = 0; q < casts; ++q) {
      OrientedBox box = make.oriented_box(0.02f * size);
      box.center = box.center + Vec3(0.05f * size, 0.0f, 0.0f);
      boxes.push_back(box);
      // Towards another vertex, at most a sixth of the scene's size (the brute force's
      // candidates are the triangles in the swept bounds).
      Vec3 motion = make.vertex() - box.center;
      const float length = glm::length(motion);
      if (length > size / 6) motion *= size / 6 / length;
      motions.push_back(q % 4 == 3 ? Vec3(0.0f) : motion);
    }
    const std::vector<std::optional<BoxCastHit>> batch =
        cast_boxes(bvh, std::span<const OrientedBox>(boxes), std::span<const Vec3>(motions));
    for (std::size_t q = 0; q < boxes.size(); ++q) {
      INFO("box " << describe(boxes[q]) << " motion " << describe(motions[q]));
      const std::optional<BoxCastHit> expected = brute_force_cast(scene, boxes[q], motions[q]);
      REQUIRE(cast_box(bvh, boxes[q], motions[q]) == expected);
      REQUIRE(batch[q] == expected);
      hits += expected.has_value();
      misses += !expected.has_value();
    }
  }
  WARN("casts that hit " << hits << ", that miss " << misses);
  // Both answers occur (on the procedural scenes alone too, when the shared meshes are absent).
  CHECK(hits > casts);
  CHECK(misses > 0);
}

TEST_CASE("box casts: exact ties go to the smallest id", "[nearest][cast]") {
  // Two walls at x = 2.5 (ids 1 and 2) and one at x = 3 (id 0): the first two tie at t = 0.5.
  const std::vector<Vec3> positions{{3, -10, -10},    {3, 10, -10},    {3, 0, 10},
                                    {2.5f, -10, -10}, {2.5f, 10, -10}, {2.5f, 0, 10},
                                    {2.5f, -10, 10},  {2.5f, 10, 10},  {2.5f, 0, -10}};
  const Bvh bvh = build(TriangleSoup{positions});
  const OrientedBox unit{{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0.5f, 0.5f, 0.5f}};
  CHECK(cast_box(bvh, unit, {4, 0, 0}) == BoxCastHit{0.5f, 1});
  CHECK(cast_box(bvh, unit, {-4, 0, 0}) == std::nullopt);
  CHECK(cast_box(bvh, unit, {1.5f, 0, 0}) == std::nullopt);  // stops 0.5 short
  OrientedBox inside = unit;
  inside.center.x = 2.75f;  // touches ids 1 and 2 (at 2.5) and 0 (at 3) at the start
  CHECK(cast_box(bvh, inside, {0, 0, 0}) == BoxCastHit{0.0f, 0});
}

TEST_CASE("bad box casts are named", "[nearest][cast]") {
  const Bvh bvh = build(random_soup(50, 54).soup());
  OrientedBox box;
  box.half_extents = Vec3(1, -1, 1);
  CHECK_THROWS_WITH(cast_box(bvh, box, {1, 0, 0}), Catch::Contains("box cast: half extent 1"));
  box.half_extents = Vec3(1, 1, 1);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(cast_box(bvh, box, {inf, 0, 0}), "box cast: motion is not finite");
  const std::vector<OrientedBox> boxes{box, box};
  const std::vector<Vec3> motions{Vec3(0.0f), Vec3(inf)};
  CHECK_THROWS_WITH(cast_boxes(bvh, boxes, motions), Catch::Contains("cast 1"));
  CHECK_THROWS_WITH(cast_boxes(bvh, boxes, std::span<const Vec3>(motions).first(1)),
                    Catch::Contains("2 boxes but 1 motions"));
}

}  // namespace
}  // namespace trisect::testing
