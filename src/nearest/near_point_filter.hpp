#pragma once
// What the ordered walk's visitors that look for the triangles nearest a point (closest point,
// k nearest) share: the distance limit, and the float filter on boxes. A child or a triangle's
// box is kept when its computed squared gap to the point is at most the threshold,
// `detail::touch_threshold` of an upper bound of the largest squared distance still accepted,
// so that rounding never drops a box holding a triangle within it (detail/squared_gap.hpp gives
// the bound). The visitor lowers the threshold as its candidates get nearer.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/detail/squared_gap.hpp"
#include "trisect/geometry/squared_distance.hpp"
#include "trisect/math/float4.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>

namespace trisect::detail {

class NearPointFilter {
 public:
  /// The filter for triangles of `bvh` within `max_distance` (+inf: no limit) of `point`.
  NearPointFilter(const Bvh& bvh, const Vec3& point, float max_distance) noexcept
      : bvh_(&bvh), point_(point) {
    for (int axis = 0; axis < 3; ++axis) center_[axis] = Float4::splat(point[axis]);
    if (!std::isinf(max_distance)) {
      limit_ = DistanceLimit::of(max_distance);
      keep_within(limit_->bounds.upper);
    }
  }

  [[nodiscard]] const Vec3& point() const noexcept { return point_; }

  /// The ordered walk's bound: the threshold on squared gaps.
  [[nodiscard]] float bound() const noexcept { return threshold_; }

  /// Lowers the threshold so that boxes farther than `squared_upper` (an upper bound of a
  /// squared distance) are dropped, but none that may be as near; never raises it.
  void keep_within(double squared_upper) noexcept {
    threshold_ = std::min(threshold_, touch_threshold(squared_upper));
  }

  /// True when the exact `distance` (with its `bounds`) exceeds the distance limit.
  [[nodiscard]] bool beyond_limit(const SquaredDistance& distance,
                                  const DistanceBounds& bounds) const {
    return limit_ && limit_->exceeded_by(distance, bounds);
  }

  /// The ordered walk's `enter`: the children's squared gaps as keys, and the mask of those
  /// within the threshold.
  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const noexcept {
    unsigned mask = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 gap2 = Float4::splat(0.0f);
      for (int axis = 0; axis < 3; ++axis)
        gap2 = gap2 + squared_gap(node.face_row(2 * axis, group),
                                  node.face_row(2 * axis + 1, group), center_[axis]);
      gap2.store(keys + 4 * group);
      mask |= less_equal_mask(gap2, Float4::splat(threshold_)) << (4 * group);
    }
    return mask;
  }

  /// Calls `consider(id, triangle)` for each triangle of the leaf over slots [begin, end) whose
  /// bounding box may be within the threshold (as it stands at each triangle).
  template <class Consider>
  void for_each_near(std::uint32_t begin, std::uint32_t end, Consider&& consider) const {
    bvh_->triangles.for_each_group(
        begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
          for (unsigned lanes = near_lanes(group); lanes != 0; lanes &= lanes - 1) {
            const int lane = std::countr_zero(lanes);
            consider(bvh_->ids[first + static_cast<std::uint32_t>(lane)], group.triangle(lane));
          }
          return true;
        });
  }

 private:
  // Lanes of `group` whose triangle's bounding box may be within the threshold.
  [[nodiscard]] unsigned near_lanes(const TriangleGroup& group) const noexcept {
    Float4 gap2 = Float4::splat(0.0f);
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 v0 = group.lanes(0, axis), v1 = group.lanes(1, axis), v2 = group.lanes(2, axis);
      gap2 = gap2 + squared_gap(min_ignoring_nan(min_ignoring_nan(v0, v1), v2),
                                max_ignoring_nan(max_ignoring_nan(v0, v1), v2), center_[axis]);
    }
    return less_equal_mask(gap2, Float4::splat(threshold_)) & group.lane_mask();
  }

  const Bvh* bvh_;
  Vec3 point_;
  Float4 center_[3];
  std::optional<DistanceLimit> limit_;
  float threshold_ = std::numeric_limits<float>::infinity();
};

}  // namespace trisect::detail
