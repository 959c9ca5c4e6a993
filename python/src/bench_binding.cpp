// `_cpp_seconds`: the time of a batch in C++ alone, for the module's overhead benchmark
// (bench/python/bench_module.py compares it with the Python call on the same arrays).

#include "bindings.hpp"
#include "released.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/ray_stream.hpp>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace trisect::python {
namespace {

// The shortest of `repeats` timed calls of `work`, in seconds.
template <class Work>
double best_seconds(int repeats, Work&& work) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

double ray_seconds(const PyMesh& mesh, const FloatArray& origins, const FloatArray& directions,
                   int repeats) {
  const std::size_t count = row_count(origins);
  if (row_count(directions) != count) throw py::value_error("directions: one per origin");
  std::vector<Ray> rays(count);
  for (std::size_t i = 0; i < count; ++i) {
    const float* o = row(origins, i);
    const float* d = row(directions, i);
    rays[i] = Ray{Vec3(o[0], o[1], o[2]), Vec3(d[0], d[1], d[2])};
  }
  std::vector<std::optional<Hit>> hits(count);
  return run_released(all_threads, [&] {
    return best_seconds(repeats, [&] { closest_hits(mesh.bvh(), rays, hits); });
  });
}

double box_seconds(const PyMesh& mesh, const FloatArray& boxes, int repeats) {
  std::vector<Aabb> shapes(row_count(boxes));
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const float* r = row(boxes, i);
    shapes[i] = Aabb::from_corners(Vec3(r[0], r[1], r[2]), Vec3(r[3], r[4], r[5]));
  }
  return run_released(all_threads, [&] {
    return best_seconds(repeats, [&] {
      const auto answers = collect_touching_batch(mesh.bvh(), std::span<const Aabb>(shapes));
      static_cast<void>(answers);
    });
  });
}

}  // namespace

void bind_bench(py::module_& module) {
  module.def(
      "_cpp_seconds",
      [](const std::string& kind, const PyMesh& mesh, py::handle first, py::handle second,
         int repeats) {
        if (kind == "rays")
          return ray_seconds(mesh, float_rows(first, 3, "origins"),
                             float_rows(second, 3, "directions"), repeats);
        if (kind == "boxes") return box_seconds(mesh, float_rows(first, 6, "boxes"), repeats);
        throw py::value_error("kind: 'rays' or 'boxes'");
      },
      py::arg("kind"), py::arg("mesh"), py::arg("first"), py::arg("second") = py::none(),
      py::arg("repeats") = 5,
      "Benchmark support, not API: the best of `repeats` times, in seconds, of the C++ batch "
      "behind Mesh.rays(first, second) (closest_hits on a prepared ray vector) or "
      "Mesh.boxes(first) (collect_touching_batch), on all threads, without the conversions.");
}

}  // namespace trisect::python
