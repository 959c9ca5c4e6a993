// `Mesh(vertices, faces)`, `load(path)` and what a mesh tells about itself.

#include "bindings.hpp"
#include "released.hpp"
#include "repr.hpp"

#include <pybind11/stl/filesystem.h>
#include <trisect/io/load_mesh.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

namespace trisect::python {
namespace {

// A mesh file as a mesh: its indices handed over to numpy as they are, its positions laid out as
// an (n, 3) float32 array.
std::unique_ptr<PyMesh> load(const std::filesystem::path& path, ThreadCount threads) {
  Mesh loaded = run_released(one_thread, [&] { return load_mesh(path); });
  const auto vertex_count = static_cast<py::ssize_t>(loaded.positions.size());
  std::vector<float> coordinates(3 * loaded.positions.size());
  for (std::size_t i = 0; i < loaded.positions.size(); ++i)
    for (int axis = 0; axis < 3; ++axis)
      coordinates[3 * i + static_cast<std::size_t>(axis)] = loaded.positions[i][axis];
  const auto face_count = static_cast<py::ssize_t>(loaded.triangle_count());
  const py::array vertices = to_numpy(std::move(coordinates), {vertex_count, 3});
  const py::array faces = to_numpy(std::move(loaded.indices), {face_count, 3});
  return std::make_unique<PyMesh>(vertices, faces, threads);
}

py::tuple corner(const Vec3& v) { return py::make_tuple(v.x, v.y, v.z); }

py::dict info(const PyMesh& mesh) {
  const BvhStatistics stats = statistics(mesh.bvh());
  py::dict result;
  result["triangles"] = mesh.bvh().size();
  result["vertices"] = row_count(mesh.vertices());
  result["nodes"] = stats.node_count;
  result["leaves"] = stats.leaf_count;
  result["depth"] = stats.depth;
  result["sah_cost"] = stats.sah_cost;
  result["sah_cost_lanes"] = stats.sah_cost_lanes;
  result["bytes"] = stats.bytes;
  const Aabb bounds = mesh.bvh().bounds();
  result["bounds"] = mesh.bvh().empty()
                         ? py::object(py::none())
                         : py::object(py::make_tuple(corner(bounds.min), corner(bounds.max)));
  return result;
}

// "Mesh(4 triangles, bounds [0, 0, 0] to [1, 1, 1])", or "Mesh(0 triangles, no bounds)".
std::string mesh_repr(const PyMesh& mesh) {
  std::string text = "Mesh(" + counted(mesh.bvh().size(), "triangle", "triangles");
  if (mesh.bvh().empty()) return text + ", no bounds)";
  const Aabb bounds = mesh.bvh().bounds();
  return text + ", bounds " + point_text(bounds.min) + " to " + point_text(bounds.max) + ")";
}

}  // namespace

void bind_mesh(py::module_& module, MeshClass& mesh) {
  mesh.def(py::init([](py::handle vertices, py::handle faces, ThreadCount threads) {
             return std::make_unique<PyMesh>(vertices, faces, threads);
           }),
           py::arg("vertices"), py::arg("faces"), py::kw_only(), py::arg("threads") = 0,
           "Builds the BVH over `vertices` ((n, 3), a bool, integer or floating-point dtype; "
           "float32 C-contiguous is used without a copy) and `faces` ((m, 3) integers in [0, "
           "n), taken exactly). The arrays are kept: do not change them while the mesh lives. "
           "ValueError for a bad shape, complex vertices, non-integer faces, an index out of "
           "range (named as the array holds it), NaN/infinite coordinates in a used vertex, or a "
           "threads count out of range.")
      .def_property_readonly("vertices", &PyMesh::vertices,
                             "The (n, 3) float32 vertices: the array given when it was float32 "
                             "and C-contiguous (no copy).")
      .def_property_readonly("faces", &PyMesh::faces, "The (m, 3) uint32 faces.")
      .def_property_readonly("info", &info,
                             "A dict: triangles, vertices, nodes, leaves, depth, sah_cost, "
                             "sah_cost_lanes (leaves priced per lane of their groups of four, "
                             "as the builder prices them), bytes of the BVH, and bounds ((min), "
                             "(max)) or None when empty.")
      .def_property_readonly(
          "is_closed",
          [](const PyMesh& self) {
            return run_released(one_thread, [&] { return self.is_closed(); });
          },
          "True when, with vertices welded by exact position and zero-area triangles left out, "
          "every edge belongs to an even number of triangles: the one rule of inside(), "
          "signed_distance() and `trisect info`; a mesh with no triangles is closed.")
      .def(
          "__len__", [](const PyMesh& self) { return self.bvh().size(); }, "Number of triangles.")
      .def("__repr__", &mesh_repr,
           "The triangle count and the bounds, coordinates in their shortest exact form.");
  module.def("load", &load, py::arg("path"), py::kw_only(), py::arg("threads") = 0,
             "Loads an OBJ, PLY or STL file (polygons fan-triangulated in file order: triangle "
             "ids are 0-based in that order) and builds its mesh. OSError naming the file and "
             "line for a missing, unreadable or malformed file.");
}

}  // namespace trisect::python
