// The rebuild of a `DynamicAabbTree` spread over frames (`rebuild_gradually`): the old tree
// answers while a new one is split, a share of it per call, from the leaves as they were when
// it started (PhysX's scene-query pruner rebuilds its tree over `dynamicTreeRebuildRateHint`
// frames the same way). The new tree's inner nodes come from the same node storage, marked
// `pending_node` and out of the tree until the last split puts them in place.
#include "trisect/broadphase/dynamic_aabb_tree.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trisect {

void DynamicAabbTree::rebuild_gradually() {
  if (!gradual_.is_active) {
    const double misplaced = double(refits_ + joined_);
    if (proxy_count_ < 2 || misplaced < gradual_rebuild_start * double(proxy_count_)) return;
    start_gradual_rebuild();
    return;  // the first split (the whole range) waits for the next call
  }
  double work = std::max(gradual_.minimum_work,
                         double(changes_ - gradual_.changes_seen) * gradual_.work_per_change);
  gradual_.changes_seen = changes_;
  while (work > 0 && !gradual_.ranges.empty()) {
    const GradualRebuild::Range& range = gradual_.ranges.back();
    work -= double(range.end - range.begin);
    split_pending_range();
  }
  if (gradual_.ranges.empty()) finish_gradual_rebuild();
}

// Takes the leaves as they are, and sizes the work: about one leaf-split per leaf and level,
// and half as much again for the median splits of small ranges and uneven SAH splits (the
// estimate errs high so that the rebuild ends within its pace).
void DynamicAabbTree::start_gradual_rebuild() {
  GradualRebuild& job = gradual_;
  std::vector<BuildLeaf>& leaves = job.build.leaves;
  leaves.clear();
  leaves.reserve(proxy_count_);
  job.nodes.clear();
  job.nodes.reserve(proxy_count_ - 1);  // a binary tree over n leaves has n - 1 inner nodes
  job.ranges.clear();
  job.created.clear();
  job.ghosts.clear();
  Aabb centers = Aabb::empty();
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (links_[i].height == 0) {
      leaves.push_back({links_[i].box, links_[i].box.center(), std::int32_t(i)});
      centers.extend(leaves.back().center);
    }
  job.build.make_room();
  job.ranges.push_back({0, leaves.size(), centers, null_node, 0});
  for (const BuildLeaf& leaf : leaves)
    links_[static_cast<std::size_t>(leaf.node)].pending = pending_leaf;
  const double size = double(proxy_count_);
  const double total = 1.5 * size * double(std::bit_width(proxy_count_));
  job.work_per_change = total / (gradual_rebuild_pace * size);
  job.minimum_work = total / 256;
  job.changes_seen = changes_;
  job.root = null_node;
  job.is_active = true;
}

// Splits the range on top of the stack as `build_subtree` would, into a new pending node.
void DynamicAabbTree::split_pending_range() {
  GradualRebuild& job = gradual_;
  const GradualRebuild::Range range = job.ranges.back();
  std::int32_t child = job.build.leaves[range.begin].node;
  if (range.end - range.begin > 1) {
    const BuildSplit split = split_range(job.build, range.begin, range.end, range.centers);
    child = allocate_node();  // may throw: the stack is as it was
    Links& links = links_[static_cast<std::size_t>(child)];
    links.height = 1;  // inner, until its true height is known
    links.pending = pending_node;
    job.nodes.push_back(child);  // room reserved at the start
    job.ranges.back() = {split.middle, range.end, split.right_centers, child, 1};
    job.ranges.push_back({range.begin, split.middle, split.left_centers, child, 0});
  } else {
    job.ranges.pop_back();
  }
  if (range.parent == null_node)
    job.root = child;
  else
    nodes_[static_cast<std::size_t>(range.parent)].child[range.side] = child;
}

// The new tree takes the old one's place: its nodes get their children's current boxes and
// heights, children before parents; the old inner nodes are freed; then the leaves destroyed
// meanwhile leave it and those created meanwhile are inserted, with the rotations that keep the
// balance.
void DynamicAabbTree::finish_gradual_rebuild() {
  GradualRebuild& job = gradual_;
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  for (const std::int32_t ghost : job.ghosts) links_[at(ghost)].height = 0;
  // The leaves lie anywhere in the node storage: their links are fetched a few nodes ahead, so
  // that the misses overlap (this loop is most of the frame that puts the tree in place).
  constexpr std::size_t ahead = 16;
  for (std::size_t k = job.nodes.size(); k-- > 0;) {
    if (k >= ahead) {
      const Node& later = nodes_[at(job.nodes[k - ahead])];
      __builtin_prefetch(&links_[at(later.child[0])]);
      __builtin_prefetch(&links_[at(later.child[1])]);
    }
    const std::int32_t* node = &job.nodes[k];
    const Node& pending = nodes_[at(*node)];
    const std::int32_t children[2] = {pending.child[0], pending.child[1]};
    set_child(*node, 0, children[0]);
    set_child(*node, 1, children[1]);
    (void)refit(*node);
  }
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    Links& links = links_[i];
    if (links.height > 0 && (links.pending & pending_node) == 0)
      free_node(static_cast<std::int32_t>(i));
    else
      links.pending &= pending_created;
  }
  root_ = job.root;
  links_[at(root_)].parent = null_node;
  for (const std::int32_t ghost : job.ghosts) {
    remove_leaf(ghost);
    free_node(ghost);
  }
  for (const std::int32_t leaf : job.created) {
    Links& links = links_[at(leaf)];
    if (links.height != 0 || (links.pending & pending_created) == 0) continue;  // gone again
    links.pending = 0;
    links.parent = null_node;
    insert_subtree(leaf);
  }
  refits_ = 0;
  joined_ = 0;
  job.is_active = false;
}

// Forgets the rebuild under way; its nodes and destroyed leaves stay as they are marked, for
// `rebuild()`, which frees every node that is not a live leaf.
void DynamicAabbTree::cancel_gradual_rebuild() noexcept {
  for (Links& links : links_) links.pending = 0;
  gradual_.is_active = false;
  gradual_.ranges.clear();
}

}  // namespace trisect
