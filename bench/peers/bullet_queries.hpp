#pragma once
// Bullet's side of the broadphase's scene queries (bench/query_frames.hpp): the boxes in a
// btDbvtBroadphase (bench/peers/bullet_broadphase.hpp), its tree then rebuilt top-down
// (btDbvtBroadphase::optimize, as for a scene loaded whole: its queries were as fast or faster
// than on the tree of one-by-one insertions), and per frame the batch's queries with callbacks
// that count.
//
// Boxes: aabbTest(min, max, callback); the callback sees every proxy whose tree box meets the
// query box and counts those whose own box (m_aabbMin, m_aabbMax: the box given to setAabb or
// createProxy) does. Segments: rayTest(from, to, callback, -thickness, +thickness), its callback
// set up as btCollisionWorld::rayTest sets up its own (inverse of the normalised direction, its
// signs, the length as lambda_max), counting the proxies whose own box the segment meets
// (bench/segment.hpp). The tree boxes of proxies that never moved are their own boxes exactly,
// and Bullet's float slab test would miss a box that the segment grazes within a rounding error;
// the thickness (the half-size of the box that rayTest sweeps along the segment, 0.001) makes its
// walk conservative, and the callback decides.
#include "peers/bullet_broadphase.hpp"
#include "query_frames.hpp"
#include "segment.hpp"

#include <trisect/math/aabb.hpp>

#include <btBulletCollisionCommon.h>

#include <cstddef>

namespace bench {

namespace detail {
inline trisect::Aabb own_box(const btBroadphaseProxy* proxy) {
  const btVector3 &low = proxy->m_aabbMin, &high = proxy->m_aabbMax;
  return {{low.x(), low.y(), low.z()}, {high.x(), high.y(), high.z()}};
}

// Counts the proxies whose own box meets the query box.
struct BoxCounter : btBroadphaseAabbCallback {
  btVector3 low, high;
  std::size_t hits = 0;

  bool process(const btBroadphaseProxy* proxy) override {
    hits += TestAabbAgainstAabb2(proxy->m_aabbMin, proxy->m_aabbMax, low, high);
    return true;
  }
};

// Counts the proxies whose own box the segment meets.
struct SegmentCounter : btBroadphaseRayCallback {
  Segment segment;
  std::size_t hits = 0;

  SegmentCounter(const Segment& s, const btVector3& from, const btVector3& to) : segment(s) {
    const btVector3 direction = (to - from).normalized();
    for (int axis = 0; axis < 3; ++axis) {
      m_rayDirectionInverse[axis] =
          direction[axis] == 0 ? btScalar(BT_LARGE_FLOAT) : 1 / direction[axis];
      m_signs[axis] = m_rayDirectionInverse[axis] < 0;
    }
    m_lambda_max = direction.dot(to - from);
  }

  bool process(const btBroadphaseProxy* proxy) override {
    hits += meets(segment, own_box(proxy));
    return true;
  }
};
}  // namespace detail

class BulletQueries {
 public:
  static constexpr btScalar thickness = 0.001f;

  template <class Query>
  explicit BulletQueries(const QueryFrames<Query>& frames) : world_(frames.scene) {
    world_.broadphase().optimize();
  }

  std::size_t step(const QueryFrames<trisect::Aabb>& frames) {
    detail::BoxCounter counter;
    for (const trisect::Aabb& box : frames.batch()) {
      counter.low = BulletBroadphase::vector(box.min);
      counter.high = BulletBroadphase::vector(box.max);
      world_.broadphase().aabbTest(counter.low, counter.high, counter);
    }
    return counter.hits;
  }

  std::size_t step(const QueryFrames<Segment>& frames) {
    std::size_t hits = 0;
    const btVector3 sweep(thickness, thickness, thickness);
    for (const Segment& segment : frames.batch()) {
      const btVector3 from = BulletBroadphase::vector(segment.origin);
      const btVector3 to = BulletBroadphase::vector(segment.origin + segment.direction);
      detail::SegmentCounter counter(segment, from, to);
      world_.broadphase().rayTest(from, to, counter, -sweep, sweep);
      hits += counter.hits;
    }
    return hits;
  }

 private:
  BulletBroadphase world_;
};

}  // namespace bench
