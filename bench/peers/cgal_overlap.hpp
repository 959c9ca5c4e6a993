#pragma once
// CGAL as a peer for mesh-vs-mesh overlap and self-intersection (only when CMake found CGAL and
// defined TRISECT_BENCH_HAVE_CGAL), in the CGAL library of bench/ (see cgal_aabb_tree.hpp for
// why CGAL code lives apart).
//
// Kernel: Exact_predicates_inexact_constructions_kernel (Epick): exact predicates, so CGAL
// answers the same question as trisect and reports the same pairs.
//   pairs           CGAL::box_intersection_d over one Box_with_handle_d per triangle of each
//                   mesh (boxes made per call, as box_intersection_d reorders them), then
//                   CGAL::do_intersect(Triangle_3, Triangle_3) on each candidate pair; sorted.
//   self            CGAL::Polygon_mesh_processing::self_intersections on a Surface_mesh built
//                   once from the scene (faces in input order).
#include "scenes.hpp"

#include <trisect/overlap/overlap.hpp>

#include <memory>
#include <vector>

namespace bench::cgal {

class OverlapMesh {
 public:
  /// The scene's triangles in input order; also as a Surface_mesh for `self_intersections`.
  explicit OverlapMesh(const Scene& scene);
  OverlapMesh(const OverlapMesh&) = delete;
  OverlapMesh& operator=(const OverlapMesh&) = delete;
  ~OverlapMesh();

  /// Every intersecting pair (triangle of this mesh, triangle of `other`), sorted.
  [[nodiscard]] std::vector<trisect::TrianglePair> pairs(const OverlapMesh& other) const;

  /// The number of self-intersecting face pairs PMP::self_intersections reports.
  [[nodiscard]] std::size_t self_intersection_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::cgal
