#pragma once
/// \file
/// The walks of `DynamicAabbTree`'s box and ray queries (`query`, and `query_each`, which runs
/// up to eight box searches interleaved): the templates `dynamic_aabb_tree.hpp` declares, which
/// it includes from here. Not part of the API (no stability promised).

#include "trisect/broadphase/detail/ray_box_filter.hpp"
#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/broadphase/traversal_stack.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/validate.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace trisect {

// The children of inner node `node` that meet the query: leaves go to `visit` (false from it
// stops: the result is false), inner nodes onto `stack`, prefetched, so that their loads overlap
// the work until they are popped.
template <class Overlaps, ProxyVisitor Visit>
bool DynamicAabbTree::expand(const Node& node, const Overlaps& overlaps, Visit& visit,
                             TraversalStack& stack) const {
  for (int side = 0; side < 2; ++side) {
    if (!overlaps(node.box[side])) continue;
    const std::int32_t index = node.child[side];
    if (node.is_leaf(side)) {
      if (!visit(static_cast<ProxyId>(index))) return false;
      continue;
    }
    __builtin_prefetch(&nodes_[static_cast<std::size_t>(index)]);
    stack.push(index);
  }
  return true;
}

template <class Overlaps, ProxyVisitor Visit>
bool DynamicAabbTree::traverse(const Overlaps& overlaps, Visit& visit) const {
  if (root_ == null_node) return true;
  const Links& root = links_[static_cast<std::size_t>(root_)];
  if (!overlaps(root.box)) return true;
  if (root.height == 0) return visit(static_cast<ProxyId>(root_));
  TraversalStack stack;
  stack.push(root_);
  while (!stack.is_empty())
    if (!expand(nodes_[static_cast<std::size_t>(stack.pop())], overlaps, visit, stack))
      return false;
  return true;
}

template <class Visit>
void DynamicAabbTree::query_each(std::span<const Aabb> boxes, Visit&& visit) const {
  for (const Aabb& box : boxes) require_box(box);
  if (root_ == null_node) return;
  const Links& root = links_[static_cast<std::size_t>(root_)];
  struct Lane {
    TraversalStack stack;
    std::size_t query = 0;
  };
  constexpr std::size_t lane_count = 8;
  Lane lanes[lane_count];
  std::size_t next = 0;
  // Gives `lane` the next query that reaches below the root; false when none is left.
  const auto start = [&](Lane& lane) {
    for (; next < boxes.size(); ++next) {
      if (!root.box.overlaps(boxes[next])) continue;
      if (root.height == 0) {
        visit(next, static_cast<ProxyId>(root_));
        continue;
      }
      lane.query = next++;
      lane.stack.push(root_);
      return true;
    }
    return false;
  };
  std::size_t active = 0;
  for (Lane& lane : lanes) active += start(lane) ? 1u : 0u;
  while (active > 0) {
    for (Lane& lane : lanes) {
      if (lane.stack.is_empty()) continue;
      const Aabb& box = boxes[lane.query];
      const auto overlaps = [&box](const Aabb& node_box) { return node_box.overlaps(box); };
      const auto report = [&](ProxyId id) {
        visit(lane.query, id);
        return true;
      };
      (void)expand(nodes_[static_cast<std::size_t>(lane.stack.pop())], overlaps, report,
                   lane.stack);
      if (lane.stack.is_empty() && !start(lane)) --active;
    }
  }
}

template <ProxyVisitor Visit>
bool DynamicAabbTree::query(const Aabb& box, Visit&& visit) const {
  require_box(box);
  return traverse([&box](const Aabb& node_box) { return node_box.overlaps(box); }, visit);
}

template <ProxyVisitor Visit>
bool DynamicAabbTree::query(const Ray& ray, Visit&& visit) const {
  trisect::validate(ray);
  const detail::RayBoxFilter filter(ray);
  return traverse([&filter](const Aabb& node_box) { return filter.meets(node_box); }, visit);
}

}  // namespace trisect
