#pragma once
// Embree 3 as the broadphase benchmark's peer in a level of static boxes with bodies moving
// through it (bench/static_level.hpp), as an Embree user would do it: the static boxes as one
// user-geometry scene built once (RTC_BUILD_QUALITY_MEDIUM, when the level is loaded: outside
// the timed frames), the movers as a second one rebuilt every frame (RTC_BUILD_QUALITY_LOW;
// bench/peers/embree_user_boxes.hpp); per frame rtcCollide(movers, static) and rtcCollide(movers,
// movers), whose callbacks keep the pairs of boxes that overlap (a mover pair once).
//
// The scenario's boxes are either static or movers (every dynamic box moves every frame).
#include "peers/embree_scene.hpp"
#include "peers/embree_user_boxes.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

class EmbreeLevel {
 public:
  /// The device has `threads` threads; it lives as long as this object (see embree_scene.hpp).
  template <class Scenario>
  EmbreeLevel(const Scenario& level, unsigned threads)
      : device_(threads),
        statics_(device_.get(), static_count(level), RTC_BUILD_QUALITY_MEDIUM),
        movers_(device_.get(), level.movers.size(), RTC_BUILD_QUALITY_LOW) {
    std::vector<RTCBounds>& bounds = statics_.bounds();
    std::size_t k = 0;
    for (std::size_t i = 0; i < level.size(); ++i)
      if (level.is_static(i)) bounds[k++] = embree::to_bounds(level.box(i));
    statics_.commit();
  }
  EmbreeLevel(const EmbreeLevel&) = delete;
  EmbreeLevel& operator=(const EmbreeLevel&) = delete;

  /// Rebuilds the movers' scene and counts the overlapping pairs.
  template <class Scenario>
  std::size_t step(const Scenario& level) {
    std::vector<RTCBounds>& bounds = movers_.bounds();
    for (std::size_t k = 0; k < bounds.size(); ++k)
      bounds[k] = embree::to_bounds(level.box(level.movers[k]));
    movers_.commit();
    pairs_ = 0;
    rtcCollide(movers_.scene(), statics_.scene(), on_static_pairs, this);
    rtcCollide(movers_.scene(), movers_.scene(), on_mover_pairs, this);
    return pairs_.load();
  }

 private:
  template <class Scenario>
  static std::size_t static_count(const Scenario& level) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < level.size(); ++i) count += level.is_static(i);
    return count;
  }

  // primID0 is a mover, primID1 a static box.
  static void on_static_pairs(void* user, RTCCollision* collisions, unsigned count) {
    auto& self = *static_cast<EmbreeLevel*>(user);
    self.pairs_ +=
        embree::overlapping(self.movers_.bounds(), self.statics_.bounds(), collisions, count);
  }

  static void on_mover_pairs(void* user, RTCCollision* collisions, unsigned count) {
    auto& self = *static_cast<EmbreeLevel*>(user);
    self.pairs_ += embree::overlapping_self(self.movers_.bounds(), collisions, count);
  }

  embree::Device device_;
  embree::UserBoxes statics_;
  embree::UserBoxes movers_;
  std::atomic<std::size_t> pairs_{0};
};

}  // namespace bench
