#pragma once
// CGAL's AABB tree as the peer of trisect::closest_point (only when CMake found CGAL and defined
// TRISECT_BENCH_HAVE_CGAL), in the CGAL library of bench/ (see cgal_aabb_tree.hpp for why CGAL
// code lives apart).
//
// Kernel: Exact_predicates_inexact_constructions_kernel (Epick). The tree holds
// CGAL::AABB_triangle_primitive over a std::vector of Triangle_3 in input order (AABB_traits),
// so a primitive id's offset from begin() is the triangle's input id. It is built, with the
// k-d tree that seeds its distance queries (accelerate_distance_queries), before any query. A
// query is AABB_tree::closest_point_and_primitive: the nearest point is a double construction,
// the distance the square root of its squared distance to the query point, in double.
#include "scenes.hpp"

#include <trisect/nearest/closest_point.hpp>

#include <memory>

namespace bench::cgal {

class ClosestPointTree {
 public:
  /// Builds the tree and its distance-query k-d tree over the scene's triangles.
  explicit ClosestPointTree(const Scene& scene);
  ClosestPointTree(const ClosestPointTree&) = delete;
  ClosestPointTree& operator=(const ClosestPointTree&) = delete;
  ~ClosestPointTree();

  /// The triangle nearest `point` as CGAL finds it (id, distance in double, nearest point
  /// rounded to float). Safe to call from several threads at once.
  [[nodiscard]] trisect::ClosestPoint closest(const Vec3& point) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::cgal
