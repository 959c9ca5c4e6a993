// `Mesh.closest_points`, `Mesh.k_nearest`, `Mesh.cast_boxes`, `Mesh.inside` and
// `Mesh.signed_distance`.

#include "bindings.hpp"
#include "released.hpp"

#include <trisect/nearest/box_cast.hpp>
#include <trisect/nearest/closest_point.hpp>
#include <trisect/nearest/inside.hpp>
#include <trisect/nearest/k_nearest.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace trisect::python {
namespace {

// Closest points as arrays: distance (inf when none counts), ids (-1), points (NaN).
struct ClosestArrays {
  std::vector<double> distance;
  std::vector<std::int64_t> ids;
  std::vector<float> points;
};

ClosestArrays closest(const Bvh& bvh, std::span<const Vec3> points, float max_distance) {
  std::vector<std::optional<ClosestPoint>> answers(points.size());
  closest_points(bvh, points, answers, max_distance);
  ClosestArrays out{std::vector<double>(points.size(), std::numeric_limits<double>::infinity()),
                    std::vector<std::int64_t>(points.size(), -1),
                    std::vector<float>(3 * points.size(), std::numeric_limits<float>::quiet_NaN())};
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (!answers[i]) continue;
    out.distance[i] = answers[i]->distance;
    out.ids[i] = answers[i]->id;
    for (std::size_t axis = 0; axis < 3; ++axis)
      out.points[3 * i + axis] = answers[i]->point[static_cast<int>(axis)];
  }
  return out;
}

py::tuple closest_binding(const PyMesh& mesh, py::handle points, float max_distance,
                          ThreadCount threads) {
  const FloatArray rows = float_rows(points, 3, "points");
  ClosestArrays out =
      run_released(threads, [&] { return closest(mesh.bvh(), as_points(rows), max_distance); });
  const auto count = static_cast<py::ssize_t>(row_count(rows));
  return py::make_tuple(to_numpy(std::move(out.distance)), to_numpy(std::move(out.ids)),
                        to_numpy(std::move(out.points), {count, 3}));
}

// The k nearest of every point in CSR form: distances and ids of point i at
// [offsets[i], offsets[i + 1]), nearest first.
py::tuple k_nearest_binding(const PyMesh& mesh, py::handle points, std::int64_t k,
                            float max_distance, ThreadCount threads) {
  if (k < 1)
    throw InvalidInput("k_nearest: k is " + std::to_string(k) + " (it must be at least 1)");
  const FloatArray rows = float_rows(points, 3, "points");
  std::vector<double> distances;
  std::vector<std::int64_t> ids, offsets{0};
  run_released(threads, [&] {
    const std::vector<std::vector<ClosestPoint>> answers =
        k_nearest_batch(mesh.bvh(), as_points(rows), static_cast<std::size_t>(k), max_distance);
    for (const std::vector<ClosestPoint>& nearest : answers) {
      for (const ClosestPoint& answer : nearest) {
        distances.push_back(answer.distance);
        ids.push_back(answer.id);
      }
      offsets.push_back(static_cast<std::int64_t>(ids.size()));
    }
  });
  return py::make_tuple(to_numpy(std::move(distances)), to_numpy(std::move(ids)),
                        to_numpy(std::move(offsets)));
}

// Box casts: (t, ids), t float64 (the nearest float to the exact time; inf when none) and ids
// int64 (-1 when none).
py::tuple cast_boxes_binding(const PyMesh& mesh, py::handle boxes, py::handle motions,
                             ThreadCount threads) {
  const FloatArray box_rows = float_rows(boxes, 15, "boxes");
  const FloatArray motion_rows = float_rows(motions, 3, "motions");
  std::vector<OrientedBox> shapes;
  for (std::size_t i = 0; i < row_count(box_rows); ++i)
    shapes.push_back(oriented_box_row(row(box_rows, i)));
  std::vector<double> times(shapes.size(), std::numeric_limits<double>::infinity());
  std::vector<std::int64_t> ids(shapes.size(), -1);
  run_released(threads, [&] {
    const std::vector<std::optional<BoxCastHit>> hits =
        cast_boxes(mesh.bvh(), shapes, as_points(motion_rows));
    for (std::size_t i = 0; i < hits.size(); ++i) {
      if (!hits[i]) continue;
      times[i] = hits[i]->t;
      ids[i] = hits[i]->id;
    }
  });
  return py::make_tuple(to_numpy(std::move(times)), to_numpy(std::move(ids)));
}

py::array inside_binding(const PyMesh& mesh, py::handle points, ThreadCount threads) {
  const FloatArray rows = float_rows(points, 3, "points");
  std::vector<std::uint8_t> codes = run_released(threads, [&] {
    mesh.require_closed();
    std::vector<PointSide> sides(row_count(rows));
    sides_of(mesh.bvh(), as_points(rows), sides);
    std::vector<std::uint8_t> values(sides.size());
    std::transform(sides.begin(), sides.end(), values.begin(),
                   [](PointSide side) { return static_cast<std::uint8_t>(side); });
    return values;
  });
  return to_numpy(std::move(codes));
}

py::array signed_distance_binding(const PyMesh& mesh, py::handle points, ThreadCount threads) {
  const FloatArray rows = float_rows(points, 3, "points");
  const std::span<const Vec3> queries = as_points(rows);
  std::vector<double> distances(queries.size());
  run_released(threads, [&] {
    mesh.require_closed();
    // signed_distance(bvh, point) is the closest distance signed by side_of: both batched.
    std::vector<PointSide> sides(queries.size());
    sides_of(mesh.bvh(), queries, sides);
    std::vector<std::optional<ClosestPoint>> nearest(queries.size());
    closest_points(mesh.bvh(), queries, nearest);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const double unsigned_distance =
          nearest[i] ? nearest[i]->distance : std::numeric_limits<double>::infinity();
      distances[i] = sides[i] == PointSide::surface  ? 0.0
                     : sides[i] == PointSide::inside ? -unsigned_distance
                                                     : unsigned_distance;
    }
  });
  return to_numpy(std::move(distances));
}

}  // namespace

void bind_nearest(py::module_& module, MeshClass& mesh) {
  module.attr("OUTSIDE") = static_cast<int>(PointSide::outside);
  module.attr("INSIDE") = static_cast<int>(PointSide::inside);
  module.attr("SURFACE") = static_cast<int>(PointSide::surface);
  mesh.def("closest_points", &closest_binding, py::arg("points"),
           py::arg("max_distance") = std::numeric_limits<float>::infinity(), py::kw_only(),
           py::arg("threads") = 0,
           "For each (k, 3) point: (distance, ids, points). ids[i] (int64) is the smallest id "
           "among the triangles at the smallest exact distance, counting only those within "
           "max_distance (-1 when none); distance (float64) to within a relative 2^-24, exactly 0 "
           "on the triangle (inf when none); points (k, 3) float32 the nearest point of that "
           "triangle (NaN when none). ValueError for a non-finite point or a negative or NaN "
           "max_distance.");
  mesh.def("k_nearest", &k_nearest_binding, py::arg("points"), py::arg("k"),
           py::arg("max_distance") = std::numeric_limits<float>::infinity(), py::kw_only(),
           py::arg("threads") = 0,
           "For each (n, 3) point, its k nearest triangles within max_distance, in CSR form: "
           "(distance, ids, offsets), point i's at [offsets[i], offsets[i + 1]) (offsets has n + 1 "
           "entries), by ascending exact distance, equal distances by ascending id; fewer than k "
           "where fewer count. distance (float64) and ids (int64) as closest_points gives them; "
           "the first of each point is closest_points' answer. ValueError for k < 1, a non-finite "
           "point or a negative or NaN max_distance.");
  mesh.def("cast_boxes", &cast_boxes_binding, py::arg("boxes"), py::arg("motions"), py::kw_only(),
           py::arg("threads") = 0,
           "Casts each oriented box (rows of 15 as Mesh.obbs takes them) along its motion (rows "
           "of 3): (t, ids), t (float64) the first time in [0, 1] at which box + t motion touches "
           "a triangle, decided exactly and rounded to the nearest float (0 when it touches one "
           "at the start; inf when none), ids (int64) the smallest id touched then (-1 when "
           "none). ValueError for an invalid box, a motion that is not finite, or row counts "
           "that differ.");
  mesh.def("inside", &inside_binding, py::arg("points"), py::kw_only(), py::arg("threads") = 0,
           "For each (k, 3) point, uint8: SURFACE (2) on a triangle, else INSIDE (1) or OUTSIDE "
           "(0) by the even-odd rule, decided exactly. ValueError when the mesh is not closed "
           "(vertices welded by exact position, zero-area triangles left out, some edge used by "
           "an odd number of triangles; the message names one) or a point is not finite.");
  mesh.def("signed_distance", &signed_distance_binding, py::arg("points"), py::kw_only(),
           py::arg("threads") = 0,
           "For each (k, 3) point, float64: the distance to the mesh (as closest_points), "
           "negative inside, 0 on the surface, inf for an empty mesh. The mesh must be closed "
           "(ValueError otherwise, as for inside).");
}

}  // namespace trisect::python
