#pragma once
// Bullet's btDbvtBroadphase as the broadphase benchmark's peer: one proxy per box, setAabb for
// the boxes that moved, calculateOverlappingPairs, then the pairs of its cache whose boxes
// overlap (Bullet keeps a pair until the proxies' fat boxes part, so the cache holds pairs
// whose own boxes no longer overlap; counting those out gives the same pairs as the others).
#include "moving_boxes.hpp"

#include <btBulletCollisionCommon.h>

#include <cstddef>
#include <vector>

namespace bench {

class BulletBroadphase {
 public:
  explicit BulletBroadphase(const MovingBoxes& boxes) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const trisect::Aabb box = boxes.box(i);
      proxies_.push_back(
          broadphase_.createProxy(vector(box.min), vector(box.max), 0, nullptr, 1, -1, nullptr));
    }
    broadphase_.calculateOverlappingPairs(nullptr);
  }

  /// Moves the movers, finds the pairs, returns how many boxes overlap.
  std::size_t step(const MovingBoxes& boxes) {
    for (const std::uint32_t i : boxes.movers) {
      const trisect::Aabb box = boxes.box(i);
      broadphase_.setAabb(proxies_[i], vector(box.min), vector(box.max), nullptr);
    }
    broadphase_.calculateOverlappingPairs(nullptr);
    btOverlappingPairCache* cache = broadphase_.getOverlappingPairCache();
    const int count = cache->getNumOverlappingPairs();
    const btBroadphasePair* pairs = cache->getOverlappingPairArrayPtr();
    std::size_t overlapping = 0;
    for (int k = 0; k < count; ++k) {
      const btBroadphaseProxy* a = pairs[k].m_pProxy0;
      const btBroadphaseProxy* b = pairs[k].m_pProxy1;
      overlapping += TestAabbAgainstAabb2(a->m_aabbMin, a->m_aabbMax, b->m_aabbMin, b->m_aabbMax);
    }
    return overlapping;
  }

 private:
  static btVector3 vector(const trisect::Vec3& v) { return {v.x, v.y, v.z}; }

  btDbvtBroadphase broadphase_;
  std::vector<btBroadphaseProxy*> proxies_;
};

}  // namespace bench
