// CGAL's Polygon_mesh_slicer over a Surface_mesh; see cgal_slicer.hpp.
#include "peers/cgal_slicer.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_slicer.h>
#include <CGAL/Surface_mesh.h>

#include <vector>

namespace bench::cgal {
namespace {
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Mesh = CGAL::Surface_mesh<Point>;
using Polyline = std::vector<Point>;
}  // namespace

struct MeshSlicer::Impl {
  Mesh mesh;
};

MeshSlicer::MeshSlicer(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  std::vector<Mesh::Vertex_index> vertices;
  vertices.reserve(scene.positions.size());
  for (const Vec3& p : scene.positions)
    vertices.push_back(impl_->mesh.add_vertex(Point(p.x, p.y, p.z)));
  for (std::size_t t = 0; t < scene.size(); ++t)  // faces Surface_mesh refuses are left out
    impl_->mesh.add_face(vertices[scene.indices[3 * t]], vertices[scene.indices[3 * t + 1]],
                         vertices[scene.indices[3 * t + 2]]);
}

MeshSlicer::~MeshSlicer() = default;

std::size_t MeshSlicer::slice(const Vec3& normal, std::span<const float> offsets) const {
  CGAL::Polygon_mesh_slicer<Mesh, Kernel> slicer(impl_->mesh);
  std::size_t segments = 0;
  std::vector<Polyline> polylines;
  for (float d : offsets) {
    polylines.clear();
    slicer(Kernel::Plane_3(normal.x, normal.y, normal.z, -double(d)),
           std::back_inserter(polylines));
    for (const Polyline& polyline : polylines) segments += polyline.size() - 1;
  }
  return segments;
}

}  // namespace bench::cgal
