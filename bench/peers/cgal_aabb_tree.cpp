// CGAL's AABB tree over a benchmark scene; see cgal_aabb_tree.hpp.
#include "peers/cgal_aabb_tree.hpp"

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <algorithm>
#include <iterator>

namespace bench::cgal {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Triangle = Kernel::Triangle_3;
using Plane = Kernel::Plane_3;
using TriangleIterator = std::vector<Triangle>::const_iterator;
using Primitive = CGAL::AABB_triangle_primitive<Kernel, TriangleIterator>;
using Traits = CGAL::AABB_traits<Kernel, Primitive>;
using Tree = CGAL::AABB_tree<Traits>;
}  // namespace

struct PlaneTree::Impl {
  std::vector<Triangle> triangles;
  Tree tree;
  mutable std::vector<TriangleIterator> primitives;
};

PlaneTree::PlaneTree(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  impl_->triangles.reserve(scene.size());
  const auto point = [](const Vec3& p) { return Point(p.x, p.y, p.z); };
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const trisect::Triangle t = scene.triangle(i);
    impl_->triangles.emplace_back(point(t.a), point(t.b), point(t.c));
  }
  impl_->tree.insert(impl_->triangles.cbegin(), impl_->triangles.cend());
  impl_->tree.build();
}

PlaneTree::~PlaneTree() = default;

std::vector<trisect::TriangleId> PlaneTree::touching(const trisect::Plane& plane) const {
  const Plane query(plane.normal.x, plane.normal.y, plane.normal.z, -double(plane.d));
  impl_->primitives.clear();
  impl_->tree.all_intersected_primitives(query, std::back_inserter(impl_->primitives));
  std::vector<trisect::TriangleId> ids;
  ids.reserve(impl_->primitives.size());
  for (const TriangleIterator& it : impl_->primitives)
    ids.push_back(static_cast<trisect::TriangleId>(it - impl_->triangles.cbegin()));
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace bench::cgal
