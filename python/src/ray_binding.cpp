// `Mesh.rays` (closest hits) and `Mesh.any_hits`.

#include "bindings.hpp"
#include "released.hpp"

#include <trisect/bvh/ray_stream.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace trisect::python {
namespace {

// A ray bound: one number for every ray, or one per ray.
std::vector<float> ray_bounds(py::handle given, std::size_t count, const char* name) {
  const FloatArray values = float_values(given, name);
  const auto size = static_cast<std::size_t>(values.size());
  if (values.ndim() == 0 || size == 1) return std::vector<float>(count, values.data()[0]);
  if (size != count)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(count) +
                          " values, got " + std::to_string(size));
  return {values.data(), values.data() + size};
}

std::vector<Ray> make_rays(py::handle origins, py::handle directions, py::handle t_min,
                           py::handle t_max) {
  const FloatArray from = float_rows(origins, 3, "origins");
  const FloatArray along = float_rows(directions, 3, "directions");
  const std::size_t count = row_count(from);
  if (row_count(along) != count)
    throw py::value_error("directions: expected as many rows as origins (" + std::to_string(count) +
                          ")");
  const std::vector<float> low = ray_bounds(t_min, count, "t_min");
  const std::vector<float> high = ray_bounds(t_max, count, "t_max");
  std::vector<Ray> rays(count);
  for (std::size_t i = 0; i < count; ++i) {
    const float* o = row(from, i);
    const float* d = row(along, i);
    rays[i] = Ray{Vec3(o[0], o[1], o[2]), Vec3(d[0], d[1], d[2]), low[i], high[i]};
  }
  return rays;
}

// Closest hits as arrays: t (inf on a miss), ids (-1), u, v (0).
struct HitArrays {
  std::vector<double> t;
  std::vector<std::int64_t> ids;
  std::vector<float> u, v;
};

HitArrays closest(const Bvh& bvh, const std::vector<Ray>& rays) {
  std::vector<std::optional<Hit>> hits(rays.size());
  closest_hits(bvh, rays, hits);
  HitArrays out{std::vector<double>(hits.size(), std::numeric_limits<double>::infinity()),
                std::vector<std::int64_t>(hits.size(), -1), std::vector<float>(hits.size(), 0.0f),
                std::vector<float>(hits.size(), 0.0f)};
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (!hits[i]) continue;
    out.t[i] = hits[i]->t;
    out.ids[i] = hits[i]->id;
    out.u[i] = hits[i]->u;
    out.v[i] = hits[i]->v;
  }
  return out;
}

}  // namespace

void bind_rays(MeshClass& mesh) {
  const float inf = std::numeric_limits<float>::infinity();
  mesh.def(
      "rays",
      [](const PyMesh& self, py::handle origins, py::handle directions, py::handle t_min,
         py::handle t_max, ThreadCount threads) {
        const std::vector<Ray> rays = make_rays(origins, directions, t_min, t_max);
        HitArrays hits = run_released(threads, [&] { return closest(self.bvh(), rays); });
        return py::make_tuple(to_numpy(std::move(hits.t)), to_numpy(std::move(hits.ids)),
                              to_numpy(std::move(hits.u)), to_numpy(std::move(hits.v)));
      },
      py::arg("origins"), py::arg("directions"), py::arg("t_min") = 0.0f, py::arg("t_max") = inf,
      py::kw_only(), py::arg("threads") = 0,
      "Closest hits of the rays origin + t * direction, t in the closed [t_min, t_max] (a number "
      "or one per ray). Returns (t, ids, u, v): t float64 (inf on a miss), ids int64 (-1 on a "
      "miss), u, v float32 barycentric weights of vertices 1 and 2. Exact and watertight: the "
      "hit triangle has the smallest exact t (any one of several that tie); rays never hit "
      "zero-area triangles nor triangles whose plane they lie in. ValueError for NaN, infinite "
      "origins or directions, or a zero direction.");
  mesh.def(
      "any_hits",
      [](const PyMesh& self, py::handle origins, py::handle directions, py::handle t_min,
         py::handle t_max, ThreadCount threads) {
        const std::vector<Ray> rays = make_rays(origins, directions, t_min, t_max);
        std::vector<std::uint8_t> hit(rays.size());
        run_released(threads, [&] { any_hits(self.bvh(), rays, hit); });
        return to_numpy(std::move(hit)).attr("view")("bool");
      },
      py::arg("origins"), py::arg("directions"), py::arg("t_min") = 0.0f, py::arg("t_max") = inf,
      py::kw_only(), py::arg("threads") = 0,
      "Whether each ray hits any triangle (bool array), decided as `rays` decides hits.");
}

}  // namespace trisect::python
