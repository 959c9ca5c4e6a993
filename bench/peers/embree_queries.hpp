#pragma once
// Embree's side of the broadphase's scene queries (bench/query_frames.hpp): the boxes as one
// user-geometry scene built once (RTC_BUILD_QUALITY_MEDIUM, RTC_SCENE_FLAG_ROBUST so that its
// ray walk is conservative; bench/peers/embree_user_boxes.hpp), then per frame:
//
//   boxes     the batch's query boxes as a second user-geometry scene, built every frame
//             (RTC_BUILD_QUALITY_LOW: it is part of answering the batch), rtcCollide(queries,
//             boxes), the callback counting the reported pairs whose boxes overlap. The faster of
//             Embree's two routes: one rtcPointQuery per box, with the ball around the box and
//             the exact box test in the callback, took 1.16-1.52 ms per frame against
//             0.97-1.17 ms (CPU time, three runs; the ball holds 2.7 times the volume of a cube
//             it encloses, so its walk meets more nodes).
//   segments  rtcIntersect1 per segment (tnear 0, tfar 1) with an intersection function that
//             counts the boxes the segment meets (bench/segment.hpp) and reports no hit, so the
//             walk goes on to the segment's end.
#include "peers/embree_scene.hpp"
#include "peers/embree_user_boxes.hpp"
#include "query_frames.hpp"
#include "segment.hpp"

#include <trisect/math/aabb.hpp>
#include <trisect/math/ray.hpp>

#include <atomic>
#include <cstddef>
#include <vector>

namespace bench {

class EmbreeQueries {
 public:
  /// The device has `threads` threads; it lives as long as this object (see embree_scene.hpp).
  template <class Query>
  EmbreeQueries(const QueryFrames<Query>& frames, unsigned threads)
      : device_(threads),
        boxes_(device_.get(), frames.scene.size(), RTC_BUILD_QUALITY_MEDIUM, RTC_SCENE_FLAG_ROBUST),
        queries_(device_.get(), frames.per_batch(), RTC_BUILD_QUALITY_LOW) {
    std::vector<RTCBounds>& bounds = boxes_.bounds();
    for (std::size_t i = 0; i < bounds.size(); ++i)
      bounds[i] = embree::to_bounds(frames.scene.box(i));
    boxes_.set_intersect_function(count_if_met);
    boxes_.commit();
  }
  EmbreeQueries(const EmbreeQueries&) = delete;
  EmbreeQueries& operator=(const EmbreeQueries&) = delete;

  std::size_t step(const QueryFrames<trisect::Aabb>& frames) {
    std::vector<RTCBounds>& bounds = queries_.bounds();
    for (std::size_t k = 0; k < bounds.size(); ++k)
      bounds[k] = embree::to_bounds(frames.batch()[k]);
    queries_.commit();
    hits_ = 0;
    rtcCollide(queries_.scene(), boxes_.scene(), on_box_pairs, this);
    return hits_.load();
  }

  std::size_t step(const QueryFrames<Segment>& frames) {
    SegmentContext context{{}, nullptr, &boxes_.bounds(), 0};
    rtcInitIntersectContext(&context.base);
    for (const Segment& segment : frames.batch()) {
      context.segment = &segment;
      RTCRayHit ray =
          trisect::embree::to_ray_hit(trisect::Ray{segment.origin, segment.direction, 0.0f, 1.0f});
      rtcIntersect1(boxes_.scene(), &context.base, &ray);
    }
    return context.hits;
  }

 private:
  // The intersection context, extended with the segment and its count (Embree hands the
  // context's address to the intersection function).
  struct SegmentContext {
    RTCIntersectContext base;
    const Segment* segment;
    const std::vector<RTCBounds>* boxes;
    std::size_t hits;
  };

  static void count_if_met(const RTCIntersectFunctionNArguments* args) {
    if (args->valid[0] == 0) return;
    auto& context = *reinterpret_cast<SegmentContext*>(args->context);
    const RTCBounds& b = (*context.boxes)[args->primID];
    const trisect::Aabb box{{b.lower_x, b.lower_y, b.lower_z}, {b.upper_x, b.upper_y, b.upper_z}};
    context.hits += meets(*context.segment, box);
  }

  static void on_box_pairs(void* user, RTCCollision* collisions, unsigned count) {
    auto& self = *static_cast<EmbreeQueries*>(user);
    self.hits_ +=
        embree::overlapping(self.queries_.bounds(), self.boxes_.bounds(), collisions, count);
  }

  embree::Device device_;
  embree::UserBoxes boxes_;
  embree::UserBoxes queries_;
  std::atomic<std::size_t> hits_{0};
};

}  // namespace bench
