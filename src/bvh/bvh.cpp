#include "trisect/bvh/bvh.hpp"

#include "trisect/bvh/plane_query.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include "trisect/detail/thread_fallback.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
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

// A wide node to visit, with the slot range [begin, end) and the box every triangle below it
// must lie in: the root's box and the decoded child boxes on the way down, intersected.
struct Visit {
  std::uint32_t index, begin, end;
  Aabb box;
  int depth;
};

// Checks what the lanes of `node` share: grid exponents in range, used lanes first and
// marked in `used`, unused lanes at the node's end with faces 0.
void check_lanes(const WideNode& node, const Visit& visit) {
  for (const std::uint8_t exponent : node.exponent)
    if (exponent == 0 || exponent == 255) broken(wide_name(visit.index) + " has a bad grid step");
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

// Checks used lane `lane` of `node`, reached as `visit`; marks the slots of a leaf in
// `covered`.
void check_child(const Bvh& bvh, const Aabb& reach, const WideNode& node, const Visit& visit,
                 int lane, std::vector<std::uint8_t>& covered) {
  const std::string child = wide_name(visit.index) + " child " + std::to_string(lane);
  const std::uint32_t begin = node.first[lane], end = node.child_end(lane, visit.end);
  const Aabb box = node.child_bounds(lane);
  if (!(begin < end && end <= visit.end)) broken(child + " has a bad slot range");
  if (box.is_empty()) broken(child + " has empty bounds");
  if (!reach.contains(rounded_once(node, lane)))
    broken(child + " bounds are outside the plane query's reach");
  if (node.child[lane] != WideNode::leaf) return;
  for (std::uint32_t slot = begin; slot < end; ++slot) {
    if (covered[slot]) broken(slot_name(slot) + " is in two leaves");
    covered[slot] = 1;
    const LeafRange stored = bvh.triangles.leaf_of(slot);
    if (stored.begin != begin || stored.end != end)
      broken("triangles of " + slot_name(slot) + " are not grouped as " + child + " says");
    const Triangle corners = bvh.triangles.triangle(slot);
    if (!is_finite(corners.a) || !is_finite(corners.b) || !is_finite(corners.c))
      broken("triangle in " + slot_name(slot) + " has a coordinate that is not finite");
    const Aabb triangle = corners.bounds();
    if (!box.contains(triangle))
      broken("triangle in " + slot_name(slot) + " is outside " + child + " bounds");
    if (!visit.box.contains(triangle))
      broken("triangle in " + slot_name(slot) + " is outside the root box or a box above " + child);
  }
}

// Checks the wide nodes: each node's used lanes come first and split its slot range
// [begin, end) into non-empty consecutive ranges (so the leaves tile [0, size) exactly once),
// every decoded child box holds the triangles below it and lies in the plane query's reach,
// and every wide node is reached exactly once, no deeper than max_bvh_depth.
void check_wide(const Bvh& bvh) {
  if (bvh.bounds().is_empty()) broken("the root box is empty");
  if (!is_finite(bvh.bounds().min) || !is_finite(bvh.bounds().max))
    broken("the root box is not finite");
  const Aabb reach = PlaneQuery::reach_of(bvh);
  std::vector<std::uint8_t> reached(bvh.wide.size(), 0), covered(bvh.size(), 0);
  std::vector<Visit> stack{{0, 0, static_cast<std::uint32_t>(bvh.size()), bvh.bounds(), 0}};
  while (!stack.empty()) {
    const Visit visit = stack.back();
    stack.pop_back();
    if (visit.index >= bvh.wide.size() || reached[visit.index])
      broken(wide_name(visit.index) + " is out of range or reached twice");
    if (visit.depth > max_bvh_depth) broken(wide_name(visit.index) + " is too deep");
    reached[visit.index] = 1;
    const WideNode& node = bvh.wide[visit.index];
    check_lanes(node, visit);
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int lane = std::countr_zero(used);
      check_child(bvh, reach, node, visit, lane, covered);
      if (node.child[lane] != WideNode::leaf)
        stack.push_back({node.child[lane], node.first[lane], node.child_end(lane, visit.end),
                         visit.box.intersected(node.child_bounds(lane)), visit.depth + 1});
    }
  }
  for (std::size_t index = 0; index < reached.size(); ++index)
    if (!reached[index]) broken(wide_name(index) + " is unreachable");
  for (std::size_t slot = 0; slot < covered.size(); ++slot)
    if (!covered[slot]) broken(slot_name(slot) + " is in no leaf");
}

void check_ids(const Bvh& bvh) {
  std::vector<std::uint8_t> seen(bvh.size(), 0);
  for (const TriangleId id : bvh.ids) {
    if (id >= bvh.size() || seen[id])
      broken("id " + std::to_string(id) + " is out of range or repeated");
    seen[id] = 1;
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
      stats.sah_cost +=
          double(intersection_cost) * double(child.end - child.begin) * relative_area(child.box);
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

void validate(const Bvh& bvh, const TriangleSoup* soup) {
  if (bvh.triangles.size() != bvh.ids.size()) broken("triangles and ids differ in length");
  if (bvh.wide.empty() != (bvh.size() == 0))
    broken(std::to_string(bvh.wide.size()) + " wide nodes over " + std::to_string(bvh.size()) +
           " triangles");
  if (!bvh.empty()) check_wide(bvh);
  check_ids(bvh);
  if (soup != nullptr) check_against(bvh, *soup);
}

void refresh_ray_nodes(Bvh& bvh) {
  const std::size_t count = bvh.wide.size();
  if (bvh.ray_nodes.size() != count) bvh.ray_nodes = std::vector<RayNode>(count);
  if (count == 0) return;
  // Each node's slot range ends where its parent says; parents come before their children.
  std::vector<std::uint32_t> ends(count, 0);
  ends[0] = static_cast<std::uint32_t>(bvh.size());
  for (std::size_t i = 0; i < count; ++i) {
    const WideNode& node = bvh.wide[i];
    for (int lane = 0; lane < WideNode::width; ++lane)
      if (node.child[lane] != WideNode::leaf && node.child[lane] < count)
        ends[node.child[lane]] = node.child_end(lane, ends[i]);
  }
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1024),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end(); ++i)
                          bvh.ray_nodes[i] = RayNode::of(bvh.wide[i], ends[i]);
                      });
  });
}

}  // namespace trisect
