// Plane queries: which triangles touch a plane, answered as sorted input ids. Embree has no
// plane query, so the peers are CGAL's AABB tree (when CMake found CGAL) and brute force.
//
// Queries (variant `random`): planes through random points of the scene's bounds with random
// unit normals (d = dot(normal, point) rounded to float). One iteration answers a batch of 32.
//
//   trisect   trisect::collect_touching(bvh, plane) per plane.
//   cgal      CGAL::AABB_tree over the triangles, AABB_tree::all_intersected_primitives with a
//             Plane_3, kernel Exact_predicates_inexact_constructions_kernel (exact predicates,
//             like trisect; see peers/cgal_aabb_tree.hpp), ids sorted. Tree built once.
//   brute     every triangle of the scene tested with trisect::intersects(triangle, plane), in
//             input order (so already sorted).
#include "bench_main.hpp"
#include "scenes.hpp"

#ifdef TRISECT_BENCH_HAVE_CGAL
#include "peers/cgal_aabb_tree.hpp"
#endif

#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/plane_query.hpp>
#include <trisect/geometry/plane_triangle.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using bench::Answers;
using bench::Batch;
using trisect::Plane;

constexpr std::size_t batch_size = 32;

const std::vector<Plane>& query_planes(const std::string& scene_name) {
  static std::map<std::string, std::vector<Plane>> cache;
  auto& planes = cache[scene_name];
  if (planes.empty()) {
    const trisect::Aabb bounds = bench::scene(scene_name).bounds();
    std::mt19937_64 random(13);
    for (std::size_t i = 0; i < batch_size; ++i) {
      const trisect::Vec3 normal = bench::random_direction(random);
      const trisect::Vec3 point = bench::random_point(random, bounds);
      planes.push_back(Plane{normal, glm::dot(normal, point)});
    }
  }
  return planes;
}

Batch trisect_batch(const std::string& scene_name) {
  return bench::collect_touching_batch(bench::trisect_bvh(scene_name), query_planes(scene_name));
}

const Answers& trisect_answers(const std::string& scene_name) {
  return bench::kept_answers(scene_name, [&] { return trisect_batch(scene_name); });
}

Batch brute_batch(const std::string& scene_name) {
  const bench::Scene& scene = bench::scene(scene_name);
  const std::vector<Plane>& planes = query_planes(scene_name);
  return [&scene, &planes] {
    Answers answers(planes.size());
    for (std::size_t i = 0; i < planes.size(); ++i)
      for (std::size_t id = 0; id < scene.size(); ++id)
        if (trisect::intersects(scene.triangle(id), planes[i]))
          answers[i].push_back(static_cast<trisect::TriangleId>(id));
    return answers;
  };
}

#ifdef TRISECT_BENCH_HAVE_CGAL
Batch cgal_batch(const std::string& scene_name) {
  static std::map<std::string, std::unique_ptr<const bench::cgal::PlaneTree>> trees;
  auto& slot = trees[scene_name];
  if (!slot) slot = std::make_unique<const bench::cgal::PlaneTree>(bench::scene(scene_name));
  const std::vector<Plane>& planes = query_planes(scene_name);
  return [&tree = *slot, &planes] {
    Answers answers(planes.size());
    for (std::size_t i = 0; i < planes.size(); ++i) answers[i] = tree.touching(planes[i]);
    return answers;
  };
}
#endif

}  // namespace

void bench::register_all() {
#ifndef TRISECT_BENCH_HAVE_CGAL
  std::fprintf(stderr, "bench: built without CGAL; plane_query/cgal left out\n");
#endif
  for (const std::string& scene : bench::scene_names()) {
    const auto name = [&](const char* library) {
      return bench::benchmark_name("plane_query", library, scene, "random", 1);
    };
    const auto reference = [scene]() -> const Answers& { return trisect_answers(scene); };
    bench::register_batch(name("trisect"), [scene] { return trisect_batch(scene); }, {});
#ifdef TRISECT_BENCH_HAVE_CGAL
    bench::register_batch(
        name("cgal"), [scene] { return cgal_batch(scene); }, reference);
#endif
    bench::register_batch(
        name("brute"), [scene] { return brute_batch(scene); }, reference);
  }
}
