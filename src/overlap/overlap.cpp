// Mesh against mesh and self-intersections: a simultaneous descent of two 8-wide BVHs.
// Compiled with -ffp-contract=off: the transform's rounding rule forbids fused multiply-adds,
// and the outward rounding of mapped boxes relies on every operation rounding once.
#include "trisect/overlap/overlap.hpp"

#include "bvh/checked_transform.hpp"
#include "math/transform_rows.hpp"
#include "math/transformed_box.hpp"
#include "trisect/bvh/box_query.hpp"
#include "trisect/bvh/build.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/geometry/detail/self_overlap_filter.hpp"
#include "trisect/geometry/self_overlap.hpp"
#include "trisect/geometry/triangle_triangle.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace trisect {
namespace {

using detail::checked_transform;
using detail::transformed_box;
using detail::within_float_range;

/// A subtree during the descent: a wide node (`node` its index) or a leaf (`node` ==
/// WideNode::leaf), its slot range, and its box in the first mesh's frame.
struct NodeRef {
  std::uint32_t node;
  std::uint32_t begin, end;
  Aabb box;

  [[nodiscard]] bool is_leaf() const noexcept { return node == WideNode::leaf; }
  [[nodiscard]] bool operator==(const NodeRef& other) const noexcept {
    return node == other.node && begin == other.begin;
  }
};

/// Two subtrees whose boxes overlap: `first` of the first tree, `second` of the second.
struct NodePair {
  NodeRef first, second;
};

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
/// every leaf many times): its triangle, its bounds and its plane in float for the four-lane
/// filter of neighbour pairs (`LaneVerdicts`). The normal in double of the exact rule is left
/// to the few pairs the filter does not decide.
struct SelfSlot {
  Triangle triangle;
  Aabb bounds;
  detail::FloatPlane plane;
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
              slots[first + std::uint32_t(lane)] = {t, t.bounds(), detail::FloatPlane::of(t)};
            }
          });
    }
  });
  return slots;
}

/// One side of the descent: a BVH and the transform of its triangles and boxes (null for
/// none), with the mapped child boxes of each wide node this thread has reached so far.
class Side {
 public:
  /// `keep`: keep the boxes of every node reached even untransformed (a self query meets
  /// each node many times).
  Side(const Bvh& bvh, const Transform* transform, bool keep = false)
      : bvh_(bvh), transform_(transform), keep_(keep || transform != nullptr) {}

  [[nodiscard]] const Bvh& bvh() const noexcept { return bvh_; }

  /// The root's box, mapped.
  [[nodiscard]] Aabb root_box() const { return mapped(bvh_.bounds()); }

  /// The decoded child boxes of wide node `index`, clipped to the root's box (a decoded box
  /// may reach +inf where a node spans the whole float range, and the exact leaf tests take
  /// these boxes) and mapped. Valid until the next call for a side that does not keep them
  /// (decoded each time), until the next new node's for one that does (kept per node, as the
  /// descent meets a node many times).
  [[nodiscard]] const ChildBoxes& boxes(std::uint32_t index) {
    if (!keep_) {
      decoded_ = clipped_boxes(index);
      return decoded_;
    }
    if (mapped_index_.empty()) mapped_index_.assign(bvh_.wide.size(), unset);
    std::uint32_t& at = mapped_index_[index];
    if (at == unset) {
      at = static_cast<std::uint32_t>(mapped_boxes_.size());
      ChildBoxes boxes = clipped_boxes(index);
      for (unsigned used = transform_ != nullptr ? bvh_.wide[index].used_mask() : 0u; used != 0;
           used &= used - 1) {
        const int i = std::countr_zero(used);
        boxes.set(i, mapped(boxes.child_bounds(i)));
      }
      mapped_boxes_.push_back(boxes);
    }
    return mapped_boxes_[at];
  }

  /// `t` mapped.
  [[nodiscard]] Triangle mapped(const Triangle& t) const noexcept {
    if (transform_ == nullptr) return t;
    return {detail::transform_point(*transform_, t.a), detail::transform_point(*transform_, t.b),
            detail::transform_point(*transform_, t.c)};
  }

 private:
  static constexpr std::uint32_t unset = 0xffffffffu;

  // The decoded child boxes of wide node `index`, clipped to the root's box.
  [[nodiscard]] ChildBoxes clipped_boxes(std::uint32_t index) const noexcept {
    ChildBoxes boxes = ChildBoxes::of(bvh_.wide[index]);
    boxes.clip(bvh_.bounds());
    return boxes;
  }

  [[nodiscard]] Aabb mapped(const Aabb& box) const noexcept {
    return transform_ != nullptr ? within_float_range(transformed_box(*transform_, box)) : box;
  }

  const Bvh& bvh_;
  const Transform* transform_;
  bool keep_;
  ChildBoxes decoded_{};
  std::vector<std::uint32_t> mapped_index_;
  std::vector<ChildBoxes> mapped_boxes_;
};

/// The descent of one pair of trees (or of one tree against itself), reporting each pair the
/// exact test accepts to a callback, or collecting them when the callback is null. One finder
/// per thread.
class PairFinder {
 public:
  /// `slots`: for a self query, every slot of `first` (`self_slots`); null otherwise.
  PairFinder(const Bvh& first, const Bvh& second, const Transform* transform, const SelfSlot* slots,
             detail::PairCallback callback, void* context)
      : first_(first, nullptr, slots != nullptr),
        second_(second, transform),
        slots_(slots),
        self_(slots != nullptr),
        callback_(callback),
        context_(context) {}

  [[nodiscard]] NodeRef first_root() const {
    return {0, 0, std::uint32_t(first_.bvh().size()), first_.root_box()};
  }
  [[nodiscard]] NodeRef second_root() const {
    return {0, 0, std::uint32_t(second_.bvh().size()), second_.root_box()};
  }

  /// The pairs collected (when constructed without a callback).
  [[nodiscard]] std::vector<TrianglePair>& found() noexcept { return found_; }

  /// Appends to `out` the pairs of subtrees that `pair` splits into (those whose boxes
  /// overlap), or the pair itself when both are leaves.
  void split(const NodePair& pair, std::vector<NodePair>& out) {
    const NodeRef &x = pair.first, &y = pair.second;
    if (self_ && x == y) return split_same(x, out);
    if (x.is_leaf() && y.is_leaf()) return out.push_back(pair);
    const bool split_first =
        y.is_leaf() || (!x.is_leaf() && x.box.half_area() >= y.box.half_area());
    if (split_first) {
      for_each_child(first_, x, y.box, [&](const NodeRef& child) { out.push_back({child, y}); });
    } else {
      for_each_child(self_ ? first_ : second_, y, x.box, [&](const NodeRef& child) {
        out.push_back({x, child});
      });
    }
  }

  /// Depth-first descent of the whole pair of trees; false when the callback stopped it.
  bool descend_all() {
    const NodePair root{first_root(), second_root()};
    return !root.first.box.overlaps(root.second.box) || descend(root);
  }

  /// Depth-first descent below `start`; false when the callback stopped it.
  bool descend(const NodePair& start) {
    stack_.clear();
    stack_.push_back(start);
    while (!stack_.empty()) {
      const NodePair pair = stack_.back();
      stack_.pop_back();
      if (pair.first.is_leaf() && pair.second.is_leaf()) {
        if (!test_leaves(pair.first, pair.second)) return false;
        continue;
      }
      split(pair, stack_);
    }
    return true;
  }

 private:
  /// Calls `use(child)` for each child of the wide node `x` of `side` whose box overlaps
  /// `box` (all eight lanes compared at once).
  template <class Use>
  static void for_each_child(Side& side, const NodeRef& x, const Aabb& box, const Use& use) {
    const WideNode& node = side.bvh().wide[x.node];
    const ChildBoxes& boxes = side.boxes(x.node);
    const unsigned touching = BoxQuery{box}.child_masks(boxes).touching & node.used_mask();
    for (unsigned mask = touching; mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      use(NodeRef{node.child[i], node.first[i], node.child_end(i, x.end), boxes.child_bounds(i)});
    }
  }

  /// The self pair (x, x): each child with itself and with every later child it overlaps.
  void split_same(const NodeRef& x, std::vector<NodePair>& out) {
    if (x.is_leaf()) return out.push_back({x, x});
    const WideNode& node = first_.bvh().wide[x.node];
    const ChildBoxes boxes = first_.boxes(x.node);
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      const NodeRef child{node.child[i], node.first[i], node.child_end(i, x.end),
                          boxes.child_bounds(i)};
      out.push_back({child, child});
      const unsigned later = BoxQuery{child.box}.child_masks(boxes).touching & used & ~(1u << i);
      for (unsigned mask = later; mask != 0; mask &= mask - 1) {
        const int j = std::countr_zero(mask);
        out.push_back({child, NodeRef{node.child[j], node.first[j], node.child_end(j, x.end),
                                      boxes.child_bounds(j)}});
      }
    }
  }

  bool report(TriangleId a, TriangleId b) {
    if (self_ && b < a) std::swap(a, b);
    if (callback_ == nullptr) {
      found_.push_back({a, b});
      return true;
    }
    return callback_(context_, a, b);
  }

  /// The last leaf of one side made ready: the descent meets a leaf many times in a row (with
  /// each child of the node it was split against).
  struct LeafCache {
    std::uint32_t begin = WideNode::unused;
    std::vector<Ready> ready;
  };

  /// The triangles of `side`'s leaf `x`, mapped and made ready (or taken from `cache`).
  static const std::vector<Ready>& ready_leaf(const Side& side, const NodeRef& x,
                                              LeafCache& cache) {
    if (cache.begin != x.begin) {
      cache.begin = x.begin;
      cache.ready.clear();
      side.bvh().triangles.for_each_group(
          x.begin, x.end, [&](std::uint32_t, const TriangleGroup& group) {
            for (int lane = 0; lane < group.count; ++lane)
              cache.ready.push_back(Ready::of(side.mapped(group.triangle(lane))));
          });
    }
    return cache.ready;
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
  bool test_leaves(const NodeRef& x, const NodeRef& y) {
    if (self_) return x == y ? test_same_leaf(x) : test_self_leaves(x, y);
    const std::vector<Ready>& ys = ready_leaf(second_, y, second_cache_);
    keep(ys, x.box, second_kept_);
    if (second_kept_.empty()) return true;
    const std::vector<Ready>& xs = ready_leaf(first_, x, first_cache_);
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
  bool test_self_leaves(const NodeRef& x, const NodeRef& y) {
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
  bool test_same_leaf(const NodeRef& x) {
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
  /// whose bounds miss i's out, then the four-lane filter (`LaneVerdicts`, which decides most
  /// neighbours of a mesh, most of the rest down to two orientations), then the exact rule on
  /// each lane left.
  bool test_group(std::uint32_t i, std::uint32_t first, const TriangleGroup& group,
                  unsigned lanes) {
    if (lanes == 0) return true;
    const SelfSlot& s = slots_[i];
    lanes &= ~detail::box_apart_lanes(s.bounds, group);
    if (lanes == 0) return true;
    const detail::LaneVerdicts verdicts =
        detail::LaneVerdicts::of(s.triangle, s.plane, group, lanes);
    for (lanes &= ~verdicts.apart; lanes != 0; lanes &= lanes - 1) {
      const int lane = std::countr_zero(lanes);
      const std::uint32_t j = first + static_cast<std::uint32_t>(lane);
      const Triangle& t = slots_[j].triangle;
      const bool meets =
          (verdicts.straddling >> lane & 1u) != 0
              ? detail::lane_straddling_meet(s.triangle, t, verdicts, lane)
              : !detail::lane_projected_apart(s.triangle, s.plane, t, verdicts, lane) &&
                    intersects_beyond_shared_vertices(s.triangle, t);
      if (meets && !report(first_.bvh().ids[i], first_.bvh().ids[j])) return false;
    }
    return true;
  }

  Side first_, second_;
  const SelfSlot* slots_;
  bool self_;
  detail::PairCallback callback_;
  void* context_;
  std::vector<NodePair> stack_;
  LeafCache first_cache_, second_cache_;
  std::vector<std::uint32_t> first_kept_, second_kept_;
  std::vector<TrianglePair> found_;
};

bool visit_pairs(const Bvh& first, const Bvh& second, const Transform* transform, bool self,
                 detail::PairCallback callback, void* context) {
  if (first.empty() || second.empty()) return true;
  std::vector<SelfSlot> slots;
  if (self) tbb::task_arena(1).execute([&] { slots = self_slots(first); });
  return PairFinder(first, second, transform, self ? slots.data() : nullptr, callback, context)
      .descend_all();
}

/// Pairs of subtrees to share among threads: the root pair split breadth-first until there
/// are enough to balance, or only leaf pairs are left.
std::vector<NodePair> tasks(PairFinder& finder, std::size_t enough) {
  std::vector<NodePair> current = {{finder.first_root(), finder.second_root()}}, next;
  if (!current[0].first.box.overlaps(current[0].second.box)) return {};
  for (int round = 0; round < 8 && current.size() < enough; ++round) {
    next.clear();
    for (const NodePair& pair : current) finder.split(pair, next);
    if (next.size() <= current.size()) break;  // only leaf pairs left
    current.swap(next);
  }
  return current;
}

// `collect_pairs` in the calling task arena, on its threads.
std::vector<TrianglePair> pairs_in_arena(const Bvh& first, const Bvh& second,
                                         const Transform* transform, bool self) {
  std::vector<SelfSlot> slots;
  if (self) slots = self_slots(first);
  const auto make_finder = [&] {
    return PairFinder(first, second, transform, self ? slots.data() : nullptr, nullptr, nullptr);
  };
  std::vector<TrianglePair> pairs;
  if (tbb::this_task_arena::max_concurrency() == 1) {
    PairFinder finder = make_finder();
    finder.descend_all();
    pairs = std::move(finder.found());
  } else {
    PairFinder planner = make_finder();
    const std::vector<NodePair> work = tasks(planner, 1024);
    tbb::enumerable_thread_specific<PairFinder> finders(make_finder);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, work.size(), 1), [&](const auto& range) {
      PairFinder& finder = finders.local();
      for (std::size_t k = range.begin(); k != range.end(); ++k) finder.descend(work[k]);
    });
    std::size_t total = 0;
    for (PairFinder& finder : finders) total += finder.found().size();
    pairs.reserve(total);
    for (PairFinder& finder : finders)
      pairs.insert(pairs.end(), finder.found().begin(), finder.found().end());
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// Every pair, sorted: the subtree pairs of `tasks` shared among threads, each thread with its
/// own finder (and so its own mapped boxes), the per-thread lists joined and sorted, so the
/// answer does not depend on the thread count or the schedule.
std::vector<TrianglePair> collect_pairs(const Bvh& first, const Bvh& second,
                                        const Transform* transform, bool self,
                                        const OverlapOptions& options) {
  validate_thread_count(options.threads, "overlap options");
  if (first.empty() || second.empty()) return {};
  return detail::with_thread_fallback(static_cast<int>(options.threads), [&] {
    return pairs_in_arena(first, second, transform, self);
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
