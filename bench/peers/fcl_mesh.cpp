// FCL's OBBRSS mesh against mesh (collision, distance) and against a capsule or an oriented box
// for the benchmarks; see fcl_mesh.hpp.
#include "peers/fcl_mesh.hpp"

#include <fcl/fcl.h>

#include <limits>
#include <utility>

namespace bench::fcl_peer {

struct Model::Impl {
  std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> model;
  std::size_t triangles = 0;
  // The model at the identity, made once: making a CollisionObject of a BVHModel computes its
  // box over every vertex, so a user asking many shape queries keeps it.
  std::unique_ptr<fcl::CollisionObjectd> object;
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
  impl_->triangles = scene.size();
  impl_->object =
      std::make_unique<fcl::CollisionObjectd>(impl_->model, fcl::Transform3d::Identity());
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

/// FCL's capsule (axis along its local z, centred at its origin) placed on the segment [a, b].
fcl::CollisionObjectd capsule_object(const trisect::Capsule& capsule) {
  const fcl::Vector3d a(capsule.a.x, capsule.a.y, capsule.a.z);
  const fcl::Vector3d b(capsule.b.x, capsule.b.y, capsule.b.z);
  const fcl::Vector3d axis = b - a;
  const double length = axis.norm();
  fcl::Transform3d placement = fcl::Transform3d::Identity();
  if (length > 0)
    placement.linear() =
        fcl::Quaterniond::FromTwoVectors(fcl::Vector3d::UnitZ(), axis / length).toRotationMatrix();
  placement.translation() = 0.5 * (a + b);
  return fcl::CollisionObjectd(std::make_shared<fcl::Capsuled>(capsule.radius, length), placement);
}

/// FCL's box (centred at its origin, sides along its local axes) for the oriented box, sides
/// 2 h_i |a_i|, and its placement: rotation columns a_i / |a_i|, translation the centre.
struct PlacedBox {
  std::shared_ptr<fcl::Boxd> geometry;
  fcl::Transform3d placement;
};

PlacedBox placed_box(const trisect::OrientedBox& box) {
  fcl::Vector3d sides;
  fcl::Transform3d placement = fcl::Transform3d::Identity();
  fcl::Matrix3d rotation;
  for (int i = 0; i < 3; ++i) {
    const trisect::Vec3& a = box.axes[i];
    const fcl::Vector3d axis(a.x, a.y, a.z);
    const double length = axis.norm();
    sides[i] = 2.0 * double(box.half_extents[i]) * length;
    rotation.col(i) = axis / length;
  }
  placement.linear() = rotation;
  placement.translation() = fcl::Vector3d(box.center.x, box.center.y, box.center.z);
  return {std::make_shared<fcl::Boxd>(sides), placement};
}

/// FCL's box placed on the oriented box (`placed_box`).
fcl::CollisionObjectd box_object(const trisect::OrientedBox& box) {
  PlacedBox placed = placed_box(box);
  return fcl::CollisionObjectd(std::move(placed.geometry), placed.placement);
}

/// The number of triangles FCL reports touching `shape` (placed) with the model's object.
std::size_t count_touching_object(const fcl::CollisionObjectd& model,
                                  const fcl::CollisionObjectd& shape, std::size_t triangles) {
  fcl::CollisionRequestd request(triangles, false);
  fcl::CollisionResultd result;
  fcl::collide(&model, &shape, request, result);
  return result.numContacts();
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

std::size_t Model::count_touching(const trisect::Capsule& capsule) const {
  return count_touching_object(*impl_->object, capsule_object(capsule), impl_->triangles);
}

std::size_t Model::count_touching(const trisect::OrientedBox& box) const {
  return count_touching_object(*impl_->object, box_object(box), impl_->triangles);
}

std::optional<double> Model::time_of_contact(const trisect::OrientedBox& box,
                                             const trisect::Vec3& motion) const {
  const PlacedBox placed = placed_box(box);
  fcl::Transform3d end = placed.placement;
  end.translation() += fcl::Vector3d(motion.x, motion.y, motion.z);
  // The naive solver at t = i / 1000 (see fcl_mesh.hpp: FCL 0.7.0's conservative advancement
  // finds no contact between a mesh and a shape). Its sample count is
  // min(num_max_iterations, ceil(1 / toc_err)) = 1001.
  fcl::ContinuousCollisionRequestd request;
  request.ccd_motion_type = fcl::CCDM_TRANS;
  request.gjk_solver_type = fcl::GST_LIBCCD;
  request.ccd_solver_type = fcl::CCDC_NAIVE;
  request.num_max_iterations = 1001;
  request.toc_err = 1.0 / 1000.5;
  fcl::ContinuousCollisionResultd result;
  const fcl::Transform3d identity = fcl::Transform3d::Identity();
  fcl::continuousCollide<double>(impl_->model.get(), identity, identity, placed.geometry.get(),
                                 placed.placement, end, request, result);
  if (!result.is_collide) return std::nullopt;
  return result.time_of_contact;
}

}  // namespace bench::fcl_peer
