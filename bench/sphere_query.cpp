// Sphere queries: which triangles touch a closed ball, answered as sorted input ids.
//
// Queries: balls whose diameter is 0.1%, 1% or 10% of the scene's diagonal (like the boxes of
// box_query.cpp), centred on random points of the scene's triangles. One iteration answers a
// batch of them (1000 balls for 0.1pct and 1pct, 100 for 10pct), each answer a sorted
// std::vector of ids.
//
//   trisect             trisect::collect_touching(bvh, sphere) per ball.
//   embree_pointquery   the triangle mesh (RTC_GEOMETRY_TYPE_TRIANGLE, RTC_BUILD_QUALITY_MEDIUM,
//                       built once on a threads=1 device); per ball one rtcPointQuery with the
//                       ball's centre and radius (rounded up by 1e-6 relative, so that Embree's
//                       float culling cannot drop a touching triangle), the callback applying
//                       the exact filter trisect::intersects(triangle, sphere) (trisect's own
//                       leaf test); then a sort.
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"

#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/sphere_query.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

using bench::Answers;
using bench::Batch;
using trisect::Sphere;

const std::vector<Sphere>& query_spheres(const std::string& scene_name,
                                         const std::string& variant) {
  return bench::surface_queries<Sphere>(scene_name, variant, 11,
                                        [](trisect::Vec3 center, float radius) {
                                          return Sphere{center, radius};
                                        });
}

Batch trisect_batch(const std::string& scene_name, const std::string& variant) {
  return bench::collect_touching_batch(bench::trisect_bvh(scene_name),
                                       query_spheres(scene_name, variant));
}

const Answers& trisect_answers(const std::string& scene_name, const std::string& variant) {
  return bench::kept_answers(scene_name + "/" + variant,
                             [&] { return trisect_batch(scene_name, variant); });
}

struct PointQueryBall {
  const bench::Scene* scene;
  Sphere sphere;
  std::vector<trisect::TriangleId>* ids;
};

bool on_point_query(RTCPointQueryFunctionArguments* args) {
  auto& ball = *static_cast<PointQueryBall*>(args->userPtr);
  if (trisect::intersects(ball.scene->triangle(args->primID), ball.sphere))
    ball.ids->push_back(args->primID);
  return false;  // the radius is unchanged
}

Batch pointquery_batch(const std::string& scene_name, const std::string& variant) {
  const bench::Scene& scene = bench::scene(scene_name);
  RTCScene mesh = bench::embree::cached_triangle_scene(scene_name, RTC_BUILD_QUALITY_MEDIUM);
  const std::vector<Sphere>& spheres = query_spheres(scene_name, variant);
  return [&scene, mesh, &spheres] {
    Answers answers(spheres.size());
    RTCPointQueryContext context;
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      rtcInitPointQueryContext(&context);
      PointQueryBall ball{&scene, spheres[i], &answers[i]};
      RTCPointQuery query{};
      query.x = spheres[i].center.x;
      query.y = spheres[i].center.y;
      query.z = spheres[i].center.z;
      query.time = 0;
      query.radius = static_cast<float>(double(spheres[i].radius) * (1 + 1e-6));
      rtcPointQuery(mesh, &query, &context, on_point_query, &ball);
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
        return bench::benchmark_name("sphere_query", library, scene, variant, 1);
      };
      bench::register_batch(name("trisect"),
                            [scene, variant] { return trisect_batch(scene, variant); }, {});
      bench::register_batch(
          name("embree_pointquery"), [scene, variant] { return pointquery_batch(scene, variant); },
          [scene, variant]() -> const Answers& { return trisect_answers(scene, variant); });
    }
}
