#pragma once
// Embree 3 as the broadphase benchmark's peer: what an Embree user does for moving boxes. One
// user geometry of all the boxes of a scenario (bench/broadphase.cpp), rebuilt every frame
// (RTC_BUILD_QUALITY_LOW, Embree's fastest builder; bench/peers/embree_user_boxes.hpp), then
// rtcCollide of the scene with itself, whose callback keeps the reported pairs of distinct boxes
// that overlap.
#include "peers/embree_scene.hpp"
#include "peers/embree_user_boxes.hpp"

#include <atomic>
#include <cstddef>
#include <vector>

namespace bench {

class EmbreeBoxes {
 public:
  /// The device has `threads` threads; it lives as long as this object (see embree_scene.hpp).
  template <class Scenario>
  EmbreeBoxes(const Scenario& boxes, unsigned threads)
      : device_(threads), boxes_(device_.get(), boxes.size(), RTC_BUILD_QUALITY_LOW) {}
  EmbreeBoxes(const EmbreeBoxes&) = delete;
  EmbreeBoxes& operator=(const EmbreeBoxes&) = delete;

  /// Rebuilds over the boxes' current positions and counts the overlapping pairs.
  template <class Scenario>
  std::size_t step(const Scenario& boxes) {
    std::vector<RTCBounds>& bounds = boxes_.bounds();
    for (std::size_t i = 0; i < bounds.size(); ++i) bounds[i] = embree::to_bounds(boxes.box(i));
    boxes_.commit();
    pairs_ = 0;
    rtcCollide(boxes_.scene(), boxes_.scene(), on_collisions, this);
    return pairs_.load();
  }

 private:
  static void on_collisions(void* user, RTCCollision* collisions, unsigned count) {
    auto& self = *static_cast<EmbreeBoxes*>(user);
    self.pairs_ += embree::overlapping_self(self.boxes_.bounds(), collisions, count);
  }

  embree::Device device_;
  embree::UserBoxes boxes_;
  std::atomic<std::size_t> pairs_{0};
};

}  // namespace bench
