#pragma once
// CGAL's AABB tree as a peer for plane queries (only when CMake found CGAL and defined
// TRISECT_BENCH_HAVE_CGAL). The CGAL code lives in cgal_aabb_tree.cpp, a library of its own, so
// that the compile options CGAL imposes (-frounding-math) stay off trisect's code in the
// benchmark.
//
// Kernel: Exact_predicates_inexact_constructions_kernel (Epick). Its predicates are filtered
// and exact, like trisect's, so both sides answer the same question exactly and report the same
// triangles; Simple_cartesian<double> would be a little faster and occasionally wrong. Input
// floats convert to doubles exactly; trisect's plane n.x = d becomes CGAL's
// n.x * X + n.y * Y + n.z * Z - d = 0, also exactly.
//
// The tree holds CGAL::AABB_triangle_primitive over a std::vector of Triangle_3 in input order,
// so a primitive id is an iterator whose offset from begin() is the triangle's input id. The
// query is AABB_tree::all_intersected_primitives(Plane_3), its answer sorted by id.
#include "scenes.hpp"

#include <trisect/math/plane.hpp>

#include <memory>
#include <vector>

namespace bench::cgal {

class PlaneTree {
 public:
  /// Builds the tree over the scene's triangles (AABB_tree::build, not left to the first query).
  explicit PlaneTree(const Scene& scene);
  PlaneTree(const PlaneTree&) = delete;
  PlaneTree& operator=(const PlaneTree&) = delete;
  ~PlaneTree();

  /// Input ids of the triangles touching `plane`, sorted ascending.
  [[nodiscard]] std::vector<trisect::TriangleId> touching(const trisect::Plane& plane) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::cgal
