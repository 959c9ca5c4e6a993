// The rebuild of a `DynamicAabbTree` spread over frames (`rebuild_gradually`): the old tree
// answers while a new one is made, a share of it per call (PhysX's scene-query pruner rebuilds
// its tree over `dynamicTreeRebuildRateHint` frames the same way). Every phase is spread: the
// leaves are gathered in storage order, their ranges split top down into new nodes (from the
// same node storage, of the other generation), the new nodes given their children's boxes
// bottom up, linked through the other parent slot (a leaf that moves meanwhile passes its new
// box up to the installed ones); putting the new tree in place then flips the slot and the
// generation, and leaves the old nodes to be freed a share at a time.
#include "trisect/broadphase/dynamic_aabb_tree.hpp"

#include "reserve_more.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trisect {
namespace {

// Work units, each about the cost of one leaf in one split (binning and partitioning it).
constexpr double gather_cost = 1;   // a node looked at for the gathering
constexpr double install_cost = 6;  // a new node given its children's boxes (scattered loads)
constexpr double sweep_cost = 1;    // a node looked at after the new tree is in place

}  // namespace

void DynamicAabbTree::rebuild_gradually() {
  GradualRebuild& job = gradual_;
  if (job.phase == Phase::idle) {
    const double misplaced = double(refits_ + joined_);
    if (proxy_count_ < 2 || misplaced < gradual_rebuild_start * double(proxy_count_)) return;
    start_gradual_rebuild();
  }
  double work = std::clamp(double(changes_ - job.changes_seen) * job.work_per_change,
                           job.minimum_work, job.maximum_work);
  job.changes_seen = changes_;
  // Each phase passes the work it leaves to the next.
  if (job.phase == Phase::gathering) work = gather_leaves(work);
  if (job.phase == Phase::splitting) work = split_ranges(work);
  if (job.phase == Phase::installing) work = install_nodes(work);
  if (job.phase == Phase::sweeping) (void)sweep_old_nodes(work);
}

// Sizes the work: a look at each node to gather and to sweep, about one leaf-split per leaf and
// level and half as much again for the median splits of small ranges and uneven SAH splits, and
// the installation of each new node (the estimate errs high, so that the rebuild ends within
// its pace).
void DynamicAabbTree::start_gradual_rebuild() {
  GradualRebuild& job = gradual_;
  job.build.leaves.clear();
  job.build.leaves.reserve(proxy_count_);  // may throw: before any change
  job.nodes.clear();
  job.nodes.reserve(proxy_count_ - 1);  // a binary tree over n leaves has n - 1 inner nodes
  job.ranges.clear();
  job.created.clear();
  job.ghosts.clear();
  job.centers = Aabb::empty();
  job.cursor = 0;
  job.root = null_node;
  const double size = double(proxy_count_), storage = double(nodes_.size());
  const double total = (gather_cost + sweep_cost) * storage +
                       1.5 * size * double(std::bit_width(proxy_count_)) + install_cost * size;
  job.work_per_change = total / (gradual_rebuild_pace * size);
  job.minimum_work = total / 256;
  job.maximum_work = total / 32;
  job.changes_seen = changes_;
  job.phase = Phase::gathering;
}

// The leaves as they are when the cursor passes them; those created since the start are
// inserted when the new tree is in place, and are passed by.
double DynamicAabbTree::gather_leaves(double work) {
  GradualRebuild& job = gradual_;
  for (; job.cursor < nodes_.size() && work > 0; ++job.cursor, work -= gather_cost) {
    Links& links = links_[job.cursor];
    if (links.height != 0 || (links.pending & pending_created) != 0) continue;
    const auto leaf = static_cast<std::int32_t>(job.cursor);
    job.build.leaves.push_back({links.box, links.box.center(), leaf});  // room reserved
    job.centers.extend(job.build.leaves.back().center);
    links.pending = pending_leaf;
  }
  if (job.cursor < nodes_.size()) return work;
  job.build.make_room();  // may throw: the gathering then ends at the next call
  if (!job.build.leaves.empty())
    job.ranges.push_back({0, job.build.leaves.size(), job.centers, null_node, 0});
  job.phase = Phase::splitting;
  return work;
}

double DynamicAabbTree::split_ranges(double work) {
  GradualRebuild& job = gradual_;
  while (work > 0 && !job.ranges.empty()) {
    const GradualRebuild::Range& range = job.ranges.back();
    work -= double(range.end - range.begin);
    split_pending_range();
  }
  if (job.ranges.empty()) {
    job.phase = Phase::installing;
    job.cursor = job.nodes.size();
  }
  return work;
}

// Splits the range on top of the stack as `build_subtree` would, into a new node of the other
// generation.
void DynamicAabbTree::split_pending_range() {
  GradualRebuild& job = gradual_;
  const GradualRebuild::Range range = job.ranges.back();
  std::int32_t child = job.build.leaves[range.begin].node;
  if (range.end - range.begin > 1) {
    const BuildSplit split = split_range(job.build, range.begin, range.end, range.centers);
    child = allocate_node();  // may throw: the stack is as it was
    Links& links = links_[static_cast<std::size_t>(child)];
    links.height = 1;  // inner, until its true height is known
    links.pending = generation_ ^ new_generation;
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

// Children before parents: each new node takes its children's current boxes and heights (a
// leaf destroyed meanwhile counts as a leaf until it is removed), and becomes their parent in
// the other slot, which the old tree does not read.
double DynamicAabbTree::install_nodes(double work) {
  GradualRebuild& job = gradual_;
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  const int slot = parent_slot_ ^ 1;
  // The children lie anywhere in the node storage: their links are fetched a few nodes ahead.
  constexpr std::size_t ahead = 16;
  for (; job.cursor > 0 && work > 0; work -= install_cost) {
    const std::size_t k = --job.cursor;
    if (k >= ahead) {
      const Node& later = nodes_[at(job.nodes[k - ahead])];
      __builtin_prefetch(&links_[at(later.child[0])]);
      __builtin_prefetch(&links_[at(later.child[1])]);
    }
    const std::int32_t index = job.nodes[k];
    Node& node = nodes_[at(index)];
    for (int side = 0; side < 2; ++side) {
      Links& child = links_[at(node.child[side])];
      child.parents[slot] = index;
      node.box[side] = child.box;
      const bool is_new_inner = child.height > 0 && (child.pending & new_generation) != generation_;
      node.height[side] = is_new_inner ? child.height : std::int16_t{0};
    }
    Links& links = links_[at(index)];
    links.box = node.box[0].merged(node.box[1]);
    links.height = static_cast<std::int16_t>(1 + std::max(node.height[0], node.height[1]));
    links.pending |= installed;
  }
  if (job.cursor == 0) put_new_tree_in_place();
  return work;
}

// A leaf whose box changed while the new nodes are being installed: its new ancestors that
// are installed already take the change, up the other parent slot (as a refit in place does up
// the tree's), until one's box stays. So the new tree is exact when it is put in place, and
// each move pays for its own share instead of the frame that puts the tree in place.
void DynamicAabbTree::note_box_changed(std::int32_t leaf) noexcept {
  if (gradual_.phase != Phase::installing) return;
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  const int slot = parent_slot_ ^ 1;
  for (std::int32_t child = leaf, above = links_[at(leaf)].parents[slot]; above != null_node;
       child = above, above = links_[at(above)].parents[slot]) {
    // A parent link in the other slot is only the new parent's once the install wrote it (it
    // may be left from an older rebuild): the node must be a new one, installed, with this
    // child. Else the node takes its children's boxes when it is installed.
    if (!is_installed(at(above))) return;
    Links& links = links_[at(above)];
    Node& node = nodes_[at(above)];
    const int side = node.child[0] == child ? 0 : 1;
    if (node.child[side] != child) return;
    node.box[side] = links_[at(child)].box;
    const Aabb box = node.box[0].merged(node.box[1]);
    if (box == links.box) return;
    links.box = box;
  }
}

// The new tree replaces the old: the parent slot and the generation flip, the leaves destroyed
// meanwhile are removed and those created meanwhile inserted.
void DynamicAabbTree::put_new_tree_in_place() {
  GradualRebuild& job = gradual_;
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  parent_slot_ ^= 1;
  generation_ ^= new_generation;
  root_ = job.root;
  if (root_ != null_node) set_parent(root_, null_node);
  // Leaves again before any is removed: a removal copies its sibling's height into the
  // grandparent, and a sibling still marked destroyed would break the heights there.
  for (const std::int32_t ghost : job.ghosts) links_[at(ghost)].height = 0;
  for (const std::int32_t ghost : job.ghosts) {
    remove_leaf(ghost);
    free_node(ghost);
  }
  for (const std::int32_t leaf : job.created) {
    Links& links = links_[at(leaf)];
    if (links.height != 0 || (links.pending & pending_created) == 0) continue;  // gone again
    links.pending = 0;
    set_parent(leaf, null_node);
    insert_subtree(leaf);
  }
  refits_ = 0;
  joined_ = 0;
  job.phase = Phase::sweeping;
  job.cursor = 0;
}

// Frees the old tree's inner nodes (those of the old generation) and clears the leaves' marks.
double DynamicAabbTree::sweep_old_nodes(double work) {
  GradualRebuild& job = gradual_;
  for (; job.cursor < nodes_.size() && work > 0; ++job.cursor, work -= sweep_cost) {
    Links& links = links_[job.cursor];
    if (links.height > 0 && !is_tree_inner(job.cursor))
      free_node(static_cast<std::int32_t>(job.cursor));
    else if (links.height == 0)
      links.pending = 0;
  }
  if (job.cursor >= nodes_.size()) job.phase = Phase::idle;
  return work;
}

// Forgets the rebuild under way (or the sweep after it); its nodes, the old nodes not yet freed
// and the destroyed leaves stay as they are, for `rebuild()`, which frees every node that is
// not a live leaf and makes the new ones of the current generation.
void DynamicAabbTree::cancel_gradual_rebuild() noexcept {
  for (Links& links : links_)
    if (links.height <= 0) links.pending = 0;
  gradual_.phase = Phase::idle;
  gradual_.ranges.clear();
}

}  // namespace trisect
