// Box queries: which triangles touch a closed axis-aligned box, answered as sorted input ids.
//
// Queries: cubes whose side is 0.1%, 1% or 10% of the scene's diagonal (as the issue defines
// the variants: a 1% box on bunny_x16 returns about 176 triangles), centred on random points of the
// scene's triangles. One iteration answers a batch of them (1000 boxes for 0.1pct and 1pct, 100 for
// 10pct), each answer a sorted std::vector of ids.
//
//   trisect             trisect::collect_touching(bvh, box) per box.
//   embree_collide      what an Embree user has to do: the mesh as RTC_GEOMETRY_TYPE_USER with
//                       one box per triangle (built once, RTC_BUILD_QUALITY_MEDIUM), the batch of
//                       query boxes as a second user-geometry scene (built in every iteration:
//                       it is part of answering the batch), rtcCollide of the two, then the exact
//                       filter per reported pair and a sort per box.
//   embree_pointquery   the triangle mesh (RTC_GEOMETRY_TYPE_TRIANGLE, built once, MEDIUM);
//                       per box one rtcPointQuery at the box centre with the radius reaching its
//                       farthest corner, the callback applying the exact filter; then a sort.
// The exact filter is trisect's own leaf test, trisect::BoxQuery::touches: a vertex inside the
// box, else trisect::intersects(triangle, box) (exact 13-axis SAT). So every side reports the
// same triangles and the comparison is of the search structures. Embree runs on a threads=1
// device (rtcCollide would otherwise use every thread).
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"

#include <trisect/bvh/box_query.hpp>
#include <trisect/bvh/collect.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

using bench::Answers;
using bench::Batch;
using trisect::Aabb;

const std::vector<Aabb>& query_boxes(const std::string& scene_name, const std::string& variant) {
  return bench::surface_queries<Aabb>(scene_name, variant, 7, [](trisect::Vec3 center, float half) {
    return Aabb::from_center_extents(center, trisect::Vec3(half));
  });
}

Batch trisect_batch(const std::string& scene_name, const std::string& variant) {
  return bench::collect_touching_batch(bench::trisect_bvh(scene_name),
                                       query_boxes(scene_name, variant));
}

const Answers& trisect_answers(const std::string& scene_name, const std::string& variant) {
  return bench::kept_answers(scene_name + "/" + variant,
                             [&] { return trisect_batch(scene_name, variant); });
}

// --- embree_collide

struct CollideBatch {
  const bench::Scene* scene;
  const std::vector<Aabb>* boxes;
  Answers* answers;
  std::mutex mutex;
};

void on_collisions(void* user, RTCCollision* collisions, unsigned count) {
  auto& batch = *static_cast<CollideBatch*>(user);
  const std::lock_guard lock(batch.mutex);
  for (unsigned k = 0; k < count; ++k) {
    const RTCCollision& c = collisions[k];
    const trisect::BoxQuery query{(*batch.boxes)[c.primID1]};
    if (query.touches(batch.scene->triangle(c.primID0)))
      (*batch.answers)[c.primID1].push_back(c.primID0);
  }
}

Batch collide_batch(const std::string& scene_name, const std::string& variant) {
  const bench::Scene& scene = bench::scene(scene_name);
  RTCScene mesh = bench::embree::cached_triangle_box_scene(scene_name);
  const std::vector<Aabb>& boxes = query_boxes(scene_name, variant);
  RTCDevice device = bench::embree::single_thread_device();
  return [&scene, mesh, &boxes, device] {
    Answers answers(boxes.size());
    std::vector<RTCBounds> bounds(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) bounds[i] = bench::embree::to_bounds(boxes[i]);
    const bench::embree::SceneHandle queries = bench::embree::user_box_scene(device, bounds);
    CollideBatch batch{&scene, &boxes, &answers, {}};
    rtcCollide(mesh, queries.get(), on_collisions, &batch);
    for (auto& ids : answers) std::sort(ids.begin(), ids.end());
    return answers;
  };
}

// --- embree_pointquery

struct PointQueryBox {
  const bench::Scene* scene;
  trisect::BoxQuery query;
  std::vector<trisect::TriangleId>* ids;
};

bool on_point_query(RTCPointQueryFunctionArguments* args) {
  auto& box = *static_cast<PointQueryBox*>(args->userPtr);
  if (box.query.touches(box.scene->triangle(args->primID))) box.ids->push_back(args->primID);
  return false;  // the radius is unchanged
}

// The box's centre (rounded to float) and a radius, rounded up, reaching every corner.
RTCPointQuery covering_query(const Aabb& box) {
  const trisect::Vec3 center = box.center();
  double reach2 = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const double c = center[axis];
    const double reach = std::max(c - double(box.min[axis]), double(box.max[axis]) - c);
    reach2 += reach * reach;
  }
  RTCPointQuery query{};
  query.x = center.x;
  query.y = center.y;
  query.z = center.z;
  query.time = 0;
  query.radius = static_cast<float>(std::sqrt(reach2) * (1 + 1e-6));
  return query;
}

Batch pointquery_batch(const std::string& scene_name, const std::string& variant) {
  const bench::Scene& scene = bench::scene(scene_name);
  RTCScene mesh = bench::embree::cached_triangle_scene(scene_name, RTC_BUILD_QUALITY_MEDIUM);
  const std::vector<Aabb>& boxes = query_boxes(scene_name, variant);
  return [&scene, mesh, &boxes] {
    Answers answers(boxes.size());
    RTCPointQueryContext context;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      rtcInitPointQueryContext(&context);
      PointQueryBox box{&scene, trisect::BoxQuery{boxes[i]}, &answers[i]};
      RTCPointQuery query = covering_query(boxes[i]);
      rtcPointQuery(mesh, &query, &context, on_point_query, &box);
      std::sort(answers[i].begin(), answers[i].end());
    }
    return answers;
  };
}

}  // namespace

void bench::register_all() {
  for (const std::string& scene : bench::scene_names())
    for (const std::string& variant : bench::size_variants) {
      const auto name = [&](const char* library) {
        return bench::benchmark_name("box_query", library, scene, variant, 1);
      };
      const auto reference = [scene, variant]() -> const Answers& {
        return trisect_answers(scene, variant);
      };
      bench::register_batch(name("trisect"),
                            [scene, variant] { return trisect_batch(scene, variant); }, {});
      bench::register_batch(
          name("embree_collide"), [scene, variant] { return collide_batch(scene, variant); },
          reference);
      bench::register_batch(
          name("embree_pointquery"), [scene, variant] { return pointquery_batch(scene, variant); },
          reference);
    }
}
