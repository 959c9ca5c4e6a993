// Slicing: a mesh cut by many parallel planes, end to end from the triangle soup. Variants:
// `200z` and `2000z` (planes at the centres of equal layers along z), `200oblique` (the normal
// (0.3, 0.8, -0.5)). One iteration slices every plane.
//
//   trisect     trisect::slice(soup, normal, offsets): closed contours, exact; t1 and t2.
//   cgal        CGAL::Polygon_mesh_slicer on a CGAL::Surface_mesh (chained polylines; its AABB
//               tree built inside the timed run; the Surface_mesh is its input, built before).
//   cgal_aabb   CGAL::AABB_tree built over the triangles, then all_intersected_primitives per
//               plane: the triangles each plane touches, not chained, no segments computed.
//   sorted      a sort-and-sweep baseline: triangles sorted by their lowest point along the
//               normal, an active list swept up through the planes, each active triangle's
//               segment computed in double; no chaining, not exact.
// Counter: segments_per_plane (triangles_per_plane for cgal_aabb), the same work on each side.
#include "bench_main.hpp"
#include "scenes.hpp"

#ifdef TRISECT_BENCH_HAVE_CGAL
#include "peers/cgal_aabb_tree.hpp"
#include "peers/cgal_slicer.hpp"
#endif

#include <trisect/slice/slice.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using trisect::Vec3;

struct Variant {
  std::string name;
  Vec3 normal;
  std::size_t planes;
};

const Variant variants[] = {{"200z", Vec3(0, 0, 1), 200},
                            {"2000z", Vec3(0, 0, 1), 2000},
                            {"200oblique", Vec3(0.3f, 0.8f, -0.5f), 200}};

std::vector<float> offsets_for(const bench::Scene& scene, const Variant& variant) {
  return trisect::layer_offsets(trisect::extent_along(scene.soup(), variant.normal),
                                variant.planes);
}

// Segments of every plane by sorting and sweeping, without chaining (see the file comment).
std::size_t sorted_sweep(const bench::Scene& scene, const Vec3& normal,
                         const std::vector<float>& offsets) {
  struct Extent {
    double low, high;
    std::uint32_t id;
  };
  const glm::dvec3 n(normal);
  std::vector<Extent> extents(scene.size());
  for (std::uint32_t t = 0; t < scene.size(); ++t) {
    const trisect::Triangle triangle = scene.triangle(t);
    const double a = glm::dot(n, glm::dvec3(triangle.a)), b = glm::dot(n, glm::dvec3(triangle.b)),
                 c = glm::dot(n, glm::dvec3(triangle.c));
    extents[t] = {std::min({a, b, c}), std::max({a, b, c}), t};
  }
  std::sort(extents.begin(), extents.end(),
            [](const Extent& x, const Extent& y) { return x.low < y.low; });
  std::vector<float> planes = offsets;
  std::sort(planes.begin(), planes.end());
  std::vector<Extent> active;
  std::size_t next = 0, segments = 0;
  glm::dvec3 sink(0.0);
  for (float d : planes) {
    while (next < extents.size() && extents[next].low < double(d))
      active.push_back(extents[next++]);
    std::erase_if(active, [&](const Extent& e) { return e.high < double(d); });
    for (const Extent& e : active) {
      const trisect::Triangle triangle = scene.triangle(e.id);
      const glm::dvec3 v[3] = {glm::dvec3(triangle.a), glm::dvec3(triangle.b),
                               glm::dvec3(triangle.c)};
      glm::dvec3 ends[2];
      int found = 0;
      for (int k = 0; k < 3 && found < 2; ++k) {
        const glm::dvec3 &p = v[k], &q = v[(k + 1) % 3];
        const double sp = glm::dot(n, p) - double(d), sq = glm::dot(n, q) - double(d);
        if ((sp < 0) != (sq < 0)) ends[found++] = p + (sp / (sp - sq)) * (q - p);
      }
      if (found == 2) {
        ++segments;
        sink += ends[0] + ends[1];
      }
    }
  }
  benchmark::DoNotOptimize(sink);
  return segments;
}

// Registers one benchmark: `run()` slices every plane and returns the work count per run.
template <class Run>
void register_slice(const std::string& library, const std::string& scene_name,
                    const Variant& variant, unsigned threads, const std::string& counter, Run run) {
  const std::string name =
      bench::benchmark_name("slice", library, scene_name, variant.name, threads);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        std::size_t work = 0;
        for (auto _ : state) work = run();
        state.counters[counter] = double(work) / double(variant.planes);
        state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(variant.planes));
      })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

void register_scene(const std::string& scene_name, const Variant& variant) {
  // Made on a benchmark's first run (a filtered-out benchmark builds nothing), one per
  // registration.
  struct Input {
    std::string scene_name;
    Variant variant;
    std::vector<float> planes;
    const bench::Scene& scene() {
      if (planes.empty()) planes = offsets_for(bench::scene(scene_name), variant);
      return bench::scene(scene_name);
    }
  };
  const auto input = [&] { return std::make_shared<Input>(Input{scene_name, variant, {}}); };
  for (unsigned threads : {1u, 2u})
    register_slice(
        "trisect", scene_name, variant, threads, "segments_per_plane", [in = input(), threads] {
          const bench::Scene& scene = in->scene();
          trisect::SliceOptions options;
          options.threads = int(threads);
          trisect::SliceStats stats;
          const auto sections =
              trisect::slice(scene.soup(), in->variant.normal, in->planes, options, &stats);
          benchmark::DoNotOptimize(sections.data());
          return std::size_t(stats.segments);
        });
  register_slice("sorted", scene_name, variant, 1, "segments_per_plane", [in = input()] {
    const bench::Scene& scene = in->scene();
    return sorted_sweep(scene, in->variant.normal, in->planes);
  });
#ifdef TRISECT_BENCH_HAVE_CGAL
  register_slice("cgal_aabb", scene_name, variant, 1, "triangles_per_plane", [in = input()] {
    const bench::cgal::PlaneTree tree(in->scene());
    std::size_t triangles = 0;
    for (float d : in->planes)
      triangles += tree.touching(trisect::Plane{in->variant.normal, d}).size();
    return triangles;
  });
  if (variant.planes <= 200 || scene_name == "bunny")
    register_slice(
        "cgal", scene_name, variant, 1, "segments_per_plane",
        [in = input(), slicer = std::make_shared<std::unique_ptr<bench::cgal::MeshSlicer>>()] {
          const bench::Scene& scene = in->scene();
          if (!*slicer) *slicer = std::make_unique<bench::cgal::MeshSlicer>(scene);
          return (*slicer)->slice(in->variant.normal, in->planes);
        });
#endif
}

}  // namespace

void bench::register_all() {
  // Only the bunny scenes: none when the shared meshes are absent (scene_names says so).
  const std::vector<std::string>& names = bench::scene_names();
  for (const std::string scene_name : {"bunny", "bunny_x16"})
    if (std::find(names.begin(), names.end(), scene_name) != names.end())
      for (const Variant& variant : variants) register_scene(scene_name, variant);
}
