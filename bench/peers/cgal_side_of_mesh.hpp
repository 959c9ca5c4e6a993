#pragma once
// CGAL's Side_of_triangle_mesh as the peer of trisect::side_of (only when CMake found CGAL and
// defined TRISECT_BENCH_HAVE_CGAL), in the CGAL library of bench/ (see cgal_aabb_tree.hpp for
// why CGAL code lives apart).
//
// Kernel: Exact_predicates_inexact_constructions_kernel (Epick). The mesh is a
// CGAL::Surface_mesh made from the scene's indexed triangles (orient_polygon_soup, then
// polygon_soup_to_polygon_mesh); the constructor throws std::invalid_argument unless it holds
// every triangle and is closed. Side_of_triangle_mesh builds its AABB tree over the faces on its
// first query; the constructor makes that query, so no timed query builds it. A query shoots rays
// in seeded random directions until one crosses no edge or vertex, counting crossings with exact
// predicates: ON_BOUNDED_SIDE (inside), ON_UNBOUNDED_SIDE (outside), or ON_BOUNDARY when the
// point lies on a face.
#include "scenes.hpp"

#include <trisect/nearest/inside.hpp>

#include <memory>

namespace bench::cgal {

class SideOfMesh {
 public:
  /// The scene as a Surface_mesh and its Side_of_triangle_mesh, its tree built.
  explicit SideOfMesh(const Scene& scene);
  SideOfMesh(const SideOfMesh&) = delete;
  SideOfMesh& operator=(const SideOfMesh&) = delete;
  ~SideOfMesh();

  /// CGAL's answer in trisect's terms: inside, outside, or `surface` for ON_BOUNDARY. Safe to
  /// call from several threads at once.
  [[nodiscard]] trisect::PointSide side(const Vec3& point) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::cgal
