// Mesh against mesh and self-intersections: a simultaneous descent of two 8-wide BVHs.
// Compiled with -ffp-contract=off: the transform's rounding rule forbids fused multiply-adds,
// and the outward rounding of mapped boxes relies on every operation rounding once.
#include "trisect/bvh/overlap.hpp"

#include "../math/transform_rows.hpp"
#include "trisect/bvh/build.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
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

namespace trisect {
namespace {

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

/// A float <= x and a float >= x, close to x. Rounding to float errs by at most 2^-24 |x|
/// plus half the smallest subnormal (2^-150), so moving x away first by 2^-22 |x| + 2^-140
/// (itself rounded in double, a far smaller error) makes the rounding outward.
[[nodiscard]] float float_below(double x) noexcept {
  return static_cast<float>(x - (std::fabs(x) * 0x1p-22 + 0x1p-140));
}
[[nodiscard]] float float_above(double x) noexcept {
  return static_cast<float>(x + (std::fabs(x) * 0x1p-22 + 0x1p-140));
}

/// A box holding `transform.apply(v)` for every float point v of `box`. Per output row, the
/// exact extremes are sums of per-axis extremes; the computed sums, and each vertex's own
/// computed row, are within 3 roundings of 2^-53 · M of the exact values, M = sum of the
/// largest |terms| (products of floats are exact in double). Widening by 8·2^-53·M in double
/// and rounding outward to float covers both, as rounding to float is monotone.
[[nodiscard]] Aabb transformed_box(const Transform& transform, const Aabb& box) noexcept {
  Aabb result;
  for (int r = 0; r < 3; ++r) {
    const float* row = transform.rows.data() + 4 * r;
    double low = 0, high = 0, magnitude = std::fabs(double(row[3]));
    for (int k = 0; k < 3; ++k) {
      const double p = double(row[k]) * double(box.min[k]), q = double(row[k]) * double(box.max[k]);
      low += std::min(p, q);
      high += std::max(p, q);
      magnitude += std::max(std::fabs(p), std::fabs(q));
    }
    const double slack = 8 * exact::unit_roundoff * magnitude;
    result.min[r] = float_below(low + double(row[3]) - slack);
    result.max[r] = float_above(high + double(row[3]) + slack);
  }
  return result;
}

/// The descent of one pair of trees (or of one tree against itself), reporting each pair the
/// exact test accepts to a callback. One finder per thread.
class PairFinder {
 public:
  PairFinder(const Bvh& first, const Bvh& second, const Transform* transform, bool self,
             detail::PairCallback callback, void* context)
      : first_(first),
        second_(second),
        transform_(transform),
        self_(self),
        callback_(callback),
        context_(context) {}

  [[nodiscard]] NodeRef first_root() const {
    return {0, 0, std::uint32_t(first_.size()), first_.bounds()};
  }
  [[nodiscard]] NodeRef second_root() const {
    return {0, 0, std::uint32_t(second_.size()), second_box(second_.bounds())};
  }

  /// Appends to `out` the pairs of subtrees that `pair` splits into (those whose boxes
  /// overlap), or the pair itself when both are leaves.
  void split(const NodePair& pair, std::vector<NodePair>& out) const {
    const NodeRef &x = pair.first, &y = pair.second;
    if (self_ && x == y) return split_same(x, out);
    if (x.is_leaf() && y.is_leaf()) return out.push_back(pair);
    const bool split_first =
        y.is_leaf() || (!x.is_leaf() && x.box.half_area() >= y.box.half_area());
    if (split_first) {
      for_each_child(first_, x, false, [&](const NodeRef& child) {
        if (child.box.overlaps(y.box)) out.push_back({child, y});
      });
    } else {
      for_each_child(second_, y, !self_, [&](const NodeRef& child) {
        if (child.box.overlaps(x.box)) out.push_back({x, child});
      });
    }
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
  [[nodiscard]] Aabb second_box(const Aabb& box) const noexcept {
    return transform_ != nullptr ? transformed_box(*transform_, box) : box;
  }

  [[nodiscard]] Triangle second_triangle(std::uint32_t slot) const noexcept {
    const Triangle& t = second_.triangles[slot];
    if (transform_ == nullptr) return t;
    return {detail::transform_point(*transform_, t.a), detail::transform_point(*transform_, t.b),
            detail::transform_point(*transform_, t.c)};
  }

  /// Calls `use(child)` for each used child of the wide node `x` of `bvh`.
  template <class Use>
  void for_each_child(const Bvh& bvh, const NodeRef& x, bool mapped, const Use& use) const {
    const WideNode& node = bvh.wide[x.node];
    for (int i = 0; i < WideNode::width && node.child[i] != WideNode::unused; ++i) {
      const Aabb box = node.child_bounds(i);
      use(NodeRef{node.child[i], node.first[i], node.child_end(i, x.end),
                  mapped ? second_box(box) : box});
    }
  }

  /// The self pair (x, x): each child with itself and with every later child it overlaps.
  void split_same(const NodeRef& x, std::vector<NodePair>& out) const {
    if (x.is_leaf()) return out.push_back({x, x});
    NodeRef children[WideNode::width];
    int count = 0;
    for_each_child(first_, x, false, [&](const NodeRef& child) { children[count++] = child; });
    for (int i = 0; i < count; ++i)
      for (int j = i; j < count; ++j)
        if (i == j || children[i].box.overlaps(children[j].box))
          out.push_back({children[i], children[j]});
  }

  bool report(std::uint32_t slot_a, std::uint32_t slot_b) {
    if (!self_) return callback_(context_, first_.ids[slot_a], second_.ids[slot_b]);
    const TriangleId a = first_.ids[slot_a], b = first_.ids[slot_b];
    return callback_(context_, std::min(a, b), std::max(a, b));
  }

  /// True when the triangle with bounds `bounds` cannot touch `box`: the box normals and the
  /// triangle's normal, four of the separating axes of `intersects(triangle, box)`. The nine
  /// edge axes cost more than they save at leaves of a few triangles (measured on the bunny).
  [[nodiscard]] static bool culled(const Triangle& t, const Aabb& bounds, const Aabb& box) {
    return !bounds.overlaps(box) || detail::triangle_normal_separates(t, box);
  }

  /// Every pair of slots of two leaves (of one leaf with itself: i < j), exactly.
  bool test_leaves(const NodeRef& x, const NodeRef& y) {
    const bool same = self_ && x == y;
    // The second leaf's triangles (mapped) that may touch the first leaf's box.
    kept_.clear();
    for (std::uint32_t slot = y.begin; slot < y.end; ++slot) {
      const Triangle t = self_ ? first_.triangles[slot] : second_triangle(slot);
      const Aabb bounds = t.bounds();
      if (same || !culled(t, bounds, x.box)) kept_.push_back({t, bounds, slot});
    }
    if (kept_.empty()) return true;
    for (std::uint32_t slot = x.begin; slot < x.end; ++slot) {
      const Triangle& s = first_.triangles[slot];
      const Aabb s_bounds = s.bounds();
      if (!same && culled(s, s_bounds, y.box)) continue;
      for (const Kept& k : kept_) {
        if ((same && k.slot <= slot) || !s_bounds.overlaps(k.bounds)) continue;
        const bool meet =
            self_ ? intersects_beyond_shared_vertices(s, k.triangle) : intersects(s, k.triangle);
        if (meet && !report(slot, k.slot)) return false;
      }
    }
    return true;
  }

  struct Kept {
    Triangle triangle;
    Aabb bounds;
    std::uint32_t slot;
  };

  const Bvh& first_;
  const Bvh& second_;
  const Transform* transform_;
  bool self_;
  detail::PairCallback callback_;
  void* context_;
  std::vector<NodePair> stack_;
  std::vector<Kept> kept_;
};

/// The transform to apply, or null for the identity; throws for a non-finite number or a
/// vertex mapped to infinity.
const Transform* checked_transform(const Bvh& second, const Transform& transform) {
  validate(transform, "transform");
  if (transform.is_identity()) return nullptr;
  // Every mapped vertex lies in the mapped root box: when that is finite, so are they all.
  if (second.empty()) return &transform;
  const Aabb mapped_bounds = transformed_box(transform, second.bounds());
  if (is_finite(mapped_bounds.min) && is_finite(mapped_bounds.max)) return &transform;
  for (std::size_t slot = 0; slot < second.triangles.size(); ++slot) {
    const Triangle& t = second.triangles[slot];
    for (const Vec3& v : {t.a, t.b, t.c})
      if (!is_finite(detail::transform_point(transform, v)))
        throw InvalidInput("transform: maps a vertex of triangle " +
                           std::to_string(second.ids[slot]) + " to infinity");
  }
  return &transform;
}

bool visit_pairs(const Bvh& first, const Bvh& second, const Transform* transform, bool self,
                 detail::PairCallback callback, void* context) {
  if (first.empty() || second.empty()) return true;
  PairFinder finder(first, second, transform, self, callback, context);
  const NodePair root{finder.first_root(), finder.second_root()};
  if (!root.first.box.overlaps(root.second.box)) return true;
  return finder.descend(root);
}

bool push_pair(void* context, TriangleId a, TriangleId b) {
  static_cast<std::vector<TrianglePair>*>(context)->push_back({a, b});
  return true;
}

/// Pairs of subtrees to share among threads: the root pair split breadth-first until there
/// are enough to balance, or only leaf pairs are left.
std::vector<NodePair> tasks(const PairFinder& finder, std::size_t enough) {
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

std::vector<TrianglePair> collect_pairs(const Bvh& first, const Bvh& second,
                                        const Transform* transform, bool self,
                                        const OverlapOptions& options) {
  if (first.empty() || second.empty()) return {};
  const PairFinder planner(first, second, transform, self, nullptr, nullptr);
  const std::vector<NodePair> work = tasks(planner, 1024);
  std::vector<std::vector<TrianglePair>> found(work.size());
  const int threads = options.threads == 0 ? tbb::this_task_arena::max_concurrency()
                                           : static_cast<int>(options.threads);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, work.size(), 1), [&](const auto& range) {
      for (std::size_t k = range.begin(); k != range.end(); ++k) {
        PairFinder finder(first, second, transform, self, &push_pair, &found[k]);
        finder.descend(work[k]);
      }
    });
  });
  std::vector<TrianglePair> pairs;
  std::size_t total = 0;
  for (const auto& part : found) total += part.size();
  pairs.reserve(total);
  for (const auto& part : found) pairs.insert(pairs.end(), part.begin(), part.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
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
