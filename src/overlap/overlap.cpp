// Mesh against mesh and self-intersections: visitors of the pair walk (bvh/pair_walk.hpp) that
// test pairs of leaves exactly. Compiled with -ffp-contract=off: the transform's rounding rule
// forbids fused multiply-adds, and the outward rounding of mapped boxes relies on every operation
// rounding once.
#include "trisect/overlap/overlap.hpp"

#include "bvh/checked_transform.hpp"
#include "bvh/pair_walk.hpp"
#include "pair_collector.hpp"
#include "trisect/bvh/box_query.hpp"
#include "trisect/bvh/build.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/geometry/detail/self_overlap_filter.hpp"
#include "trisect/geometry/self_overlap.hpp"
#include "trisect/geometry/triangle_triangle.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace trisect {
namespace {

using detail::checked_transform;
using detail::PairSide;
using detail::PairSubtree;
using detail::SubtreePair;

/// A triangle ready for many pair tests: the (mapped) triangle, its bounds and its normal in
/// double.
struct Ready {
  Triangle triangle;
  Aabb bounds;
  detail::ApproximateNormal normal;

  [[nodiscard]] static Ready of(const Triangle& t) {
    return {t, t.bounds(), detail::ApproximateNormal::of(t)};
  }
};

/// A slot of a self query, ready for the many pair tests a self query makes of it (it meets
/// every leaf many times): its bounds, and its triangle with its plane in float packed for the
/// four-lane filter of neighbour pairs (`LaneVerdicts`). The normal in double of the exact rule
/// is left to the few pairs the filter does not decide.
struct SelfSlot {
  detail::PackedTriangle packed;
  Aabb bounds;
};

/// Every slot of `bvh` as a `SelfSlot`, in slot order, a leaf's groups at a time, in parallel.
std::vector<SelfSlot> self_slots(const Bvh& bvh) {
  std::vector<LeafRange> leaves;
  for (std::uint32_t slot = 0; slot < bvh.size(); slot = leaves.back().end)
    leaves.push_back(bvh.triangles.leaf_of(slot));
  std::vector<SelfSlot> slots(bvh.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, leaves.size(), 512), [&](const auto& range) {
    for (std::size_t leaf = range.begin(); leaf != range.end(); ++leaf) {
      bvh.triangles.for_each_group(
          leaves[leaf].begin, leaves[leaf].end,
          [&](std::uint32_t first, const TriangleGroup& group) {
            for (int lane = 0; lane < group.count; ++lane) {
              const Triangle t = group.triangle(lane);
              slots[first + std::uint32_t(lane)] = {detail::PackedTriangle::of(t), t.bounds()};
            }
          });
    }
  });
  return slots;
}

/// The pair walk's visitor for overlap and self-intersection queries: enters the pairs of
/// boxes that touch and tests the pairs of leaves exactly, reporting each pair the exact test
/// accepts to a callback, or collecting them when the callback is null. One per thread.
class IntersectingPairs {
 public:
  /// `slots`: for a self query, every slot of the first side's tree (`self_slots`); null
  /// otherwise.
  IntersectingPairs(const PairSide& first, const PairSide& second, const SelfSlot* slots,
                    detail::PairCallback callback, void* context)
      : first_(first),
        second_(second),
        slots_(slots),
        self_(slots != nullptr),
        callback_(callback),
        context_(context) {}

  /// Every pair of boxes that touch may hold a pair.
  [[nodiscard]] static double bound() noexcept { return std::numeric_limits<double>::infinity(); }
  [[nodiscard]] static unsigned enter(const ChildBoxes& boxes, const Aabb& box,
                                      double (&)[WideNode::width]) noexcept {
    return BoxQuery{box}.child_masks(boxes).touching;
  }
  /// Every pair of slots of two leaves (of one leaf with itself: i < j), exactly.
  bool visit_leaves(const PairSubtree& x, const PairSubtree& y) {
    if (self_) return x.same_as(y) ? test_same_leaf(x) : test_self_leaves(x, y);
    return test_leaves(x, y);
  }

  /// Decides the pairs still waiting for the four-lane filter; false when the callback
  /// stopped. A walk calls it when it ends (a self walk's last pairs wait for a full batch).
  bool finish() { return decide_batch(); }

  /// The pairs collected (when constructed without a callback), once `finish` has run.
  [[nodiscard]] std::vector<TrianglePair>& found() noexcept { return found_; }

 private:
  bool report(TriangleId a, TriangleId b) {
    if (self_ && b < a) std::swap(a, b);
    if (callback_ == nullptr) {
      found_.push_back({a, b});
      return true;
    }
    return callback_(context_, a, b);
  }

  /// The positions in `ready` of the triangles that may touch `box`, into `kept`: the box
  /// normals and the triangle's normal, four of the separating axes of `intersects(triangle,
  /// box)` (the nine edge axes cost more than they save at leaves of a few triangles,
  /// measured on the bunny).
  static void keep(const std::vector<Ready>& ready, const Aabb& box,
                   std::vector<std::uint32_t>& kept) {
    kept.clear();
    for (std::uint32_t k = 0; k < ready.size(); ++k)
      if (ready[k].bounds.overlaps(box) &&
          !detail::triangle_normal_separates(ready[k].triangle, ready[k].normal, box))
        kept.push_back(k);
  }

  /// Every pair of slots of two leaves (of one leaf with itself: i < j), exactly.
  bool test_leaves(const PairSubtree& x, const PairSubtree& y) {
    const std::vector<Ready>& ys = second_leaf_.of(second_, y, Ready::of);
    keep(ys, x.box, second_kept_);
    if (second_kept_.empty()) return true;
    const std::vector<Ready>& xs = first_leaf_.of(first_, x, Ready::of);
    keep(xs, y.box, first_kept_);
    for (const std::uint32_t i : first_kept_) {
      for (const std::uint32_t k : second_kept_) {
        const Ready &s = xs[i], &t = ys[k];
        if (!s.bounds.overlaps(t.bounds) ||
            !detail::triangles_meet(s.triangle, t.triangle, s.normal, t.normal))
          continue;
        if (!report(first_.bvh().ids[x.begin + i], second_.bvh().ids[y.begin + k])) return false;
      }
    }
    return true;
  }

  /// Two different leaves of one mesh: each slot of x whose bounds reach y's box against y's
  /// groups, by the self rule. (No plane culling: neighbouring leaves of a mesh share vertices,
  /// so it rarely culls.)
  bool test_self_leaves(const PairSubtree& x, const PairSubtree& y) {
    for (std::uint32_t i = x.begin; i < x.end; ++i) {
      if (!slots_[i].bounds.overlaps(y.box)) continue;
      const bool go_on = first_.bvh().triangles.for_each_group(
          y.begin, y.end, [&](std::uint32_t first, const TriangleGroup& group) {
            return test_group(i, first, group, group.lane_mask());
          });
      if (!go_on) return false;
    }
    return true;
  }

  /// Every pair i < j of one leaf's slots, by the self rule.
  bool test_same_leaf(const PairSubtree& x) {
    for (std::uint32_t i = x.begin; i + 1 < x.end; ++i) {
      const bool go_on = first_.bvh().triangles.for_each_group(
          x.begin, x.end, [&](std::uint32_t first, const TriangleGroup& group) {
            // Lanes of slots after i only (none in a group that ends at i or before).
            const std::uint32_t skip = first > i ? 0 : i + 1 - first;
            const unsigned later = skip >= 4 ? 0u : 0xfu << skip;
            return test_group(i, first, group, group.lane_mask() & later);
          });
      if (!go_on) return false;
    }
    return true;
  }

  /// Slot i against the `lanes` of the group of slots from `first`, by the self rule: lanes
  /// whose bounds miss i's out, the others to the batch of the four-lane filter.
  bool test_group(std::uint32_t i, std::uint32_t first, const TriangleGroup& group,
                  unsigned lanes) {
    if (lanes == 0) return true;
    for (lanes &= ~detail::box_apart_lanes(slots_[i].bounds, group); lanes != 0;
         lanes &= lanes - 1) {
      batch_[batch_size_++] = {i, first + static_cast<std::uint32_t>(std::countr_zero(lanes))};
      if (batch_size_ == 4 && !decide_batch()) return false;
    }
    return true;
  }

  /// The pairs of the batch, four lanes at once, by the self rule: the four-lane filter
  /// (`LaneVerdicts`, which decides most neighbours of a mesh, most of the rest down to two
  /// orientations), then the exact rule on each lane left. Gathered from any leaves, the
  /// filter's lanes are full (a slot against one group filled 1.5 to 2.8 of them).
  bool decide_batch() {
    const int size = std::exchange(batch_size_, 0);
    if (size == 0) return true;
    const detail::PackedTriangle *s[4], *t[4];
    for (int lane = 0; lane < 4; ++lane) {
      const SlotPair& pair = batch_[lane < size ? lane : 0];
      s[lane] = &slots_[pair.i].packed;
      t[lane] = &slots_[pair.j].packed;
    }
    const detail::TriangleLanes s_lanes = detail::TriangleLanes::gather(s);
    const detail::TriangleLanes t_lanes = detail::TriangleLanes::gather(t);
    const unsigned lanes = (1u << size) - 1u;
    const detail::LaneVerdicts verdicts = detail::LaneVerdicts::of(s_lanes, t_lanes, lanes);
    for (unsigned left = lanes & ~verdicts.apart; left != 0; left &= left - 1) {
      const int lane = std::countr_zero(left);
      const Triangle a = s[lane]->triangle(), b = t[lane]->triangle();
      const bool meets =
          (verdicts.straddling >> lane & 1u) != 0
              ? detail::lane_straddling_meet(a, b, verdicts, lane)
              : !detail::lane_projected_apart(a, s[lane]->plane(), b, verdicts, lane) &&
                    intersects_beyond_shared_vertices(a, b);
      const SlotPair& pair = batch_[lane];
      if (meets && !report(first_.bvh().ids[pair.i], first_.bvh().ids[pair.j])) return false;
    }
    return true;
  }

  /// Two slots of a self query.
  struct SlotPair {
    std::uint32_t i, j;
  };

  const PairSide& first_;
  const PairSide& second_;
  const SelfSlot* slots_;
  bool self_;
  detail::PairCallback callback_;
  void* context_;
  detail::LastLeaf<Ready> first_leaf_, second_leaf_;
  std::vector<std::uint32_t> first_kept_, second_kept_;
  std::vector<TrianglePair> found_;
  SlotPair batch_[4] = {};  // self pairs waiting for the four-lane filter
  int batch_size_ = 0;
};

/// One thread's walk of a pair of trees (or of one tree with itself): its sides, its visitor
/// and the walk over them.
class PairFinder {
 public:
  /// `slots`: for a self query, every slot of `first` (`self_slots`); null otherwise.
  PairFinder(const Bvh& first, const Bvh& second, const Transform* transform, const SelfSlot* slots,
             detail::PairCallback callback = nullptr, void* context = nullptr)
      : first_(first, nullptr, slots != nullptr),
        second_(second, transform),
        pairs_(first_, slots != nullptr ? first_ : second_, slots, callback, context),
        walk_(first_, second_, pairs_, slots != nullptr) {}
  PairFinder(const PairFinder&) = delete;
  PairFinder& operator=(const PairFinder&) = delete;

  [[nodiscard]] detail::PairWalk<IntersectingPairs>& walk() noexcept { return walk_; }
  /// The pairs found, the last batch decided first.
  [[nodiscard]] std::vector<TrianglePair>& found() {
    pairs_.finish();
    return pairs_.found();
  }

  /// The whole walk; false when the callback stopped it.
  bool walk_all() {
    SubtreePair root;
    return !walk_.root_pair(root) || (walk_.depth_first(root) && pairs_.finish());
  }

 private:
  PairSide first_, second_;
  IntersectingPairs pairs_;
  detail::PairWalk<IntersectingPairs> walk_;
};

bool visit_pairs(const Bvh& first, const Bvh& second, const Transform* transform, bool self,
                 detail::PairCallback callback, void* context) {
  if (first.empty() || second.empty()) return true;
  std::vector<SelfSlot> slots;
  if (self) tbb::task_arena(1).execute([&] { slots = self_slots(first); });
  return PairFinder(first, second, transform, self ? slots.data() : nullptr, callback, context)
      .walk_all();
}

/// Every pair, sorted, so the answer does not depend on the thread count or the schedule.
std::vector<TrianglePair> collect_pairs(const Bvh& first, const Bvh& second,
                                        const Transform* transform, bool self,
                                        const OverlapOptions& options) {
  validate_thread_count(options.threads, "overlap options");
  if (first.empty() || second.empty()) return {};
  return detail::with_thread_fallback(static_cast<int>(options.threads), [&] {
    std::vector<SelfSlot> slots;
    if (self) slots = self_slots(first);
    const SelfSlot* self_slots_or_null = self ? slots.data() : nullptr;
    return detail::collect_sorted_pairs<PairFinder>(first, second, transform, self_slots_or_null);
  });
}

}  // namespace

namespace detail {

bool visit_intersecting_pairs(const Bvh& a, const Bvh& b, const Transform& b_to_a,
                              PairCallback callback, void* context) {
  return visit_pairs(a, b, checked_transform(b, b_to_a), false, callback, context);
}

bool visit_self_intersections(const Bvh& bvh, PairCallback callback, void* context) {
  return visit_pairs(bvh, bvh, nullptr, true, callback, context);
}

}  // namespace detail

std::vector<TrianglePair> collect_intersecting_pairs(const Bvh& first, const Bvh& second,
                                                     const Transform& second_to_first,
                                                     const OverlapOptions& options) {
  return collect_pairs(first, second, checked_transform(second, second_to_first), false, options);
}

bool any_intersecting_pair(const Bvh& first, const Bvh& second, const Transform& second_to_first) {
  return !for_each_intersecting_pair(first, second, second_to_first,
                                     [](TriangleId, TriangleId) { return false; });
}

std::vector<TrianglePair> self_intersections(const Bvh& bvh, const OverlapOptions& options) {
  return collect_pairs(bvh, bvh, nullptr, true, options);
}

std::vector<TrianglePair> self_intersections(const TriangleSoup& soup,
                                             const OverlapOptions& options) {
  BuildOptions build_options;
  build_options.threads = options.threads;
  return self_intersections(build(soup, build_options), options);
}

}  // namespace trisect
