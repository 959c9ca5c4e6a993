// CGAL's box intersection and self-intersection over benchmark scenes; see cgal_overlap.hpp.
#include "peers/cgal_overlap.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/box_intersection_d.h>

#include <algorithm>
#include <array>
#include <iterator>

namespace bench::cgal {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Triangle = Kernel::Triangle_3;
using Box = CGAL::Box_intersection_d::Box_with_handle_d<double, 3, const Triangle*>;
using Mesh = CGAL::Surface_mesh<Point>;
using Face = Mesh::Face_index;
}  // namespace

struct OverlapMesh::Impl {
  std::vector<Triangle> triangles;
  Mesh mesh;

  [[nodiscard]] std::vector<Box> boxes() const {
    std::vector<Box> result;
    result.reserve(triangles.size());
    for (const Triangle& t : triangles) result.emplace_back(t.bbox(), &t);
    return result;
  }
};

OverlapMesh::OverlapMesh(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  std::vector<Point> points;
  for (const Vec3& p : scene.positions) points.emplace_back(p.x, p.y, p.z);
  std::vector<std::array<std::size_t, 3>> faces;
  for (std::size_t t = 0; t < scene.size(); ++t) {
    const auto& i = scene.indices;
    impl_->triangles.emplace_back(points[i[3 * t]], points[i[3 * t + 1]], points[i[3 * t + 2]]);
    faces.push_back({i[3 * t], i[3 * t + 1], i[3 * t + 2]});
  }
  CGAL::Polygon_mesh_processing::polygon_soup_to_polygon_mesh(points, faces, impl_->mesh);
}

OverlapMesh::~OverlapMesh() = default;

std::vector<trisect::TrianglePair> OverlapMesh::pairs(const OverlapMesh& other) const {
  std::vector<Box> first = impl_->boxes(), second = other.impl_->boxes();
  std::vector<trisect::TrianglePair> found;
  const Triangle* first_base = impl_->triangles.data();
  const Triangle* second_base = other.impl_->triangles.data();
  CGAL::box_intersection_d(
      first.begin(), first.end(), second.begin(), second.end(), [&](const Box& a, const Box& b) {
        if (CGAL::do_intersect(*a.handle(), *b.handle()))
          found.push_back({static_cast<trisect::TriangleId>(a.handle() - first_base),
                           static_cast<trisect::TriangleId>(b.handle() - second_base)});
      });
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t OverlapMesh::self_intersection_count() const {
  std::vector<std::pair<Face, Face>> found;
  CGAL::Polygon_mesh_processing::self_intersections(impl_->mesh, std::back_inserter(found));
  return found.size();
}

}  // namespace bench::cgal
