#pragma once
// Embree 3 as the broadphase benchmark's peer: what an Embree user does for moving boxes. One
// user geometry of all the boxes, rebuilt every frame (RTC_BUILD_QUALITY_LOW, Embree's fastest
// builder; Embree has no incremental update of user geometry), then rtcCollide of the scene with
// itself, whose callback keeps the reported pairs of distinct boxes that overlap.
#include "moving_boxes.hpp"
#include "peers/embree_scene.hpp"

#include <atomic>
#include <cstddef>
#include <vector>

namespace bench {

class EmbreeBoxes {
 public:
  /// The device has `threads` threads; it lives as long as this object (see embree_scene.hpp).
  EmbreeBoxes(const MovingBoxes& boxes, unsigned threads)
      : device_(threads), bounds_(boxes.size()) {
    scene_ = embree::SceneHandle(rtcNewScene(device_.get()));
    rtcSetSceneBuildQuality(scene_.get(), RTC_BUILD_QUALITY_LOW);
    geometry_ = rtcNewGeometry(device_.get(), RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(geometry_, static_cast<unsigned>(bounds_.size()));
    rtcSetGeometryUserData(geometry_, bounds_.data());
    rtcSetGeometryBoundsFunction(geometry_, bounds_of, nullptr);
    rtcSetGeometryBuildQuality(geometry_, RTC_BUILD_QUALITY_LOW);
    rtcAttachGeometry(scene_.get(), geometry_);
  }
  EmbreeBoxes(const EmbreeBoxes&) = delete;
  EmbreeBoxes& operator=(const EmbreeBoxes&) = delete;
  ~EmbreeBoxes() { rtcReleaseGeometry(geometry_); }

  /// Rebuilds over the boxes' current positions and counts the overlapping pairs.
  std::size_t step(const MovingBoxes& boxes) {
    for (std::size_t i = 0; i < bounds_.size(); ++i) bounds_[i] = embree::to_bounds(boxes.box(i));
    rtcCommitGeometry(geometry_);
    rtcCommitScene(scene_.get());
    pairs_ = 0;
    rtcCollide(scene_.get(), scene_.get(), on_collisions, this);
    return pairs_.load();
  }

 private:
  static void bounds_of(const RTCBoundsFunctionArguments* args) {
    *args->bounds_o = static_cast<const RTCBounds*>(args->geometryUserPtr)[args->primID];
  }

  static bool overlap(const RTCBounds& a, const RTCBounds& b) {
    return a.lower_x <= b.upper_x && b.lower_x <= a.upper_x && a.lower_y <= b.upper_y &&
           b.lower_y <= a.upper_y && a.lower_z <= b.upper_z && b.lower_z <= a.upper_z;
  }

  // A self-collision reports each pair of distinct boxes in both orders (checked by the
  // benchmark's pair counter against the other libraries): keep the one with the smaller id.
  static void on_collisions(void* user, RTCCollision* collisions, unsigned count) {
    auto& self = *static_cast<EmbreeBoxes*>(user);
    std::size_t found = 0;
    for (unsigned k = 0; k < count; ++k) {
      const RTCCollision& c = collisions[k];
      found += c.primID0 < c.primID1 && overlap(self.bounds_[c.primID0], self.bounds_[c.primID1]);
    }
    self.pairs_ += found;
  }

  embree::Device device_;
  std::vector<RTCBounds> bounds_;
  embree::SceneHandle scene_;
  RTCGeometry geometry_ = nullptr;
  std::atomic<std::size_t> pairs_{0};
};

}  // namespace bench
