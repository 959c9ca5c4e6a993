#pragma once
// Embree beside trisect in `trisect demo`, when the command is built with Embree.

#include <trisect/io/mesh.hpp>
#include <trisect/math/ray.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace trisect::cli {

/// What Embree did with the demo's scene and rays.
struct PeerTimings {
  double build_milliseconds;  ///< rtcCommitScene, medium quality.
  double ray_microseconds;    ///< All rays with rtcIntersect1.
  std::size_t hits;           ///< Rays that hit.
};

/// Embree's build and closest-hit times on `mesh` and `rays`; nothing when the command was
/// built without Embree.
std::optional<PeerTimings> embree_timings(const Mesh& mesh, const std::vector<Ray>& rays);

}  // namespace trisect::cli
