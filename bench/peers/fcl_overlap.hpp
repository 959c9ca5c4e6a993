#pragma once
// FCL (the Flexible Collision Library) as a peer for mesh-vs-mesh overlap (only when CMake
// found it and defined TRISECT_BENCH_HAVE_FCL). The FCL code lives in fcl_overlap.cpp, a
// library of its own, so that FCL's and Eigen's headers stay out of the benchmark file.
//
// Model: fcl::BVHModel<fcl::OBBRSSd> over the scene's triangles (coordinates in double), built
// once. Query: fcl::collide of the model against a second one placed by a rigid transform (R,
// T as doubles from the same 12 floats), with CollisionRequest{num_max_contacts = every pair,
// enable_contact = false}: FCL then lists every pair of triangles its floating-point
// triangle test finds intersecting (approximate: no exact arithmetic).
#include "scenes.hpp"

#include <trisect/math/transform.hpp>

#include <memory>

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

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::fcl_peer
