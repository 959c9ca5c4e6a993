// Box casts as a visitor of the ordered walk: a child's key is a lower bound of the time at
// which the box's swept bounds reach the child's box, the bound the best contact time found so
// far (rounded up); a triangle whose own bounds cannot be reached before it is skipped, the
// others get the exact first contact time (geometry/contact_time.hpp), compared exactly.
#include "trisect/nearest/box_cast.hpp"

#include "geometry/contact_time.hpp"
#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace trisect {
namespace {

constexpr double never = std::numeric_limits<double>::infinity();

/// A lower bound of the first t in [0, 1] at which `reach` + t·motion meets `target`, or
/// infinity when it meets it at no such t. Per axis the overlap is an interval of t; each end
/// is a difference of floats over a float, rounded twice (relative 2u at most), so moving it
/// outward by 2^-50 relative and 2^-1000 absolute keeps the interval a superset.
double reach_time(const Aabb& reach, const Vec3& motion, const Aabb& target) noexcept {
  double earliest = 0, latest = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const double gap_low = double(target.min[axis]) - double(reach.max[axis]);
    const double gap_high = double(target.max[axis]) - double(reach.min[axis]);
    const double v = motion[axis];
    if (v == 0) {
      if (gap_low > 0 || gap_high < 0) return never;
      continue;
    }
    const double enter = (v > 0 ? gap_low : gap_high) / v, leave = (v > 0 ? gap_high : gap_low) / v;
    earliest = std::max(earliest, enter - std::fabs(enter) * 0x1p-50 - 0x1p-1000);
    latest = std::min(latest, leave + std::fabs(leave) * 0x1p-50 + 0x1p-1000);
  }
  return earliest <= latest ? earliest : never;
}

class BoxCastVisitor {
 public:
  BoxCastVisitor(const Bvh& bvh, const OrientedBox& box, const Vec3& motion)
      : bvh_(&bvh), box_(box), motion_(motion), reach_(bounds(box)) {}

  [[nodiscard]] float bound() const noexcept { return bound_; }

  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const noexcept {
    unsigned chosen = 0;
    for (unsigned open = node.used_mask(); open != 0; open &= open - 1) {
      const int child = std::countr_zero(open);
      const double time = reach_time(reach_, motion_, node.child_bounds(child));
      keys[child] = detail::float_at_most(time);
      chosen |= unsigned(keys[child] <= bound_) << child;
    }
    return chosen;
  }

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    bvh_->triangles.for_each_group(
        begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
          for (unsigned lanes = group.lane_mask(); lanes != 0; lanes &= lanes - 1) {
            const int lane = std::countr_zero(lanes);
            consider(bvh_->ids[first + static_cast<std::uint32_t>(lane)], group.triangle(lane));
          }
          return true;
        });
    return true;
  }

  [[nodiscard]] std::optional<BoxCastHit> hit() const {
    if (!best_) return std::nullopt;
    return BoxCastHit{best_->nearest_float(), best_id_};
  }

 private:
  void consider(TriangleId id, const Triangle& triangle) {
    if (reach_time(reach_, motion_, triangle.bounds()) > double(bound_)) return;
    std::optional<detail::ContactTime> time =
        detail::first_contact_time(triangle, detail::CastMotion{&box_, &motion_});
    if (!time) return;
    if (best_) {
      const int order = compare(*time, *best_);
      if (order > 0 || (order == 0 && id > best_id_)) return;
    }
    best_ = std::move(time);
    best_id_ = id;
    // The nearest float is within half an ulp: the next float up bounds the exact time.
    bound_ = std::nextafter(best_->nearest_float(), std::numeric_limits<float>::infinity());
  }

  const Bvh* bvh_;
  OrientedBox box_;
  Vec3 motion_;
  Aabb reach_;
  float bound_ = 1;
  std::optional<detail::ContactTime> best_;
  TriangleId best_id_ = 0;
};

void check_cast(const OrientedBox& box, const Vec3& motion, const std::string& what) {
  validate(box, what);
  if (!is_finite(motion)) throw InvalidInput(what + ": motion is not finite");
}

std::optional<BoxCastHit> answer(const Bvh& bvh, const OrientedBox& box, const Vec3& motion) {
  if (bvh.empty()) return std::nullopt;
  BoxCastVisitor visitor(bvh, box, motion);
  ordered_walk(bvh, visitor, nullptr);
  return visitor.hit();
}

}  // namespace

std::optional<BoxCastHit> cast_box(const Bvh& bvh, const OrientedBox& box, const Vec3& motion) {
  check_cast(box, motion, "box cast");
  return answer(bvh, box, motion);
}

std::vector<std::optional<BoxCastHit>> cast_boxes(const Bvh& bvh,
                                                  std::span<const OrientedBox> boxes,
                                                  std::span<const Vec3> motions) {
  if (boxes.size() != motions.size())
    throw InvalidInput("box casts: " + std::to_string(boxes.size()) + " boxes but " +
                       std::to_string(motions.size()) + " motions");
  for (std::size_t i = 0; i < boxes.size(); ++i)
    check_cast(boxes[i], motions[i], "box casts: cast " + std::to_string(i));
  std::vector<std::optional<BoxCastHit>> result(boxes.size());
  constexpr std::size_t casts_per_task = 16;
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, boxes.size(), casts_per_task),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end(); ++i)
                          result[i] = answer(bvh, boxes[i], motions[i]);
                      });
  });
  return result;
}

}  // namespace trisect
