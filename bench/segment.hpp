#pragma once
// A segment for the broadphase's ray queries, and the test of whether it meets a box that the
// peers' callbacks apply (bench/peers/bullet_queries.hpp, embree_queries.hpp).
//
// The segment is the points origin + t·direction for t in [0, 1] (trisect: that Ray with t_min 0
// and t_max 1; Embree: tnear 0, tfar 1). The test is the slab test in double precision on the
// given floats, closed at the box's faces and at both ends. It differs from trisect's exact test
// (`DynamicAabbTree::ray_meets`) only when an entry and an exit parameter lie within about 1e-16
// of each other relative to their size (a segment grazing an edge or ending on a face to that
// precision), which random segments do not do: every library counts the same boxes.
#include <trisect/math/aabb.hpp>

#include <utility>

namespace bench {

struct Segment {
  trisect::Vec3 origin;
  trisect::Vec3 direction;  // the end is origin + direction
};

/// True when some t in [0, 1] puts origin + t·direction in the closed box `box`.
inline bool meets(const Segment& segment, const trisect::Aabb& box) {
  double enter = 0, leave = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const double origin = segment.origin[axis], direction = segment.direction[axis];
    const double low = box.min[axis], high = box.max[axis];
    if (direction == 0) {
      if (origin < low || origin > high) return false;
      continue;
    }
    double near = (low - origin) / direction, far = (high - origin) / direction;
    if (near > far) std::swap(near, far);
    enter = near > enter ? near : enter;
    leave = far < leave ? far : leave;
    if (enter > leave) return false;
  }
  return true;
}

}  // namespace bench
