#include "trisect/bvh/bvh.hpp"

#include "default_init_allocator.hpp"
#include "huge_pages.hpp"

#include "trisect/bvh/plane_query.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace trisect {
namespace {

[[noreturn]] void broken(const std::string& problem) { throw InvalidInput("bvh: " + problem); }

std::string wide_name(std::size_t index) { return "wide node " + std::to_string(index); }

std::string slot_name(std::size_t slot) { return "slot " + std::to_string(slot); }

// Half the surface area of `box` in double, its faces clamped to the float range (a decoded
// upper face may be +inf): finite for any box, even one spanning the whole float range.
double half_area_in_double(const Aabb& box) {
  constexpr double largest = std::numeric_limits<float>::max();
  double extent[3];
  for (int axis = 0; axis < 3; ++axis)
    extent[axis] = std::clamp(double(box.max[axis]), -largest, largest) -
                   std::clamp(double(box.min[axis]), -largest, largest);
  return extent[0] * extent[1] + extent[1] * extent[2] + extent[2] * extent[0];
}

// The slot ranges of the leaves of a tree's wide nodes `wide` over `slot_count` slots, in no
// particular order.
std::vector<LeafRange> leaf_ranges(std::span<const WideNode> wide, std::uint32_t slot_count) {
  std::vector<LeafRange> leaves;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0, slot_count}};  // node, end
  while (!stack.empty()) {
    const auto [index, end] = stack.back();
    stack.pop_back();
    const WideNode& node = wide[index];
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      if (node.child[i] == WideNode::leaf)
        leaves.push_back({node.first[i], node.child_end(i, end)});
      else
        stack.emplace_back(node.child[i], node.child_end(i, end));
    }
  }
  return leaves;
}

// --- the structure: what a query needs to stay in the arrays, finish and stay finite ---

// A wide node reached by the walk over the tree, with the slot range [begin, end) its parent
// gives it and its depth (the root's 0).
struct NodeVisit {
  std::uint32_t index, begin, end;
  int depth;
};

std::string child_name(std::uint32_t index, int lane) {
  return wide_name(index) + " child " + std::to_string(lane);
}

// Checks `node`'s grid: a finite origin and normal steps.
void check_grid(const WideNode& node, std::uint32_t index) {
  for (int axis = 0; axis < 3; ++axis)
    if (!std::isfinite(node.origin[axis]))
      broken(wide_name(index) + " has a grid origin that is not finite");
  for (int axis = 0; axis < 3; ++axis)
    if (node.exponent[axis] == 0 || node.exponent[axis] == 255)
      broken(wide_name(index) + " has grid exponent " + std::to_string(node.exponent[axis]) +
             " on axis " + std::to_string(axis) + ", outside 1 to 254");
}

// Checks what the lanes of `node` share: used lanes first and marked in `used`, unused lanes
// at the node's end with faces 0.
void check_lanes(const WideNode& node, const NodeVisit& visit) {
  if (node.first[0] != visit.begin || node.child[0] == WideNode::unused)
    broken(wide_name(visit.index) + " does not start at its range");
  unsigned used = 0;
  for (int lane = 0; lane < WideNode::width; ++lane) {
    if (node.child[lane] != WideNode::unused) {
      used |= 1u << lane;
      continue;
    }
    bool faces_zero = true;
    for (const auto& row : node.faces) faces_zero = faces_zero && row[lane] == 0;
    if (node.first[lane] != visit.end || !faces_zero ||
        (lane + 1 < WideNode::width && node.child[lane + 1] != WideNode::unused))
      broken(wide_name(visit.index) + " has a misplaced unused lane");
  }
  if (node.used_mask() != used) broken(wide_name(visit.index) + " has a wrong used mask");
}

// Checks used lane `lane` of `node`: a non-empty slot range inside the node's, after the lane
// before (so the children's ranges tile the node's), and a wide node child in range and not
// reached before (so the wide nodes form a tree), which it marks in `reached`.
void check_child(const WideNode& node, const NodeVisit& visit, int lane,
                 std::vector<std::uint8_t>& reached) {
  const std::uint32_t begin = node.first[lane], end = node.child_end(lane, visit.end);
  if (!(begin < end && end <= visit.end))
    broken(child_name(visit.index, lane) + " has a bad slot range [" + std::to_string(begin) +
           ", " + std::to_string(end) + ") in [" + std::to_string(visit.begin) + ", " +
           std::to_string(visit.end) + ")");
  const std::uint32_t child = node.child[lane];
  if (child == WideNode::leaf) return;
  if (child >= reached.size())
    broken(child_name(visit.index, lane) + " is wide node " + std::to_string(child) +
           ", out of range for " + std::to_string(reached.size()) + " wide nodes");
  if (reached[child])
    broken(child_name(visit.index, lane) + " is wide node " + std::to_string(child) +
           ", reached twice");
  reached[child] = 1;
}

// One bit per slot, set where a leaf starts, and bit `slot_count` set too: what
// `LeafTriangles::leaf_start_array` holds for these leaves.
class LeafStarts {
 public:
  explicit LeafStarts(std::size_t slot_count) : words_(slot_count / 64 + 1, 0) { mark(slot_count); }
  void mark(std::size_t slot) { words_[slot / 64] |= std::uint64_t{1} << (slot % 64); }
  [[nodiscard]] std::span<const std::uint64_t> words() const { return words_; }

 private:
  std::vector<std::uint64_t> words_;
};

// Walks the wide nodes from the root, checking each (every one reached exactly once, no
// deeper than max_bvh_depth); returns where its leaves start.
LeafStarts walk_wide(const Bvh& bvh) {
  std::vector<std::uint8_t> reached(bvh.wide.size(), 0);
  reached.front() = 1;
  LeafStarts leaf_starts(bvh.size());
  std::vector<NodeVisit> stack{{0, 0, static_cast<std::uint32_t>(bvh.size()), 0}};
  while (!stack.empty()) {
    const NodeVisit visit = stack.back();
    stack.pop_back();
    if (visit.depth > max_bvh_depth) broken(wide_name(visit.index) + " is too deep");
    const WideNode& node = bvh.wide[visit.index];
    check_grid(node, visit.index);
    check_lanes(node, visit);
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int lane = std::countr_zero(used);
      check_child(node, visit, lane, reached);
      if (node.child[lane] == WideNode::leaf) leaf_starts.mark(node.first[lane]);
    }
    // The last lane's child first, so that the nodes are visited in memory order (depth first,
    // as the builders lay them out), which the hardware prefetches.
    for (int lane = WideNode::width - 1; lane >= 0; --lane)
      if (node.child[lane] != WideNode::leaf && node.child[lane] != WideNode::unused)
        stack.push_back(
            {node.child[lane], node.first[lane], node.child_end(lane, visit.end), visit.depth + 1});
  }
  const auto unreached = std::find(reached.begin(), reached.end(), 0);
  if (unreached != reached.end())
    broken(wide_name(static_cast<std::size_t>(unreached - reached.begin())) + " is unreachable");
  return leaf_starts;
}

// Checks that the stored leaf starts are `expected`, the tree's.
void check_leaf_starts(const Bvh& bvh, const LeafStarts& expected) {
  const std::span<const std::uint64_t> stored = bvh.triangles.leaf_start_array().span();
  for (std::size_t word = 0; word < stored.size(); ++word) {
    const std::uint64_t differ = expected.words()[word] ^ stored[word];
    if (differ == 0) continue;
    const int bit = std::countr_zero(differ);
    const std::string slot = slot_name(64 * word + static_cast<std::size_t>(bit));
    broken((stored[word] >> bit & 1u) != 0
               ? "the leaf starts mark " + slot + ", inside a leaf"
               : "the leaf starts do not mark " + slot + ", where a leaf starts");
  }
}

// Lowers `least` to `value` if it is larger.
void lower_to(std::atomic<std::uint32_t>& least, std::uint32_t value) {
  std::uint32_t now = least.load(std::memory_order_relaxed);
  while (value < now && !least.compare_exchange_weak(now, value, std::memory_order_relaxed)) {
  }
}

// True when every coordinate of `triangle` is in `box` (so finite, `box` being finite).
bool inside(const Triangle& triangle, const Aabb& box) {
  bool inside = true;
  for (const Vec3& corner : {triangle.a, triangle.b, triangle.c})
    for (int axis = 0; axis < 3; ++axis)
      inside &= box.min[axis] <= corner[axis] && corner[axis] <= box.max[axis];
  return inside;
}

// A box's faces splatted across the lanes of a `TriangleGroup`.
struct CoordinateBounds {
  Float4 low[3], high[3];

  explicit CoordinateBounds(const Aabb& box) {
    for (int axis = 0; axis < 3; ++axis) {
      low[axis] = Float4::splat(box.min[axis]);
      high[axis] = Float4::splat(box.max[axis]);
    }
  }
  // True when every coordinate of `group` is within the bounds: `inside` the box for every
  // triangle of the group, nine SIMD rows at a time.
  [[nodiscard]] bool hold(const TriangleGroup& group) const {
    unsigned inside = group.lane_mask();
    for (int vertex = 0; vertex < 3; ++vertex)
      for (int axis = 0; axis < 3; ++axis) {
        const Float4 value = group.lanes(vertex, axis);
        inside &= less_equal_mask(low[axis], value) & less_equal_mask(value, high[axis]);
      }
    return inside == group.lane_mask();
  }
};

// The first slot of `leaf` whose triangle is not `inside` `box`; `leaf.end` when there is none.
std::uint32_t first_outside(const LeafTriangles& triangles, LeafRange leaf, const Aabb& box,
                            const CoordinateBounds& bounds) {
  std::uint32_t outside = leaf.end;
  triangles.for_each_group(leaf.begin, leaf.end,
                           [&](std::uint32_t first, const TriangleGroup& group) {
                             if (bounds.hold(group)) return true;
                             int lane = 0;
                             while (lane + 1 < group.count && inside(group.triangle(lane), box))
                               ++lane;
                             outside = first + static_cast<std::uint32_t>(lane);
                             return false;
                           });
  return outside;
}

// Checks that every triangle has finite coordinates inside the (finite) root box, naming the
// first slot that does not; then that the padding after them is zero. The leaf starts must be
// checked: the leaves are read from them, in slot order (in memory order), in parallel.
void check_coordinates(const Bvh& bvh) {
  const CoordinateBounds bounds(bvh.bounds());
  const std::span<const std::uint64_t> leaf_starts = bvh.triangles.leaf_start_array().span();
  std::atomic<std::uint32_t> first_bad{std::numeric_limits<std::uint32_t>::max()};
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, leaf_starts.size(), 256), [&](const auto& words) {
        for (std::size_t word = words.begin(); word != words.end(); ++word)
          for (std::uint64_t bits = leaf_starts[word]; bits != 0; bits &= bits - 1) {
            const std::size_t slot = 64 * word + static_cast<std::size_t>(std::countr_zero(bits));
            if (slot == bvh.size()) break;
            const LeafRange leaf = bvh.triangles.leaf_of(static_cast<std::uint32_t>(slot));
            const std::uint32_t outside = first_outside(bvh.triangles, leaf, bvh.bounds(), bounds);
            if (outside < leaf.end) lower_to(first_bad, outside);
          }
      });
  if (const std::uint32_t slot = first_bad.load(); slot < bvh.size()) {
    const Triangle t = bvh.triangles.triangle(slot);
    broken("triangle in " + slot_name(slot) +
           (is_finite(t.a) && is_finite(t.b) && is_finite(t.c)
                ? " is outside the root box"
                : " has a coordinate that is not finite"));
  }
  const float* padding = bvh.triangles.coordinate_array().data() + 9 * bvh.size();
  if (!std::all_of(padding, padding + TriangleGroup::width - 1, [](float x) { return x == 0; }))
    broken("the coordinates after the last triangle are not zero");
}

// Checks that the ids are a permutation of [0, size()): each in range, none twice.
void check_ids(const Bvh& bvh) {
  std::vector<std::uint64_t> seen(bvh.size() / 64 + 1, 0);
  for (std::size_t slot = 0; slot < bvh.size(); ++slot) {
    const TriangleId id = bvh.ids[slot];
    if (id >= bvh.size())
      broken(slot_name(slot) + " holds id " + std::to_string(id) + ", out of range for " +
             std::to_string(bvh.size()) + " triangles");
    const std::uint64_t bit = std::uint64_t{1} << (id % 64);
    if (seen[id / 64] & bit) broken("id " + std::to_string(id) + " is in two slots");
    seen[id / 64] |= bit;
  }
}

// --- the boxes: what an exact answer needs beyond the structure ---

// A wide node to visit, with the slot range [begin, end) and the box every triangle below it
// must lie in: the root's box and the decoded child boxes on the way down, intersected.
struct Visit {
  std::uint32_t index, begin, end;
  Aabb box;
  int depth;
};

// Child `lane`'s box with each face decoded as fl(o + q s), one rounding: what
// `PlaneQuery::reach_of` bounds (`child_bounds` may decode an upper face whose product
// overflows to +inf).
Aabb rounded_once(const WideNode& node, int lane) {
  Aabb box;
  for (int axis = 0; axis < 3; ++axis) {
    box.min[axis] = std::fma(float(node.faces[2 * axis][lane]), node.step(axis), node.origin[axis]);
    box.max[axis] =
        std::fma(float(node.faces[2 * axis + 1][lane]), node.step(axis), node.origin[axis]);
  }
  return box;
}

// Checks used lane `lane` of `node`, reached as `visit`: its decoded box is not empty, lies in
// `reach` and holds the triangles of a leaf.
void check_child_box(const Bvh& bvh, const Aabb& reach, const WideNode& node, const Visit& visit,
                     int lane) {
  const std::string child = child_name(visit.index, lane);
  const Aabb box = node.child_bounds(lane);
  if (box.is_empty()) broken(child + " has empty bounds");
  if (!reach.contains(rounded_once(node, lane)))
    broken(child + " bounds are outside the plane query's reach");
  if (node.child[lane] != WideNode::leaf) return;
  for (std::uint32_t slot = node.first[lane]; slot < node.child_end(lane, visit.end); ++slot) {
    const Aabb triangle = bvh.triangles.triangle(slot).bounds();
    if (!box.contains(triangle))
      broken("triangle in " + slot_name(slot) + " is outside " + child + " bounds");
    if (!visit.box.contains(triangle))
      broken("triangle in " + slot_name(slot) + " is outside the root box or a box above " + child);
  }
}

// Checks the decoded child boxes of a tree whose structure is valid: each holds the triangles
// below it and lies in the plane query's reach.
void check_boxes(const Bvh& bvh) {
  const Aabb reach = PlaneQuery::reach_of(bvh);
  std::vector<Visit> stack{{0, 0, static_cast<std::uint32_t>(bvh.size()), bvh.bounds(), 0}};
  while (!stack.empty()) {
    const Visit visit = stack.back();
    stack.pop_back();
    const WideNode& node = bvh.wide[visit.index];
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int lane = std::countr_zero(used);
      check_child_box(bvh, reach, node, visit, lane);
      if (node.child[lane] != WideNode::leaf)
        stack.push_back({node.child[lane], node.first[lane], node.child_end(lane, visit.end),
                         visit.box.intersected(node.child_bounds(lane)), visit.depth + 1});
    }
  }
}

void check_against(const Bvh& bvh, const TriangleSoup& soup) {
  if (soup.size() != bvh.size()) broken("built over a soup of a different size");
  for (std::uint32_t slot = 0; slot < bvh.size(); ++slot)
    if (!(bvh.triangles.triangle(slot) == soup.triangle(bvh.ids[slot])))
      broken(slot_name(slot) + " does not hold input triangle " + std::to_string(bvh.ids[slot]));
}

}  // namespace

BvhStatistics statistics(const Bvh& bvh, float traversal_cost, float intersection_cost) {
  BvhStatistics stats;
  stats.bytes = bvh.wide.bytes() + bvh.triangles.bytes() + bvh.ids.bytes();
  stats.ray_node_bytes = bvh.ray_nodes.bytes();
  stats.ray_leaf_bytes = bvh.ray_leaves.bytes();
  if (bvh.empty()) return stats;
  stats.bytes_per_triangle = double(stats.bytes) / double(bvh.size());
  const double root_area = half_area_in_double(bvh.bounds());
  const auto relative_area = [root_area](const Aabb& box) {
    return root_area > 0 ? half_area_in_double(box) / root_area : 1.0;
  };
  std::vector<Visit> stack{{0, 0, static_cast<std::uint32_t>(bvh.size()), bvh.bounds(), 0}};
  while (!stack.empty()) {
    const Visit visit = stack.back();
    stack.pop_back();
    ++stats.node_count;
    stats.sah_cost += double(traversal_cost) * relative_area(visit.box);
    stats.sah_cost_lanes += double(traversal_cost) * relative_area(visit.box);
    const WideNode& node = bvh.wide[visit.index];
    for (int lane = 0; lane < WideNode::width && node.child[lane] != WideNode::unused; ++lane) {
      const Visit child{node.child[lane], node.first[lane], node.child_end(lane, visit.end),
                        node.child_bounds(lane), visit.depth + 1};
      if (node.child[lane] != WideNode::leaf) {
        stack.push_back(child);
        continue;
      }
      ++stats.node_count;
      ++stats.leaf_count;
      stats.depth = std::max(stats.depth, child.depth);
      const std::uint32_t triangles = child.end - child.begin;
      const std::uint32_t lanes =
          (triangles + TriangleGroup::width - 1) / TriangleGroup::width * TriangleGroup::width;
      stats.sah_cost += double(intersection_cost) * double(triangles) * relative_area(child.box);
      stats.sah_cost_lanes += double(intersection_cost) * double(lanes) * relative_area(child.box);
    }
  }
  return stats;
}

std::vector<Vec3> triangle_corners(const Bvh& bvh) {
  std::vector<Vec3> corners(3 * bvh.size());
  if (bvh.empty()) return corners;
  const std::vector<LeafRange> leaves =
      leaf_ranges(bvh.wide.span(), static_cast<std::uint32_t>(bvh.size()));
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, leaves.size(), 1024), [&](const auto& range) {
          for (std::size_t leaf = range.begin(); leaf != range.end(); ++leaf)
            bvh.triangles.for_each_group(
                leaves[leaf].begin, leaves[leaf].end,
                [&](std::uint32_t first, const TriangleGroup& group) {
                  for (int lane = 0; lane < group.count; ++lane) {
                    const Triangle t = group.triangle(lane);
                    Vec3* at =
                        corners.data() + 3 * std::size_t{bvh.ids[first + std::uint32_t(lane)]};
                    at[0] = t.a;
                    at[1] = t.b;
                    at[2] = t.c;
                  }
                });
        });
  });
  return corners;
}

void validate_structure(const Bvh& bvh) {
  if (bvh.triangles.size() != bvh.ids.size()) broken("triangles and ids differ in length");
  if (bvh.wide.empty() != (bvh.size() == 0))
    broken(std::to_string(bvh.wide.size()) + " wide nodes over " + std::to_string(bvh.size()) +
           " triangles");
  if (!(std::isfinite(bvh.built_sah_cost) && bvh.built_sah_cost >= 0))
    broken("the SAH cost as built is not a finite number of 0 or more");
  if (bvh.empty()) return;
  if (bvh.bounds().is_empty()) broken("the root box is empty");
  if (!is_finite(bvh.bounds().min) || !is_finite(bvh.bounds().max))
    broken("the root box is not finite");
  // The ids beside the rest, their error (if any) reported only when the rest has none; on
  // one thread when no worker can start.
  detail::with_thread_fallback(0, [&] {
    std::exception_ptr ids_problem;
    tbb::parallel_invoke(
        [&] {
          check_leaf_starts(bvh, walk_wide(bvh));
          check_coordinates(bvh);
        },
        [&] {
          try {
            check_ids(bvh);
          } catch (const InvalidInput&) {
            ids_problem = std::current_exception();
          }
        });
    if (ids_problem) std::rethrow_exception(ids_problem);
  });
}

void validate(const Bvh& bvh, const TriangleSoup* soup) {
  validate_structure(bvh);
  if (!bvh.empty()) check_boxes(bvh);
  if (soup != nullptr) check_against(bvh, *soup);
}

void refresh_ray_nodes(Bvh& bvh) {
  const std::size_t count = bvh.wide.size();
  // Each node's slot range ends where its parent says; parents come before their children.
  std::vector<std::uint32_t> ends(count, 0);
  if (count != 0) ends[0] = static_cast<std::uint32_t>(bvh.size());
  for (std::size_t i = 0; i < count; ++i) {
    const WideNode& node = bvh.wide[i];
    for (int lane = 0; lane < WideNode::width; ++lane)
      if (node.child[lane] != WideNode::leaf && node.child[lane] < count)
        ends[node.child[lane]] = node.child_end(lane, ends[i]);
  }
  // The nodes with a ray node, numbered in wide order; the others are bottom nodes.
  constexpr std::uint32_t bottom = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> ray_index(count, bottom);
  std::vector<std::uint32_t> upper;  // wide index of each ray node
  for (std::size_t i = 0; i < count; ++i)
    if (!RayNode::walks_as_bottom(bvh.wide[i], ends[i] - bvh.wide[i].first[0])) {
      ray_index[i] = static_cast<std::uint32_t>(upper.size());
      upper.push_back(static_cast<std::uint32_t>(i));
    }
  if (bvh.ray_nodes.size() != upper.size()) {
    // Not zeroed, and on huge pages before first written: rays read the nodes at random.
    std::vector<RayNode, detail::DefaultInitAllocator<RayNode>> nodes;
    detail::resize_on_huge_pages(nodes, upper.size());
    bvh.ray_nodes = std::move(nodes);
  }
  // The reference of inner child `lane` of wide node `i`.
  const auto inner_refs = [&](std::size_t i, std::uint64_t(&refs)[WideNode::width]) {
    const WideNode& node = bvh.wide[i];
    for (int lane = 0; lane < WideNode::width; ++lane) {
      const std::uint32_t child = node.child[lane];
      if (child >= count) continue;  // a leaf or an unused lane
      refs[lane] = ray_index[child] == bottom
                       ? RayNode::bottom_ref(child, ends[child] - node.first[lane])
                       : ray_index[child];
    }
  };
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, upper.size(), 1024),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t r = range.begin(); r < range.end(); ++r) {
                          std::uint64_t refs[WideNode::width] = {};
                          inner_refs(upper[r], refs);
                          bvh.ray_nodes[r] = RayNode::of(bvh.wide[upper[r]], ends[upper[r]], refs);
                        }
                      });
  });
  bvh.ray_view_of = count;
}

void refresh_ray_leaves(Bvh& bvh) { bvh.ray_leaves = RayLeaves::of(bvh.triangles); }

}  // namespace trisect
