#pragma once
// FCL (the Flexible Collision Library) as the peer for mesh against mesh (overlap and mesh
// distance) and mesh against a capsule or an oriented box (only when CMake found it and defined
// TRISECT_BENCH_HAVE_FCL). The FCL code lives in fcl_mesh.cpp, a library of its own, so that
// FCL's and Eigen's headers stay out of the benchmark files.
//
// Model: fcl::BVHModel<fcl::OBBRSSd> over the scene's triangles (coordinates in double), built
// once. Queries against a second model placed by a rigid transform (R, T as doubles from the
// same 12 floats):
// - overlap: fcl::collide with CollisionRequest{num_max_contacts = every pair,
//   enable_contact = false}: every pair of triangles FCL's floating-point triangle test finds
//   intersecting (approximate: no exact arithmetic);
// - distance: fcl::distance with a default DistanceRequest (no nearest points, no error
//   tolerance): FCL's floating-point triangle-triangle distance over the pairs its OBBRSS walk
//   does not prune; it stops at the first pair in contact.
// Against a shape:
// - capsule: fcl::collide of the model (at the identity; its CollisionObject is made once, with
//   the model) with an fcl::Capsuled of the capsule's radius and axis length |b - a|, placed by
//   the rotation taking FCL's capsule axis (local z) to (b - a) / |b - a| (the identity when
//   a = b) and the translation (a + b) / 2, all in double; CollisionRequest{num_max_contacts =
//   the model's triangle count, enable_contact = false}: every triangle FCL's floating-point
//   capsule-triangle test (libccd's GJK, the default solver) finds touching (approximate: no
//   exact arithmetic).
// - oriented box: the same with an fcl::Boxd of sides 2 h_i |a_i| (h_i the half extents, a_i
//   the axes), placed by the matrix of columns a_i / |a_i| (as given: the float axes of a
//   rounded rotation are not exactly orthonormal, and FCL uses the matrix as it is) and the
//   translation `center`, all in double: every triangle FCL's floating-point box-triangle test
//   (libccd's GJK) finds touching (approximate: no exact arithmetic).
// A box cast (the oriented box translated by `motion`, its first time of contact):
// - fcl::continuousCollide(model, identity, identity, box, start, end, request, result) on the
//   geometries (the model first), with the fcl::Boxd and start placement of the oriented box
//   above, the end placement the same rotation and the translation `center + motion`, and
//   ContinuousCollisionRequestd{ccd_motion_type = CCDM_TRANS, gjk_solver_type = GST_LIBCCD,
//   ccd_solver_type = CCDC_NAIVE, num_max_iterations = 1001, toc_err = 1 / 1000.5}: FCL's naive
//   solver, which runs the discrete fcl::collide of the model with the box (default
//   CollisionRequest: one contact, libccd's GJK) at t = i / 1000, i = 0, 1, ..., 1000, and
//   reports the first sample in contact. So its time is the exact one rounded up to the next
//   thousandth (approximate, and a box could pass through a surface between two samples,
//   which at 1000 samples needs a box thinner than a thousandth of its motion).
//   Conservative advancement (CCDC_CONSERVATIVE_ADVANCEMENT, which the matrix of FCL 0.7.0
//   lists for BVHModel<OBBRSSd> against Boxd) is not used because it does not work in FCL
//   0.7.0. With the model first it finds only the boxes in contact at t = 0 (its first,
//   discrete test): no contact for a box falling straight onto an octahedron or a flat grid,
//   with translation or interpolated motion, with OBBRSS or RSS; on the bunny (69,451
//   triangles), of 100 cubes 1% of the diagonal across moved by 10% of it towards random
//   points, 6 of the naive solver's 28 hits (the 6 touching at t = 0). Its
//   mesh-shape node keeps the shape's bounding volume at the origin instead of at the shape's
//   placement and takes the motion bound's normal from a triangle's corner; it also copies
//   the model and rebuilds its tree at every step (0.69 s a cast on the bunny). With the box
//   first it recurses without end and overflows the stack. Box against a Boxd slab does work.
//   The polynomial solver takes two BVHModels and rewrites their vertices; ray shooting is not
//   implemented.
#include "scenes.hpp"

#include <trisect/math/capsule.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/transform.hpp>
#include <trisect/nearest/mesh_distance.hpp>

#include <cstddef>
#include <memory>
#include <optional>

namespace bench::fcl_peer {

class Model {
 public:
  explicit Model(const Scene& scene);
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model();

  /// The number of triangle pairs FCL reports between this model (at the identity) and
  /// `other` placed by `other_to_this`.
  [[nodiscard]] std::size_t count_pairs(const Model& other,
                                        const trisect::Transform& other_to_this) const;

  /// The distance FCL finds between this model (at the identity) and `other` placed by
  /// `other_to_this`, with the triangles it reports (FCL's primitive ids b1, b2).
  [[nodiscard]] trisect::MeshDistance distance(const Model& other,
                                               const trisect::Transform& other_to_this) const;

  /// The number of triangles FCL reports touching `capsule` (this model at the identity).
  [[nodiscard]] std::size_t count_touching(const trisect::Capsule& capsule) const;

  /// The number of triangles FCL reports touching `box` (this model at the identity).
  [[nodiscard]] std::size_t count_touching(const trisect::OrientedBox& box) const;

  /// The time FCL reports for the first contact of `box` translated by `motion` (t in [0, 1])
  /// with this model (at the identity), or nothing when it reports none.
  [[nodiscard]] std::optional<double> time_of_contact(const trisect::OrientedBox& box,
                                                      const trisect::Vec3& motion) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::fcl_peer
