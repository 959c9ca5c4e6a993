// CGAL's Side_of_triangle_mesh over a benchmark scene; see cgal_side_of_mesh.hpp.
#include "peers/cgal_side_of_mesh.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/orient_polygon_soup.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench::cgal {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Mesh = CGAL::Surface_mesh<Point>;
using Side = CGAL::Side_of_triangle_mesh<Mesh, Kernel>;
}  // namespace

struct SideOfMesh::Impl {
  Mesh mesh;
  std::optional<Side> side;
};

SideOfMesh::SideOfMesh(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  std::vector<Point> points;
  points.reserve(scene.positions.size());
  for (const Vec3& p : scene.positions) points.emplace_back(p.x, p.y, p.z);
  std::vector<std::array<std::size_t, 3>> faces;
  faces.reserve(scene.size());
  for (std::size_t t = 0; t < scene.size(); ++t) {
    const auto& i = scene.indices;
    faces.push_back({i[3 * t], i[3 * t + 1], i[3 * t + 2]});
  }
  // The scenes' triangles need not be oriented consistently (scenes::cube_sphere's are not), and
  // polygon_soup_to_polygon_mesh then drops faces silently (its precondition is not checked
  // under NDEBUG): orient them first, and refuse a mesh that is not the whole closed scene.
  namespace PMP = CGAL::Polygon_mesh_processing;
  PMP::orient_polygon_soup(points, faces);
  PMP::polygon_soup_to_polygon_mesh(points, faces, impl_->mesh);
  if (impl_->mesh.number_of_faces() != scene.size() || !CGAL::is_closed(impl_->mesh))
    throw std::invalid_argument("cgal side_of: " + scene.name +
                                " is not a closed polygon mesh (Surface_mesh of " +
                                std::to_string(impl_->mesh.number_of_faces()) + " faces)");
  impl_->side.emplace(impl_->mesh);
  (void)side(scene.bounds().center());  // builds the tree
}

SideOfMesh::~SideOfMesh() = default;

trisect::PointSide SideOfMesh::side(const Vec3& point) const {
  switch ((*impl_->side)(Point(point.x, point.y, point.z))) {
    case CGAL::ON_BOUNDED_SIDE:
      return trisect::PointSide::inside;
    case CGAL::ON_UNBOUNDED_SIDE:
      return trisect::PointSide::outside;
    default:
      return trisect::PointSide::surface;
  }
}

}  // namespace bench::cgal
