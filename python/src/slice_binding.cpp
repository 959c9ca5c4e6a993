// `Mesh.slice` and the `Contour` class.

#include "bindings.hpp"
#include "released.hpp"
#include "repr.hpp"

#include <trisect/slice/slice.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace trisect::python {
namespace {

py::array contour_points(const Contour& contour) {
  std::vector<float> coordinates;
  coordinates.reserve(3 * contour.points.size());
  for (const Vec3& point : contour.points)
    coordinates.insert(coordinates.end(), {point.x, point.y, point.z});
  return to_numpy(std::move(coordinates), {static_cast<py::ssize_t>(contour.points.size()), 3});
}

py::array contour_triangles(const Contour& contour) {
  return to_numpy(std::vector<std::int64_t>(contour.triangles.begin(), contour.triangles.end()));
}

// "Contour(closed, 4 points, length 4, area 1)".
std::string contour_repr(const Contour& contour) {
  return std::string("Contour(") + (contour.closed ? "closed" : "open") + ", " +
         counted(contour.points.size(), "point", "points") + ", length " +
         shortest(contour.length) + ", area " + shortest(contour.area) + ")";
}

py::list slice_mesh(const PyMesh& mesh, py::handle normal, py::handle offsets,
                    ThreadCount threads) {
  const FloatArray direction = float_numbers(normal, {3}, "normal");
  const FloatArray at = float_values(offsets, "offsets");
  const Vec3 n(direction.data()[0], direction.data()[1], direction.data()[2]);
  const std::span<const float> values(at.data(), static_cast<std::size_t>(at.size()));
  std::vector<Section> sections = run_released(threads, [&] {
    SliceOptions options;
    options.threads = threads.value;
    options.bvh = &mesh.bvh();
    return slice(mesh.soup(), n, values, options);
  });
  py::list planes;
  for (Section& section : sections) {
    py::list contours;
    for (Contour& contour : section.contours) contours.append(py::cast(std::move(contour)));
    planes.append(contours);
  }
  return planes;
}

}  // namespace

void bind_slice(py::module_& module, MeshClass& mesh) {
  py::class_<Contour>(module, "Contour",
                      "One chain of section segments in a plane (see Mesh.slice).")
      .def_readonly("closed", &Contour::closed,
                    "True when the chain comes back to its first segment.")
      .def_property_readonly("points", &contour_points,
                             "(k, 3) float32 points in order; a closed contour's last segment "
                             "returns to the first point.")
      .def_property_readonly("triangles", &contour_triangles,
                             "int64 ids: triangles[i] is the triangle whose segment runs from "
                             "points[i] to the next point (k ids when closed, k - 1 when open).")
      .def_readonly("length", &Contour::length, "Sum of the segment lengths.")
      .def_readonly("area", &Contour::area,
                    "Signed area seen from the side the normal points to (counter-clockwise "
                    "positive); 0 for an open contour.")
      .def("__repr__", &contour_repr,
           "Closed or open, the number of points, the length and the area (shortest exact "
           "form).");
  mesh.def("slice", &slice_mesh, py::arg("normal"), py::arg("offsets"), py::kw_only(),
           py::arg("threads") = 0,
           "Sections by the planes normal . x = d for each d in `offsets`, in the order given: a "
           "list per plane of its contours (Contour), sorted by their smallest triangle id. A "
           "vertex with n.v < d is below, otherwise above (on the plane counts as above); "
           "contours chain segments across edges shared by exactly two cut triangles, with no "
           "tolerance; on a closed outward-facing mesh outer boundaries run counter-clockwise "
           "seen from the side n points to. The normal is exactly three numbers (shape (3,)). "
           "ValueError for a normal of another shape, a zero or non-finite normal, or a "
           "non-finite offset.");
}

}  // namespace trisect::python
