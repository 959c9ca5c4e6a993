// `overlap`, `Mesh.self_intersections`, `Mesh.pairs_within`, `Mesh.self_pairs_within` and
// `mesh_distance`.

#include "bindings.hpp"
#include "released.hpp"
#include "transform_argument.hpp"

#include <trisect/nearest/mesh_distance.hpp>
#include <trisect/overlap/clearance.hpp>
#include <trisect/overlap/overlap.hpp>

#include <optional>

namespace trisect::python {
namespace {

OverlapOptions overlap_options(ThreadCount threads) {
  OverlapOptions options;
  options.threads = static_cast<unsigned>(threads.value);
  return options;
}

py::array overlap(const PyMesh& first, const PyMesh& second, py::handle transform,
                  ThreadCount threads) {
  const Transform second_to_first = transform_argument(transform);
  const OverlapOptions options = overlap_options(threads);
  const auto pairs = run_released(threads, [&] {
    return collect_intersecting_pairs(first.bvh(), second.bvh(), second_to_first, options);
  });
  return pairs_to_numpy(pairs, &TrianglePair::a, &TrianglePair::b);
}

py::array self_overlap(const PyMesh& mesh, ThreadCount threads) {
  const OverlapOptions options = overlap_options(threads);
  const auto pairs = run_released(threads, [&] { return self_intersections(mesh.bvh(), options); });
  return pairs_to_numpy(pairs, &TrianglePair::a, &TrianglePair::b);
}

py::array within(const PyMesh& first, const PyMesh& second, double distance, py::handle transform,
                 ThreadCount threads) {
  const Transform second_to_first = transform_argument(transform);
  const OverlapOptions options = overlap_options(threads);
  const auto pairs = run_released(threads, [&] {
    return pairs_within(first.bvh(), second.bvh(), static_cast<float>(distance), second_to_first,
                        options);
  });
  return pairs_to_numpy(pairs, &TrianglePair::a, &TrianglePair::b);
}

py::array self_within(const PyMesh& mesh, double distance, ThreadCount threads) {
  const OverlapOptions options = overlap_options(threads);
  const auto pairs = run_released(threads, [&] {
    return self_pairs_within(mesh.bvh(), static_cast<float>(distance), options);
  });
  return pairs_to_numpy(pairs, &TrianglePair::a, &TrianglePair::b);
}

py::object distance(const PyMesh& first, const PyMesh& second, py::handle transform) {
  const Transform second_to_first = transform_argument(transform);
  const std::optional<MeshDistance> nearest = run_released(
      one_thread, [&] { return mesh_distance(first.bvh(), second.bvh(), second_to_first); });
  if (!nearest) return py::none();
  return py::make_tuple(nearest->distance, nearest->first, nearest->second);
}

}  // namespace

void bind_overlap(py::module_& module, MeshClass& mesh) {
  module.def("overlap", &overlap, py::arg("a"), py::arg("b"), py::arg("transform") = py::none(),
             py::kw_only(), py::arg("threads") = 0,
             "Every pair (i, j), triangle i of `a` and j of `b`, whose closed triangles share a "
             "point, decided exactly, as a (k, 2) int64 array sorted by i then j. `transform` "
             "(None, a (3, 4) [R | T] or its 12 numbers, shape (12,)) first maps each vertex of "
             "`b` to R.x + T, "
             "each coordinate computed in double without fused multiply-add and rounded to "
             "float32 once. ValueError for a non-finite transform or one that maps a vertex to "
             "infinity.");
  mesh.def("self_intersections", &self_overlap, py::kw_only(), py::arg("threads") = 0,
           "Every pair (i, j), i < j, of triangles that meet outside what they share (their "
           "common vertex positions, exactly equal coordinates), as a (k, 2) int64 array sorted "
           "by i then j. Two triangles with the same three positions are always reported.");
  mesh.def("pairs_within", &within, py::arg("other"), py::arg("distance"),
           py::arg("transform") = py::none(), py::kw_only(), py::arg("threads") = 0,
           "Every pair (i, j), triangle i of this mesh and j of `other`, whose closed triangles "
           "lie within `distance` of each other (exact distance <= distance, rounded to float32 "
           "first; it must be finite and >= 0), as a (k, 2) int64 array sorted by i then j. "
           "`transform` maps `other` first, as `overlap` does. distance 0 gives `overlap`'s "
           "pairs. ValueError for a bad distance or transform.");
  mesh.def("self_pairs_within", &self_within, py::arg("distance"), py::kw_only(),
           py::arg("threads") = 0,
           "Every pair (i, j), i < j, of triangles that share no vertex position (exactly equal "
           "coordinates) and lie within `distance` of each other, exactly, as a (k, 2) int64 "
           "array sorted by i then j.");
  module.def("mesh_distance", &distance, py::arg("a"), py::arg("b"),
             py::arg("transform") = py::none(),
             "(distance, i, j): the smallest pair by i then j among the triangle pairs of `a` "
             "and `b` at the smallest exact distance, the distance to within a relative 2^-24 "
             "(exactly 0 when they touch); `b` transformed as `overlap` does. None when either "
             "mesh has no triangle.");
}

}  // namespace trisect::python
