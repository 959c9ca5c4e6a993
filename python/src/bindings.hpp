#pragma once
// The parts of the module, each defined in its own file and called by module.cpp.

#include "mesh.hpp"

#include <pybind11/pybind11.h>

namespace trisect::python {

/// The Python class of `PyMesh`.
using MeshClass = py::class_<PyMesh>;

/// `Mesh(vertices, faces)`, `load(path)`, `info`, `vertices`, `faces` (mesh_binding.cpp).
void bind_mesh(py::module_& module, MeshClass& mesh);
/// `Mesh.boxes`, `Mesh.planes`, `Mesh.spheres` (touching_binding.cpp).
void bind_touching(MeshClass& mesh);
/// `Mesh.rays`, `Mesh.any_hits` (ray_binding.cpp).
void bind_rays(MeshClass& mesh);
/// `Mesh.slice` and the `Contour` class (slice_binding.cpp).
void bind_slice(py::module_& module, MeshClass& mesh);
/// `overlap`, `Mesh.self_intersections`, `mesh_distance` (overlap_binding.cpp).
void bind_overlap(py::module_& module, MeshClass& mesh);
/// `Mesh.closest_points`, `Mesh.inside`, `Mesh.signed_distance` (nearest_binding.cpp).
void bind_nearest(py::module_& module, MeshClass& mesh);
/// The `Broadphase` class (broadphase_binding.cpp).
void bind_broadphase(py::module_& module);
/// `_cpp_seconds`, the C++ side of the overhead benchmark (bench_binding.cpp).
void bind_bench(py::module_& module);

}  // namespace trisect::python
