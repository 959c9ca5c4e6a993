// `Mesh.boxes`, `Mesh.planes`, `Mesh.spheres`, `Mesh.capsules`, `Mesh.obbs`, `Mesh.frustums`: the
// triangles touching
// each shape, as CSR arrays.

#include "bindings.hpp"
#include "released.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/capsule_query.hpp>
#include <trisect/bvh/frustum_query.hpp>
#include <trisect/bvh/oriented_box_query.hpp>
#include <trisect/math/validate.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace trisect::python {
namespace {

// The answers of a batch flattened: ids one after the other, offsets[i] .. offsets[i + 1]
// those of query i.
struct Flattened {
  std::vector<std::int64_t> ids;
  std::vector<std::int64_t> offsets;
};

// Offsets serially (a prefix sum), then the ids copied in parallel: a batch of small answers
// spends as long here as in a serial copy's memory traffic otherwise.
Flattened flatten(const std::vector<std::vector<TriangleId>>& answers) {
  Flattened flat;
  flat.offsets.resize(answers.size() + 1);
  flat.offsets[0] = 0;
  for (std::size_t i = 0; i < answers.size(); ++i)
    flat.offsets[i + 1] = flat.offsets[i] + static_cast<std::int64_t>(answers[i].size());
  flat.ids.resize(static_cast<std::size_t>(flat.offsets.back()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, answers.size()), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      std::copy(answers[i].begin(), answers[i].end(),
                flat.ids.begin() + static_cast<std::ptrdiff_t>(flat.offsets[i]));
  });
  return flat;
}

Aabb box_of(const float* r) {
  return Aabb::from_corners(Vec3(r[0], r[1], r[2]), Vec3(r[3], r[4], r[5]));
}
Plane plane_of(const float* r) { return {Vec3(r[0], r[1], r[2]), r[3]}; }
Sphere sphere_of(const float* r) { return {Vec3(r[0], r[1], r[2]), r[3]}; }
Capsule capsule_of(const float* r) {
  return {Vec3(r[0], r[1], r[2]), Vec3(r[3], r[4], r[5]), r[6]};
}
Frustum frustum_of(const float* r) {
  Frustum frustum;
  for (Plane& plane : frustum.planes) {
    plane = {Vec3(r[0], r[1], r[2]), r[3]};
    r += 4;
  }
  return frustum;
}

// The batch of `Shape`s in `input` ((k, columns) or one row), answered.
template <class Shape, class Make>
py::object touching(const PyMesh& mesh, py::handle input, py::ssize_t columns, const char* name,
                    Make make_shape, ThreadCount threads) {
  bool single = false;
  const FloatArray rows = float_rows(input, columns, name, true, &single);
  std::vector<Shape> shapes;
  shapes.reserve(row_count(rows));
  for (std::size_t i = 0; i < row_count(rows); ++i) shapes.push_back(make_shape(row(rows, i)));
  Flattened flat = run_released(threads, [&] {
    return flatten(collect_touching_batch(mesh.bvh(), std::span<const Shape>(shapes)));
  });
  py::array ids = to_numpy(std::move(flat.ids));
  if (single) return ids;
  return py::make_tuple(ids, to_numpy(std::move(flat.offsets)));
}

// Defines `Mesh.<name>` for `Shape`s given as rows of `columns` numbers.
template <class Shape>
void def_touching(MeshClass& mesh, const char* name, py::ssize_t columns,
                  Shape (*make_shape)(const float*), const char* doc) {
  mesh.def(
      name,
      [=](const PyMesh& self, py::handle shapes, ThreadCount threads) {
        return touching<Shape>(self, shapes, columns, name, make_shape, threads);
      },
      py::arg(name), py::kw_only(), py::arg("threads") = 0, doc);
}

}  // namespace

void bind_touching(MeshClass& mesh) {
  def_touching<Aabb>(
      mesh, "boxes", 6, box_of,
      "Triangles touching each closed box, rows (x0, y0, z0, x1, y1, z1) with the corners in "
      "any order; sides may be infinite ((0.5, -inf, -inf, inf, inf, inf) is the half-space "
      "x >= 0.5). "
      "For (k, 6) boxes: (ids, offsets), int64, the ascending ids of box i being "
      "ids[offsets[i]:offsets[i + 1]]; for one box of shape (6,): its ids. ValueError for a "
      "NaN coordinate.");
  def_touching<Plane>(
      mesh, "planes", 4, plane_of,
      "Triangles touching each plane n.x = d, rows (nx, ny, nz, d); the normal need not be unit "
      "length. Returns as `boxes` does. ValueError for a zero normal or a value that is not "
      "finite.");
  def_touching<Sphere>(
      mesh, "spheres", 4, sphere_of,
      "Triangles touching each closed ball, rows (cx, cy, cz, r), r >= 0. Returns as `boxes` "
      "does. ValueError for a negative radius or a value that is not finite.");
  def_touching<Capsule>(
      mesh, "capsules", 7, capsule_of,
      "Triangles touching each closed capsule (the points within r of the segment [a, b]), rows "
      "(ax, ay, az, bx, by, bz, r), r >= 0; r = 0 asks which triangles the segment meets. "
      "Decided exactly. Returns as `boxes` does. ValueError for a negative radius or a value "
      "that is not finite.");
  def_touching<OrientedBox>(
      mesh, "obbs", 15, oriented_box_row,
      "Triangles touching each closed oriented box, rows (cx, cy, cz, ux, uy, uz, vx, vy, vz, "
      "wx, wy, wz, hu, hv, hw): the points c + s u + t v + r w with |s| <= hu, |t| <= hv, "
      "|r| <= hw, exactly as the floats give them (axes of any length, not necessarily "
      "orthogonal, but independent). Decided exactly. Returns as `boxes` does. ValueError for a "
      "value that is not finite, a zero axis, a negative half extent or dependent axes.");
  def_touching<Frustum>(
      mesh, "frustums", 24, frustum_of,
      "Triangles touching each closed frustum, rows of six planes (nx, ny, nz, d) one after "
      "the other: the points with nx x + ny y + nz z <= d for all six (normals point out of "
      "the solid: near, far and four sides of a view). Decided exactly. Returns as `boxes` "
      "does. ValueError for a value that is not finite or a zero normal.");
}

}  // namespace trisect::python
