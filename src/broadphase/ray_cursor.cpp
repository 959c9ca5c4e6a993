// The nearest-first walk of a ray through a dynamic tree: a binary heap of the nodes the ray
// meets, keyed by an entry estimate, every entry re-tested exactly when it comes up.
#include "trisect/broadphase/ray_cursor.hpp"

#include <algorithm>
#include <limits>

namespace trisect {

namespace {

// Where `ray` enters `box` (which it meets), estimated in double by the slab method: the
// largest of t_min and the near slab planes' parameters. Only an order for the cursor.
double entry_estimate(const Ray& ray, const Aabb& box) {
  double entry = ray.t_min;
  for (int axis = 0; axis < 3; ++axis) {
    const double direction = ray.direction[axis];
    if (direction == 0) continue;
    const double near = direction > 0 ? box.min[axis] : box.max[axis];
    entry = std::max(entry, (near - double(ray.origin[axis])) / direction);
  }
  return entry;
}

// The heap's order: the smallest estimate on top, then the smaller index (a fixed order).
struct Later {
  template <class Entry>
  bool operator()(const Entry& a, const Entry& b) const noexcept {
    return a.entry > b.entry || (a.entry == b.entry && a.index > b.index);
  }
};

}  // namespace

TreeRayCursor::TreeRayCursor(const DynamicAabbTree& tree, const Ray& ray) : tree_(&tree) {
  if (tree.root_ == DynamicAabbTree::null_node) return;
  const DynamicAabbTree::Links& root = tree.links_[static_cast<std::size_t>(tree.root_)];
  push(ray, detail::RayBoxFilter(ray), root.box, tree.root_, root.height == 0);
}

void TreeRayCursor::push(const Ray& ray, const detail::RayBoxFilter& filter, const Aabb& box,
                         std::int32_t index, bool leaf) {
  if (!filter.meets(box)) return;
  heap_.push_back({entry_estimate(ray, box), index, leaf});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

double TreeRayCursor::next_entry() const noexcept {
  return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.front().entry;
}

ProxyId TreeRayCursor::next(const Ray& ray) {
  const detail::RayBoxFilter filter(ray);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Entry top = heap_.back();
    heap_.pop_back();
    const auto at = static_cast<std::size_t>(top.index);
    // Tested again: the ray may have been shortened since this entry was queued.
    if (!filter.meets(tree_->links_[at].box)) continue;
    if (top.leaf) return static_cast<ProxyId>(top.index);
    const DynamicAabbTree::Node& node = tree_->nodes_[at];
    for (int side = 0; side < 2; ++side)
      push(ray, filter, node.box[side], node.child[side], node.is_leaf(side));
  }
  return null;
}

}  // namespace trisect
