#pragma once
// trisect's side of the broadphase's scene queries (bench/query_frames.hpp): the boxes in a
// trisect::Broadphase (bench/trisect_broadphase.hpp, one update_pairs after their creation), and
// per frame the batch's queries, each counting the proxies it visits: Broadphase::query(box,
// visit) reports the proxies whose own box meets the box, Broadphase::query(ray, filter, visit)
// those whose own box the segment meets (the ray from t = 0 to 1, decided exactly).
#include "query_frames.hpp"
#include "segment.hpp"
#include "trisect_broadphase.hpp"

#include <trisect/broadphase/broadphase.hpp>

#include <cstddef>

namespace bench {

class TrisectQueries {
 public:
  template <class Query>
  explicit TrisectQueries(const QueryFrames<Query>& frames) : world_(frames.scene) {}

  std::size_t step(const QueryFrames<trisect::Aabb>& frames) const {
    std::size_t hits = 0;
    for (const trisect::Aabb& box : frames.batch())
      world_.broadphase().query(box, [&hits](trisect::ProxyId) {
        ++hits;
        return true;
      });
    return hits;
  }

  std::size_t step(const QueryFrames<Segment>& frames) const {
    std::size_t hits = 0;
    const trisect::ProxyQueryFilter every_proxy;
    for (const Segment& segment : frames.batch()) {
      const trisect::Ray ray{segment.origin, segment.direction, 0.0f, 1.0f};
      world_.broadphase().query(ray, every_proxy, [&hits](trisect::ProxyId) {
        ++hits;
        return true;
      });
    }
    return hits;
  }

 private:
  TrisectBroadphase world_;
};

}  // namespace bench
