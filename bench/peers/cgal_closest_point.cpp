// CGAL's AABB tree closest-point query over a benchmark scene; see cgal_closest_point.hpp.
#include "peers/cgal_closest_point.hpp"

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <cmath>
#include <vector>

namespace bench::cgal {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Triangle = Kernel::Triangle_3;
using TriangleIterator = std::vector<Triangle>::const_iterator;
using Primitive = CGAL::AABB_triangle_primitive<Kernel, TriangleIterator>;
using Traits = CGAL::AABB_traits<Kernel, Primitive>;
using Tree = CGAL::AABB_tree<Traits>;
}  // namespace

struct ClosestPointTree::Impl {
  std::vector<Triangle> triangles;
  Tree tree;
};

ClosestPointTree::ClosestPointTree(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  impl_->triangles.reserve(scene.size());
  const auto point = [](const Vec3& p) { return Point(p.x, p.y, p.z); };
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const trisect::Triangle t = scene.triangle(i);
    impl_->triangles.emplace_back(point(t.a), point(t.b), point(t.c));
  }
  impl_->tree.insert(impl_->triangles.cbegin(), impl_->triangles.cend());
  impl_->tree.build();
  impl_->tree.accelerate_distance_queries();
}

ClosestPointTree::~ClosestPointTree() = default;

trisect::ClosestPoint ClosestPointTree::closest(const Vec3& point) const {
  const Point query(point.x, point.y, point.z);
  const auto [nearest, primitive] = impl_->tree.closest_point_and_primitive(query);
  const double distance = std::sqrt(CGAL::squared_distance(query, nearest));
  return {static_cast<trisect::TriangleId>(primitive - impl_->triangles.cbegin()), distance,
          Vec3(static_cast<float>(nearest.x()), static_cast<float>(nearest.y()),
               static_cast<float>(nearest.z()))};
}

}  // namespace bench::cgal
