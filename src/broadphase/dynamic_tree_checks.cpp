// What a `DynamicAabbTree` tells of itself: the bound on its height, its height, and the check
// of every invariant (`validate`).
#include "trisect/broadphase/dynamic_aabb_tree.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace trisect {
namespace {

[[noreturn]] void broken(const std::string& what) {
  throw std::logic_error("DynamicAabbTree::validate: " + what);
}

}  // namespace

std::size_t DynamicAabbTree::fewest_leaves(int height) noexcept {
  // The fewest leaves of a tree of height h: one child of height h - 1, the other as low as
  // the balance allows (an AVL tree's Fibonacci recurrence, for `max_imbalance` 1). `last[i]`
  // holds the count for height h - 1 - i.
  constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
  std::array<std::size_t, max_imbalance + 1> last;
  last.fill(1);
  for (int h = 1; h <= height; ++h) {
    const std::size_t taller = last[0];
    const std::size_t shorter = last[std::size_t(std::min(max_imbalance, h - 1))];
    std::copy_backward(last.begin(), last.end() - 1, last.end());
    last[0] = taller > most - shorter ? most : taller + shorter;
  }
  return last[0];
}

int DynamicAabbTree::height() const noexcept {
  return root_ == null_node ? 0 : links_[static_cast<std::size_t>(root_)].height;
}

void DynamicAabbTree::validate() const {
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  std::size_t reached = 0, leaves = 0;
  if (root_ != null_node) {
    if (parent(root_) != null_node) broken("root has a parent");
    TraversalStack stack;
    stack.push(root_);
    while (!stack.is_empty()) {
      const std::int32_t index = stack.pop();
      const std::int32_t height = links_[at(index)].height;
      const std::string name = "node " + std::to_string(index);
      if (++reached > nodes_.size()) broken("a cycle through " + name);
      if (height < 0) broken(name + " is in the tree and on the free list");
      if (height == 0) {
        ++leaves;
        continue;
      }
      const Node& node = nodes_[at(index)];
      for (int side = 0; side < 2; ++side) {
        const Links& child = links_[at(node.child[side])];
        if (child.parents[parent_slot_] != index) broken(name + ": child's parent link");
        if (node.height[side] != child.height) broken(name + ": stored child height differs");
        if (!(node.box[side] == child.box)) broken(name + ": stored child box differs");
      }
      const Links& first = links_[at(node.child[0])];
      const Links& second = links_[at(node.child[1])];
      if (height != 1 + std::max(first.height, second.height)) broken(name + ": height");
      if (std::abs(first.height - second.height) > max_imbalance)
        broken(name + ": children's heights differ by more than max_imbalance");
      if (!(links_[at(index)].box == first.box.merged(second.box)))
        broken(name + ": box is not the union");
      stack.push(node.child[0]);
      stack.push(node.child[1]);
    }
  }
  if (leaves != proxy_count_) broken("leaf count differs from the proxy count");
  std::size_t free = 0;
  for (std::int32_t index = free_list_; index != null_node;) {
    const Links& links = links_[at(index)];
    if (links.height != -1) broken("node " + std::to_string(index) + " on the free list is in use");
    if (++free > nodes_.size()) broken("a cycle in the free list");
    index = links.parents[0];
  }
  // A gradual rebuild's new nodes and the leaves destroyed meanwhile, or once it is in place,
  // the old nodes not yet freed.
  std::size_t aside = 0;
  for (std::size_t index = 0; index < links_.size(); ++index)
    aside += (links_[index].height > 0 && !is_tree_inner(index)) || links_[index].height == -2;
  if (reached + free + aside != nodes_.size()) broken("nodes neither in the tree nor free");
}

}  // namespace trisect
