// The leaf test of a ray, one group of four triangles at a time (issue 36, item 2): what a
// leaf laid out for the ray test could save over trisect's layout.
//
//   ray_leaf/trisect/<scene>/filter/t1     trisect::possible_hits: the float pre-test on the
//                                          leaf layout as stored (three vertices per lane,
//                                          `TriangleGroup`), with its proven error bound.
//   ray_leaf/trisect_edges/<scene>/filter/t1
//                                          trisect::possible_hits on the ray leaves
//                                          (`BuildOptions::ray_leaves`, `EdgeGroup`): the float
//                                          pre-test on a stored vertex, edges and normal, with
//                                          its proven error bound; the parameter not tested.
//   ray_leaf/edges_prototype/<scene>/filter/t1
//                                          Möller & Trumbore's test ("Fast, Minimum Storage
//                                          Ray/Triangle Intersection", 1997) on groups stored
//                                          as Embree's Triangle4 stores them: a vertex and two
//                                          edges, precomputed, four lanes side by side, and the
//                                          parameter bound [t_min, t_max] tested too. Float,
//                                          WITHOUT any error bound: a prototype that gives an
//                                          upper bound of what the layout can gain (a proven
//                                          bound only adds operations), never an answer.
//
// Cases: 4096 groups of the scene's leaves (every leaf's first group, a random sample), each
// with a ray from a random point of the scene's bounds aimed near the group's first triangle
// (barycentric weights in [-0.2, 1.2], so about half go through it), ordered by the ray's
// dominant axis, cycled through one group per iteration. Every case holds its own copy of its
// group in each form (about 0.6 MB in all), so the filters are timed on the cache, not on
// the misses of the tree's arrays (until 2026-12-07 trisect's filter read the tree's storage and
// its times included a miss a group, which the prototype's did not). Counters:
//   kept_per_group  lanes the filter keeps (trisect: those it cannot rule out, which go on to
//                   the double test; the prototype: those it accepts)
#include "bench_main.hpp"
#include "scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>
#include <trisect/geometry/ray_edge_filter.hpp>
#include <trisect/geometry/ray_triangle.hpp>
#include <trisect/math/float4.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using trisect::Float4;
using trisect::Ray;
using trisect::Vec3;

constexpr std::size_t case_count = 4096;  // a power of two: the index wraps with a mask

// One group as Triangle4 stores it: vertex a, e1 = b - a, e2 = c - a, coordinate j (3 * vector
// + axis) of the four lanes in lanes[j] (unused lanes repeat the last triangle).
struct PrototypeGroup {
  alignas(16) std::array<std::array<float, 4>, 9> lanes;
  int count;
};

struct Case {
  Ray ray;
  trisect::RayShear shear;
  // Each form of the group copied next to the ray, as the prototype's is, so that every filter
  // reads its group from the cache (the tree's own arrays would make it a cache miss each).
  std::array<float, 9 * 4 + 3> vertices;
  std::array<float, trisect::EdgeGroup::rows * 4 + 3> stored_edges;
  int count;
  PrototypeGroup edges;

  [[nodiscard]] trisect::TriangleGroup group() const { return {vertices.data(), count}; }
  [[nodiscard]] trisect::EdgeGroup edge_group() const { return {stored_edges.data(), count}; }
};

PrototypeGroup edges_of(const trisect::TriangleGroup& group) {
  PrototypeGroup edges{};
  edges.count = group.count;
  for (int lane = 0; lane < 4; ++lane) {
    const trisect::Triangle t = group.triangle(std::min(lane, group.count - 1));
    const Vec3 vectors[3] = {t.a, t.b - t.a, t.c - t.a};
    for (int j = 0; j < 9; ++j)
      edges.lanes[static_cast<std::size_t>(j)][static_cast<std::size_t>(lane)] =
          vectors[j / 3][j % 3];
  }
  return edges;
}

const std::vector<Case>& cases(const std::string& scene_name) {
  static std::map<std::string, std::vector<Case>> cache;
  std::vector<Case>& list = cache[scene_name];
  if (!list.empty()) return list;
  // The benchmark's tree, built again with its ray leaves.
  static std::map<std::string, trisect::Bvh> trees;
  trisect::Bvh& bvh = trees[scene_name];
  if (bvh.empty()) bvh = trisect::build(bench::scene(scene_name).soup(), {.ray_leaves = true});
  const trisect::Aabb bounds = bench::scene(scene_name).bounds();
  std::mt19937_64 random(36);
  std::uniform_int_distribution<std::uint32_t> slot_of(0,
                                                       static_cast<std::uint32_t>(bvh.size() - 1));
  std::uniform_real_distribution<float> weight(-0.2f, 1.2f);
  while (list.size() < case_count) {
    const trisect::LeafRange leaf = bvh.triangles.leaf_of(slot_of(random));
    const trisect::TriangleGroup group = bvh.triangles.group(leaf.begin, leaf.end);
    const trisect::Triangle first = group.triangle(0);
    const Vec3 target =
        first.a + weight(random) * (first.b - first.a) + weight(random) * (first.c - first.a);
    const Vec3 origin = bench::random_point(random, bounds);
    const Ray aimed{origin, target - origin, 0.0f, std::numeric_limits<float>::infinity()};
    if (aimed.direction == Vec3(0.0f)) continue;
    Case added{aimed, trisect::RayShear::of(aimed), {}, {}, group.count, edges_of(group)};
    std::copy_n(group.coordinates, 9 * group.count, added.vertices.begin());
    std::copy_n(bvh.ray_leaves.group(leaf.begin, leaf.end).values,
                trisect::EdgeGroup::rows * group.count, added.stored_edges.begin());
    list.push_back(added);
  }
  // By the ray's dominant axis, which trisect's test branches on once a ray (predicted within
  // a ray's leaves, as in a walk; here within each third of the cases).
  std::stable_sort(list.begin(), list.end(),
                   [](const Case& a, const Case& b) { return a.shear.kz < b.shear.kz; });
  return list;
}

#if defined(__SSE2__)
// Bit i set when the prototype accepts lane i: Möller–Trumbore on the precomputed edges in
// float, with the parameter in [t_min, t_max], and no error bound (see the file's comment).
unsigned edges_filter(const Ray& ray, const PrototypeGroup& g) {
  const auto row = [&](int j) { return Float4::load(g.lanes[static_cast<std::size_t>(j)].data()); };
  const auto splat = [](float x) { return Float4::splat(x); };
  const Float4 dx = splat(ray.direction.x), dy = splat(ray.direction.y),
               dz = splat(ray.direction.z);
  const Float4 sx = splat(ray.origin.x) - row(0), sy = splat(ray.origin.y) - row(1),
               sz = splat(ray.origin.z) - row(2);
  const Float4 e1x = row(3), e1y = row(4), e1z = row(5), e2x = row(6), e2y = row(7), e2z = row(8);
  // p = d x e2, q = s x e1
  const Float4 px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const Float4 qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const Float4 det = e1x * px + e1y * py + e1z * pz;
  const Float4 u = sx * px + sy * py + sz * pz;
  const Float4 v = dx * qx + dy * qy + dz * qz;
  const Float4 t = e2x * qx + e2y * qy + e2z * qz;
  // Signs folded in by the determinant's: compare u, v, u + v and t with |det|.
  const Float4 sign = Float4::splat(-0.0f);
  const auto flip = [&](Float4 x) { return Float4{_mm_xor_ps(x.v, _mm_and_ps(det.v, sign.v))}; };
  const Float4 su = flip(u), sv = flip(v), st = flip(t), magnitude = trisect::abs(det);
  const Float4 zero = Float4::splat(0);
  const unsigned inside = trisect::less_equal_mask(zero, su) & trisect::less_equal_mask(zero, sv) &
                          trisect::less_equal_mask(su + sv, magnitude) &
                          trisect::less_mask(zero, magnitude);
  const unsigned in_range = trisect::less_equal_mask(splat(ray.t_min) * magnitude, st) &
                            trisect::less_equal_mask(st, splat(ray.t_max) * magnitude);
  return inside & in_range & ((1u << g.count) - 1);
}
#endif

template <class Filter>
void run_filter(benchmark::State& state, const std::string& scene_name, Filter filter) {
  const std::vector<Case>& list = cases(scene_name);
  std::size_t kept = 0;
  for (const Case& c : list) kept += static_cast<std::size_t>(std::popcount(filter(c)));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(filter(list[i]));
    i = (i + 1) & (case_count - 1);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["kept_per_group"] = double(kept) / double(case_count);
}

}  // namespace

void bench::register_all() {
  for (const std::string scene : {"bunny_x16", "sphere_1m"}) {
    if (std::find(bench::scene_names().begin(), bench::scene_names().end(), scene) ==
        bench::scene_names().end())
      continue;
    benchmark::RegisterBenchmark(
        bench::benchmark_name("ray_leaf", "trisect", scene, "filter", 1).c_str(),
        [scene](benchmark::State& state) {
          run_filter(state, scene, [](const Case& c) {
            return trisect::possible_hits(c.ray, c.shear, c.group());
          });
        });
    benchmark::RegisterBenchmark(
        bench::benchmark_name("ray_leaf", "trisect_edges", scene, "filter", 1).c_str(),
        [scene](benchmark::State& state) {
          run_filter(state, scene, [](const Case& c) {
            return trisect::possible_hits(c.ray, c.shear, c.edge_group());
          });
        });
#if defined(__SSE2__)
    benchmark::RegisterBenchmark(
        bench::benchmark_name("ray_leaf", "edges_prototype", scene, "filter", 1).c_str(),
        [scene](benchmark::State& state) {
          run_filter(state, scene, [](const Case& c) { return edges_filter(c.ray, c.edges); });
        });
#endif
  }
}
