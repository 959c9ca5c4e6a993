#pragma once
// CGAL peers of the slice benchmark (only when CMake found CGAL and defined
// TRISECT_BENCH_HAVE_CGAL); the CGAL code lives in cgal_slicer.cpp, in the CGAL peer library, so
// that CGAL's compile options stay off trisect's code.
//
//   MeshSlicer   CGAL::Polygon_mesh_slicer over a CGAL::Surface_mesh built from the scene
//                (kernel Exact_predicates_inexact_constructions_kernel): chained polylines,
//                one plane per call, its AABB tree built in the timed run.
//   Segments per plane are counted as polyline points minus one, summed over polylines.
#include "scenes.hpp"

#include <memory>
#include <span>

namespace bench::cgal {

class MeshSlicer {
 public:
  /// Builds the Surface_mesh (untimed input preparation, like trisect's soup).
  explicit MeshSlicer(const Scene& scene);
  MeshSlicer(const MeshSlicer&) = delete;
  MeshSlicer& operator=(const MeshSlicer&) = delete;
  ~MeshSlicer();

  /// Slices by normal·x = d for each offset: builds the slicer, cuts every plane; returns the
  /// number of segments over all polylines.
  [[nodiscard]] std::size_t slice(const Vec3& normal, std::span<const float> offsets) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::cgal
