#pragma once
// Boxes as an Embree 3 scene, for the broadphase benchmarks' Embree peer: one user geometry whose
// primitive i is the box bounds()[i], built by commit() and built again by each later commit()
// after the boxes changed (Embree has no incremental update of user geometry: a scene of moving
// boxes is rebuilt every frame). And the closed-box test the peer's rtcCollide callbacks apply
// to the pairs Embree reports.
#include "peers/embree_scene.hpp"

#include <embree3/rtcore.h>

#include <cstddef>
#include <vector>

namespace bench::embree {

/// True when the closed boxes share a point (touching counts).
inline bool overlap(const RTCBounds& a, const RTCBounds& b) {
  return a.lower_x <= b.upper_x && b.lower_x <= a.upper_x && a.lower_y <= b.upper_y &&
         b.lower_y <= a.upper_y && a.lower_z <= b.upper_z && b.lower_z <= a.upper_z;
}

/// Of the `count` pairs `collisions` that rtcCollide reported for scenes over the boxes `first`
/// and `second`, how many overlap.
inline std::size_t overlapping(const std::vector<RTCBounds>& first,
                               const std::vector<RTCBounds>& second, const RTCCollision* collisions,
                               unsigned count) {
  std::size_t found = 0;
  for (unsigned k = 0; k < count; ++k)
    found += overlap(first[collisions[k].primID0], second[collisions[k].primID1]);
  return found;
}

/// The same for a scene collided with itself, which reports each pair of distinct boxes in both
/// orders (checked by the benchmark's pair counter against the other libraries): the one with
/// the smaller id counts.
inline std::size_t overlapping_self(const std::vector<RTCBounds>& boxes,
                                    const RTCCollision* collisions, unsigned count) {
  std::size_t found = 0;
  for (unsigned k = 0; k < count; ++k) {
    const RTCCollision& c = collisions[k];
    found += c.primID0 < c.primID1 && overlap(boxes[c.primID0], boxes[c.primID1]);
  }
  return found;
}

class UserBoxes {
 public:
  /// `count` boxes (all zero until set) on `device`, built at `quality` with `flags`.
  UserBoxes(RTCDevice device, std::size_t count, RTCBuildQuality quality,
            RTCSceneFlags flags = RTC_SCENE_FLAG_NONE)
      : bounds_(count), scene_(rtcNewScene(device)) {
    rtcSetSceneBuildQuality(scene_.get(), quality);
    rtcSetSceneFlags(scene_.get(), flags);
    geometry_ = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(geometry_, static_cast<unsigned>(count));
    rtcSetGeometryUserData(geometry_, bounds_.data());
    rtcSetGeometryBoundsFunction(geometry_, bounds_of, nullptr);
    rtcSetGeometryBuildQuality(geometry_, quality);
    rtcAttachGeometry(scene_.get(), geometry_);
  }
  UserBoxes(const UserBoxes&) = delete;
  UserBoxes& operator=(const UserBoxes&) = delete;
  ~UserBoxes() { rtcReleaseGeometry(geometry_); }

  /// The boxes, to be set before a commit().
  [[nodiscard]] std::vector<RTCBounds>& bounds() { return bounds_; }
  [[nodiscard]] const std::vector<RTCBounds>& bounds() const { return bounds_; }

  /// Makes `intersect` the geometry's ray intersection function (before a commit()).
  void set_intersect_function(RTCIntersectFunctionN intersect) {
    rtcSetGeometryIntersectFunction(geometry_, intersect);
  }

  /// Builds the scene over the boxes as they are.
  void commit() {
    rtcCommitGeometry(geometry_);
    rtcCommitScene(scene_.get());
  }

  [[nodiscard]] RTCScene scene() const { return scene_.get(); }

 private:
  static void bounds_of(const RTCBoundsFunctionArguments* args) {
    *args->bounds_o = static_cast<const RTCBounds*>(args->geometryUserPtr)[args->primID];
  }

  std::vector<RTCBounds> bounds_;
  SceneHandle scene_;
  RTCGeometry geometry_ = nullptr;
};

}  // namespace bench::embree
