#include "trisect/bvh/bvh.hpp"

#include "trisect/math/validate.hpp"

#include <string>
#include <utility>

namespace trisect {
namespace {

float half_area(const Aabb& box) {
  const Vec3 size = box.max - box.min;
  return size.x * size.y + size.y * size.z + size.z * size.x;
}

[[noreturn]] void broken(const std::string& problem) { throw InvalidInput("bvh: " + problem); }

std::string node_name(std::size_t index) { return "node " + std::to_string(index); }

// Checks the structure below the root; returns the slots each leaf covers through `covered`.
void check_structure(const Bvh& bvh, std::vector<std::uint8_t>& covered) {
  std::vector<std::uint8_t> reached(bvh.nodes.size(), 0);
  std::vector<std::pair<std::size_t, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    if (reached[index]) broken(node_name(index) + " is reached twice");
    reached[index] = 1;
    if (depth > max_bvh_depth) broken(node_name(index) + " is deeper than max_bvh_depth");
    const BvhNode& node = bvh.nodes[index];
    if (node.bounds.is_empty()) broken(node_name(index) + " has empty bounds");
    if (node.is_leaf()) {
      if (std::size_t(node.first) + node.count > bvh.size())
        broken(node_name(index) + " covers slots beyond the triangle array");
      for (std::size_t slot = node.first; slot < node.first + node.count; ++slot) {
        if (covered[slot]) broken("slot " + std::to_string(slot) + " is in two leaves");
        covered[slot] = 1;
        if (!node.bounds.contains(bvh.triangles[slot].bounds()))
          broken("triangle in slot " + std::to_string(slot) + " is outside its " +
                 node_name(index) + " bounds");
      }
      continue;
    }
    const std::size_t left = index + 1, right = node.first;
    if (right <= left || right >= bvh.nodes.size())
      broken(node_name(index) + " has right child " + std::to_string(right) + " out of order");
    for (std::size_t child : {left, right}) {
      if (!node.bounds.contains(bvh.nodes[child].bounds))
        broken(node_name(child) + " bounds are not inside its parent " + node_name(index));
      stack.emplace_back(child, depth + 1);
    }
  }
  for (std::size_t index = 0; index < reached.size(); ++index)
    if (!reached[index]) broken(node_name(index) + " is unreachable");
}

std::string wide_name(std::size_t index) { return "wide node " + std::to_string(index); }

// Checks the wide nodes: each node's children split its slot range [begin, end) into
// non-empty consecutive ranges (so the leaves tile [0, size) exactly once), every child box
// holds what lies below it, and every wide node is reached exactly once.
void check_wide(const Bvh& bvh) {
  if (bvh.wide.empty()) broken("no wide nodes");
  struct Entry {
    std::uint32_t index, begin, end;
    Aabb box;
    int depth;
  };
  std::vector<std::uint8_t> reached(bvh.wide.size(), 0);
  std::vector<Entry> stack{{0, 0, static_cast<std::uint32_t>(bvh.size()), bvh.nodes[0].bounds, 0}};
  while (!stack.empty()) {
    const Entry entry = stack.back();
    stack.pop_back();
    if (entry.index >= bvh.wide.size() || reached[entry.index])
      broken(wide_name(entry.index) + " is out of range or reached twice");
    if (entry.depth > max_bvh_depth) broken(wide_name(entry.index) + " is too deep");
    reached[entry.index] = 1;
    const WideNode& node = bvh.wide[entry.index];
    if (node.first[0] != entry.begin || node.child[0] == WideNode::unused)
      broken(wide_name(entry.index) + " does not start at its range");
    for (int i = 0; i < WideNode::width; ++i) {
      const std::uint32_t begin = node.first[i], end = node.child_end(i, entry.end);
      const Aabb box = node.child_bounds(i);
      if (node.child[i] == WideNode::unused) {
        if (begin != entry.end) broken(wide_name(entry.index) + " has a misplaced unused lane");
        continue;
      }
      const std::string child = wide_name(entry.index) + " child " + std::to_string(i);
      if (!(begin < end && end <= entry.end)) broken(child + " has a bad slot range");
      if (!entry.box.contains(box)) broken(child + " bounds are not inside its parent's");
      if (node.child[i] != WideNode::leaf) {
        stack.push_back({node.child[i], begin, end, box, entry.depth + 1});
        continue;
      }
      for (std::uint32_t slot = begin; slot < end; ++slot)
        if (!box.contains(bvh.triangles[slot].bounds()))
          broken("triangle in slot " + std::to_string(slot) + " is outside " + child + " bounds");
    }
  }
  for (std::size_t index = 0; index < reached.size(); ++index)
    if (!reached[index]) broken(wide_name(index) + " is unreachable");
}

}  // namespace

BvhStatistics statistics(const Bvh& bvh, float traversal_cost, float intersection_cost) {
  BvhStatistics stats;
  stats.bytes = bvh.nodes.capacity() * sizeof(BvhNode) +
                bvh.triangles.capacity() * sizeof(Triangle) +
                bvh.ids.capacity() * sizeof(TriangleId) + bvh.wide.capacity() * sizeof(WideNode);
  if (bvh.empty()) return stats;
  const double root_area = half_area(bvh.nodes[0].bounds);
  std::vector<std::pair<std::size_t, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    const BvhNode& node = bvh.nodes[index];
    const double relative_area = root_area > 0 ? double(half_area(node.bounds)) / root_area : 1.0;
    ++stats.node_count;
    stats.depth = std::max(stats.depth, depth);
    if (node.is_leaf()) {
      ++stats.leaf_count;
      stats.sah_cost += double(intersection_cost) * node.count * relative_area;
    } else {
      stats.sah_cost += double(traversal_cost) * relative_area;
      stack.emplace_back(index + 1, depth + 1);
      stack.emplace_back(node.first, depth + 1);
    }
  }
  return stats;
}

void validate(const Bvh& bvh, const TriangleSoup* soup) {
  const std::size_t n = bvh.ids.size();
  if (bvh.triangles.size() != n) broken("triangles and ids differ in length");
  if (bvh.nodes.empty()) {
    if (n != 0) broken("no nodes but " + std::to_string(n) + " triangles");
  } else {
    std::vector<std::uint8_t> covered(n, 0);
    check_structure(bvh, covered);
    check_wide(bvh);
    for (std::size_t slot = 0; slot < n; ++slot)
      if (!covered[slot]) broken("slot " + std::to_string(slot) + " is in no leaf");
  }
  std::vector<std::uint8_t> seen(n, 0);
  for (std::size_t slot = 0; slot < n; ++slot) {
    const TriangleId id = bvh.ids[slot];
    if (id >= n || seen[id]) broken("id " + std::to_string(id) + " is out of range or repeated");
    seen[id] = 1;
  }
  if (soup == nullptr) return;
  if (soup->size() != n) broken("built over a soup of a different size");
  for (std::size_t slot = 0; slot < n; ++slot)
    if (!(bvh.triangles[slot] == soup->triangle(bvh.ids[slot])))
      broken("slot " + std::to_string(slot) + " does not hold input triangle " +
             std::to_string(bvh.ids[slot]));
}

}  // namespace trisect
