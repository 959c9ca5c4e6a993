// FCL's OBBRSS mesh against mesh (collision, distance) for the benchmarks; see fcl_mesh.hpp.
#include "peers/fcl_mesh.hpp"

#include <fcl/fcl.h>

#include <limits>

namespace bench::fcl_peer {

struct Model::Impl {
  std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> model;
};

Model::Model(const Scene& scene) : impl_(std::make_unique<Impl>()) {
  std::vector<fcl::Vector3d> points;
  points.reserve(scene.positions.size());
  for (const Vec3& p : scene.positions) points.emplace_back(p.x, p.y, p.z);
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(scene.size());
  for (std::size_t t = 0; t < scene.size(); ++t)
    triangles.emplace_back(scene.indices[3 * t], scene.indices[3 * t + 1],
                           scene.indices[3 * t + 2]);
  impl_->model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  impl_->model->beginModel();
  impl_->model->addSubModel(points, triangles);
  impl_->model->endModel();
}

Model::~Model() = default;

namespace {

/// The rigid placement R·x + T of the 12 floats, in double.
fcl::Transform3d placement_of(const trisect::Transform& transform) {
  fcl::Transform3d placement = fcl::Transform3d::Identity();
  fcl::Matrix3d rotation;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) rotation(r, c) = transform.rows[std::size_t(4 * r + c)];
    placement.translation()[r] = transform.rows[std::size_t(4 * r + 3)];
  }
  placement.linear() = rotation;
  return placement;
}

}  // namespace

std::size_t Model::count_pairs(const Model& other, const trisect::Transform& other_to_this) const {
  const fcl::CollisionObjectd first(impl_->model, fcl::Transform3d::Identity());
  const fcl::CollisionObjectd second(other.impl_->model, placement_of(other_to_this));
  fcl::CollisionRequestd request(std::numeric_limits<int>::max() / 2, false);
  fcl::CollisionResultd result;
  fcl::collide(&first, &second, request, result);
  return result.numContacts();
}

trisect::MeshDistance Model::distance(const Model& other,
                                      const trisect::Transform& other_to_this) const {
  const fcl::CollisionObjectd first(impl_->model, fcl::Transform3d::Identity());
  const fcl::CollisionObjectd second(other.impl_->model, placement_of(other_to_this));
  const fcl::DistanceRequestd request;
  fcl::DistanceResultd result;
  fcl::distance(&first, &second, request, result);
  return {static_cast<trisect::TriangleId>(result.b1), static_cast<trisect::TriangleId>(result.b2),
          result.min_distance};
}

}  // namespace bench::fcl_peer
