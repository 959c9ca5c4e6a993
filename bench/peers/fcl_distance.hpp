#pragma once
// FCL (the Flexible Collision Library) as the peer of trisect::mesh_distance (only when CMake
// found it and defined TRISECT_BENCH_HAVE_FCL), in the FCL library of bench/ (see
// fcl_overlap.hpp for why FCL code lives apart).
//
// Model: fcl::BVHModel<fcl::OBBRSSd> over the scene's triangles (coordinates in double), built
// once, as fcl_overlap.hpp builds it. Query: fcl::distance of the model (at the identity)
// against a second one placed by a rigid transform (R, T as doubles from the same 12 floats),
// with a default DistanceRequest (no nearest points, no error tolerance): FCL's floating-point
// triangle-triangle distance over the pairs its OBBRSS walk does not prune.
#include "scenes.hpp"

#include <trisect/math/transform.hpp>
#include <trisect/nearest/mesh_distance.hpp>

#include <memory>

namespace bench::fcl_peer {

class DistanceModel {
 public:
  /// Builds the OBBRSS tree over the scene's triangles.
  explicit DistanceModel(const Scene& scene);
  DistanceModel(const DistanceModel&) = delete;
  DistanceModel& operator=(const DistanceModel&) = delete;
  ~DistanceModel();

  /// The distance FCL finds between this model (at the identity) and `other` placed by
  /// `other_to_this`, with the triangles it reports (FCL's primitive ids b1, b2).
  [[nodiscard]] trisect::MeshDistance distance(const DistanceModel& other,
                                               const trisect::Transform& other_to_this) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::fcl_peer
