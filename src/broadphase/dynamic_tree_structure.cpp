// The shape of a `DynamicAabbTree`, all guided by surface areas: where a new leaf goes (the
// sibling search, insertion and removal), how the nodes above it follow (the copies of a
// child's box and height in its parent, the refit up the tree and the rotations that keep the
// balance), the whole-tree rebuild by a binned surface area heuristic, and the tree's surface
// area cost. One file: the sibling search and the rebuild compile to the same code as when the
// tree was one source (GCC's inlining of the area helpers depends on what else the file holds).
#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/math/float4.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

namespace trisect {
namespace {

// Half the surface area, in double: float products of huge extents would overflow.
double half_area(const Aabb& box) noexcept {
  const double x = double(box.max.x) - double(box.min.x);
  const double y = double(box.max.y) - double(box.min.y);
  const double z = double(box.max.z) - double(box.min.z);
  return x * y + y * z + z * x;
}

double merged_area(const Aabb& a, const Aabb& b) noexcept { return half_area(a.merged(b)); }
}  // namespace

double DynamicAabbTree::sah_cost() const {
  if (root_ == null_node) return 0;
  const double root_area = half_area(links_[static_cast<std::size_t>(root_)].box);
  if (root_area <= 0) return 0;
  double inner_area = 0;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (is_tree_inner(i)) inner_area += half_area(links_[i].box);
  return inner_area / root_area;
}

// Greedy branch and bound over one root-to-leaf path (Bittner et al. 2015, as Box2D v3's
// b2FindBestSibling does it): the cost of making node X the sibling of a new leaf (or subtree)
// with box `box` is the area of X merged with it plus the growth of every ancestor of X (the
// inherited cost). Below a node, no sibling can cost less than the box's own area plus the
// growth so far plus the node's own growth; the descent stops when both children's bounds are
// worse than the best found. Only nodes `height` to `height + max_imbalance` high can be
// siblings, so that the new parent is balanced and its place in the tree one higher than
// before (above them the descent goes on whatever the bounds; below them it stops). Among equal
// costs the lowest node wins. Equal bounds (both children contain the box, or grow alike) send
// the descent into the child with the smaller box, then the lower one: where the box's
// neighbours are more likely, and a balanced tree of equal boxes. The tree must be at least
// `height` high.
std::int32_t DynamicAabbTree::find_best_sibling(const Aabb& box, int height) const {
  const double box_area = half_area(box);
  const Links& root = links_[static_cast<std::size_t>(root_)];
  std::int32_t index = root_, best = null_node, best_height = 0;
  Aabb index_box = root.box;
  int index_height = root.height;
  double best_cost = std::numeric_limits<double>::infinity();
  const auto consider = [&](std::int32_t candidate, std::int32_t candidate_height, double cost) {
    if (candidate_height < height || candidate_height > height + max_imbalance) return;
    if (best == null_node || cost < best_cost ||
        (cost == best_cost && candidate_height < best_height)) {
      best_cost = cost;
      best = candidate;
      best_height = candidate_height;
    }
  };
  consider(root_, root.height, merged_area(index_box, box));
  double inherited = 0;
  while (index_height > height) {
    const Node& node = nodes_[static_cast<std::size_t>(index)];
    inherited += merged_area(index_box, box) - half_area(index_box);
    double lower_bound[2];
    for (int side = 0; side < 2; ++side) {
      const Aabb& child_box = node.box[side];
      const double direct = merged_area(child_box, box);
      consider(node.child[side], node.height[side], direct + inherited);
      lower_bound[side] = node.height[side] <= height
                              ? std::numeric_limits<double>::infinity()
                              : box_area + inherited + direct - half_area(child_box);
    }
    if (lower_bound[0] > best_cost && lower_bound[1] > best_cost) break;
    const int side = descend_side(node, lower_bound);
    index = node.child[side];
    index_box = node.box[side];
    index_height = node.height[side];
  }
  return best;
}

// The child the sibling search descends into: the lower bound, then the smaller box, then the
// lower subtree.
int DynamicAabbTree::descend_side(const Node& node, const double (&lower_bound)[2]) noexcept {
  if (lower_bound[0] != lower_bound[1]) return lower_bound[0] < lower_bound[1] ? 0 : 1;
  const double area[2] = {half_area(node.box[0]), half_area(node.box[1])};
  if (area[0] != area[1]) return area[0] < area[1] ? 0 : 1;
  return node.height[0] <= node.height[1] ? 0 : 1;
}

void DynamicAabbTree::insert_subtree(std::int32_t subtree) {
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  if (root_ == null_node) {
    root_ = subtree;
    set_parent(subtree, null_node);
    return;
  }
  const std::int32_t joint = allocate_node();  // may throw: before any change
  // The shorter of the two goes into the taller (a leaf always into the tree).
  if (links_[at(root_)].height < links_[at(subtree)].height) std::swap(root_, subtree);
  const std::int32_t sibling =
      find_best_sibling(links_[at(subtree)].box, links_[at(subtree)].height);
  const std::int32_t old_parent = parent(sibling);
  const int side = old_parent == null_node ? 0 : side_of(old_parent, sibling);
  set_child(joint, 0, sibling);
  set_child(joint, 1, subtree);
  (void)refit(joint);
  if (old_parent == null_node) {
    root_ = joint;
  } else {
    set_child(old_parent, side, joint);
  }
  refit_upward(joint, true, false);
}

void DynamicAabbTree::remove_leaf(std::int32_t leaf) {
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  const std::int32_t parent_node = parent(leaf);
  set_parent(leaf, null_node);
  if (leaf == root_) {
    root_ = null_node;
    return;
  }
  const std::int32_t grandparent = parent(parent_node);
  const Node& old = nodes_[at(parent_node)];
  const std::int32_t sibling = old.child[old.child[0] == leaf ? 1 : 0];
  const int side = grandparent == null_node ? 0 : side_of(grandparent, parent_node);
  free_node(parent_node);
  if (grandparent == null_node) {
    set_parent(sibling, null_node);
    root_ = sibling;
    return;
  }
  set_child(grandparent, side, sibling);
  // Removal only shrinks boxes: rotations only to restore the balance (insertion rotates for
  // area too, as Box2D does).
  refit_upward(grandparent, false, true);
}

int DynamicAabbTree::side_of(std::int32_t parent, std::int32_t child) const noexcept {
  return nodes_[static_cast<std::size_t>(parent)].child[0] == child ? 0 : 1;
}

void DynamicAabbTree::set_child(std::int32_t parent, int side, std::int32_t child) noexcept {
  Node& node = nodes_[static_cast<std::size_t>(parent)];
  Links& links = links_[static_cast<std::size_t>(child)];
  node.child[side] = child;
  node.box[side] = links.box;
  node.height[side] = links.height;
  links.parents[parent_slot_] = parent;
}

void DynamicAabbTree::set_box(std::int32_t index, const Aabb& box, std::int32_t height) noexcept {
  Links& links = links_[static_cast<std::size_t>(index)];
  links.box = box;
  links.height = static_cast<std::int16_t>(height);
  const std::int32_t above = links.parents[parent_slot_];
  if (above == null_node) return;
  Node& parent = nodes_[static_cast<std::size_t>(above)];
  const int side = side_of(above, index);
  parent.box[side] = box;
  parent.height[side] = static_cast<std::int16_t>(height);
}

bool DynamicAabbTree::refit(std::int32_t index) noexcept {
  const Node& node = nodes_[static_cast<std::size_t>(index)];
  const Aabb box = node.box[0].merged(node.box[1]);
  const Links& links = links_[static_cast<std::size_t>(index)];
  const std::int32_t height = 1 + std::max(node.height[0], node.height[1]);
  if (box == links.box && height == links.height) return false;
  set_box(index, box, height);
  return true;
}

// Refits `index` and its ancestors, rotating each (`rotate`; areas too when `improve_area`).
// With `until_unchanged`, stops at the first node whose box and height stay and that needs no
// rotation: nothing above it changes then.
void DynamicAabbTree::refit_upward(std::int32_t index, bool improve_area, bool until_unchanged) {
  while (index != null_node) {
    const bool changed = refit(index);
    const bool rotated = rotate(index, improve_area);
    if (until_unchanged && !changed && !rotated) return;
    index = parent(index);
  }
}

// Node `a` (a child of `parent_a`) and node `b` (a child of `parent_b`) trade places.
void DynamicAabbTree::swap_children(std::int32_t parent_a, std::int32_t a, std::int32_t parent_b,
                                    std::int32_t b) noexcept {
  const int side_a = side_of(parent_a, a), side_b = side_of(parent_b, b);
  set_child(parent_a, side_a, b);
  set_child(parent_b, side_b, a);
}

// Tree rotations (Bittner et al. 2015; Kopta et al., "Fast, effective BVH updates for animated
// scenes", I3D 2012): at node A with children B and C, swapping a child with a grandchild on
// the other side (or two grandchildren) changes only the boxes and heights of B and/or C. A
// swap may only keep every node it touches balanced (children's heights within
// `max_imbalance`) and must not raise A. When A itself is out of balance (after an insertion or
// removal below changed a child's height by one), the best of those swaps is taken whatever
// its area: the AVL rotation (Adelson-Velsky & Landis 1962) in the form of Box2D v2.4's
// b2DynamicTree::Balance, where children are unordered and one swap of the shorter child with
// the taller child's taller child always restores the balance. Otherwise, when
// `improve_area`, the swap that shrinks the summed area most, if any does. True when swapped.
bool DynamicAabbTree::rotate(std::int32_t index, bool improve_area) {
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  const auto balanced = [](int p, int q) { return std::abs(p - q) <= max_imbalance; };
  const Node& node = nodes_[at(index)];
  if (node.is_leaf(0) && node.is_leaf(1)) return false;
  const bool must_balance = !balanced(node.height[0], node.height[1]);
  if (!must_balance && !improve_area) return false;
  struct Swap {
    std::int32_t parent_a, a, parent_b, b;
  };
  Swap best{null_node, null_node, null_node, null_node};
  double best_gain = must_balance ? -std::numeric_limits<double>::infinity() : 0;
  const int height_limit = 1 + std::max(node.height[0], node.height[1]);
  // `first` and `second`: the children's heights after the swap; `is_balanced`: the nodes
  // the swap changes below them keep the balance.
  const auto consider = [&](double gain, bool is_balanced, int first, int second, Swap swap) {
    if (!is_balanced || !balanced(first, second) || 1 + std::max(first, second) > height_limit)
      return;
    if (gain > best_gain) {
      best_gain = gain;
      best = swap;
    }
  };
  // The child on side `outer` trading places with a child of its sibling on the other side.
  const auto consider_with_grandchild = [&](int outer) {
    const int inner = 1 - outer;
    if (node.is_leaf(inner)) return;
    const Node& sibling = nodes_[at(node.child[inner])];
    const double area = half_area(node.box[inner]);
    const int moved = node.height[outer];
    for (int side = 0; side < 2; ++side) {  // sibling.child[side] rises, the other stays
      const int stays = sibling.height[1 - side];
      consider(area - merged_area(node.box[outer], sibling.box[1 - side]), balanced(moved, stays),
               sibling.height[side], 1 + std::max(moved, stays),
               {index, node.child[outer], node.child[inner], sibling.child[side]});
    }
  };
  consider_with_grandchild(0);
  consider_with_grandchild(1);
  if (!node.is_leaf(0) && !node.is_leaf(1)) {
    const double area = half_area(node.box[0]) + half_area(node.box[1]);
    const std::int32_t b = node.child[0], c = node.child[1];
    const Node& nb = nodes_[at(b)];
    const Node& nc = nodes_[at(c)];
    const int d = nb.height[0], e = nb.height[1], f = nc.height[0], g = nc.height[1];
    // D trades places with F (B = {F, E}, C = {D, G}) or with G (B = {G, E}, C = {F, D}).
    consider(area - merged_area(nc.box[0], nb.box[1]) - merged_area(nb.box[0], nc.box[1]),
             balanced(f, e) && balanced(d, g), 1 + std::max(f, e), 1 + std::max(d, g),
             {b, nb.child[0], c, nc.child[0]});
    consider(area - merged_area(nc.box[1], nb.box[1]) - merged_area(nc.box[0], nb.box[0]),
             balanced(g, e) && balanced(f, d), 1 + std::max(g, e), 1 + std::max(f, d),
             {b, nb.child[0], c, nc.child[1]});
  }
  if (best.a == null_node) return false;
  swap_children(best.parent_a, best.a, best.parent_b, best.b);
  if (best.parent_a != index) (void)refit(best.parent_a);
  (void)refit(best.parent_b);
  (void)refit(index);
  return true;
}

namespace {

// Bins per axis of the rebuild's surface area heuristic.
constexpr int sah_bins = 16;

// A bin's bounds in 4-lane form (the fourth lane unused), so that adding a leaf is four
// min/max instructions (Embree's builders accumulate bins the same way).
struct SahBin {
  Float4 box_min = Float4::splat(std::numeric_limits<float>::infinity());  // of the fat boxes
  Float4 box_max = Float4::splat(-std::numeric_limits<float>::infinity());
  Float4 center_min = Float4::splat(std::numeric_limits<float>::infinity());  // of the centres
  Float4 center_max = Float4::splat(-std::numeric_limits<float>::infinity());
  std::size_t count = 0;
  // Adds `leaf`: unaligned loads of three lanes each and the float after them (see BuildLeaf).
  template <class Leaf>
  void add(const Leaf& leaf) noexcept {
    box_min = min_ignoring_nan(Float4::load_unaligned(&leaf.box.min.x), box_min);
    box_max = max_ignoring_nan(Float4::load_unaligned(&leaf.box.max.x), box_max);
    const Float4 center = Float4::load_unaligned(&leaf.center.x);
    center_min = min_ignoring_nan(center, center_min);
    center_max = max_ignoring_nan(center, center_max);
    ++count;
  }
  [[nodiscard]] Aabb box() const noexcept { return {to_vec3(box_min), to_vec3(box_max)}; }
  [[nodiscard]] Aabb centers() const noexcept { return {to_vec3(center_min), to_vec3(center_max)}; }
};

// The centres' bounds of leaves [begin, end).
template <class Leaf>
Aabb centers_of(const std::vector<Leaf>& leaves, std::size_t begin, std::size_t end) noexcept {
  Aabb centers = Aabb::empty();
  for (std::size_t i = begin; i < end; ++i) centers.extend(leaves[i].center);
  return centers;
}

// Maps a centre's coordinate along one axis to one of `sah_bins` equal bins of the centres'
// range, in double (so that a range wider than the float range stays finite).
struct Binner {
  double low;
  double scale;  // bins per unit
  Binner(float low_end, float high_end)
      : low(low_end), scale(sah_bins / (double(high_end) - double(low_end))) {}
  [[nodiscard]] int operator()(float coordinate) const noexcept {
    const double at = (double(coordinate) - low) * scale;
    return std::clamp(static_cast<int>(at), 0, sah_bins - 1);
  }
};

// ceil(log2(count)) for count >= 1: the height of the lowest binary tree of `count` leaves.
int lowest_height(std::size_t count) noexcept {
  return count <= 1 ? 0 : static_cast<int>(std::bit_width(count - 1));
}

// Every subtree the rebuild makes has the lowest height for its leaves, and siblings' heights
// differ by at most `max_imbalance`, when every split keeps both sides within half of the
// parent's lowest capacity and their lowest heights that close: the balance `validate` checks.
bool keeps_balance(std::size_t left, std::size_t right, int max_imbalance) noexcept {
  const std::size_t half_capacity = std::size_t{1} << (lowest_height(left + right) - 1);
  return left <= half_capacity && right <= half_capacity &&
         std::abs(lowest_height(left) - lowest_height(right)) <= max_imbalance;
}

}  // namespace

void DynamicAabbTree::rebuild() {
  BuildLeaves build;
  build.leaves.reserve(proxy_count_);
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (links_[i].height == 0)
      build.leaves.push_back({links_[i].box, links_[i].box.center(), std::int32_t(i)});
  build.make_room();
  cancel_gradual_rebuild();  // its nodes are freed below with the others
  refits_ = 0;
  joined_ = 0;
  free_list_ = null_node;
  for (std::size_t i = nodes_.size(); i-- > 0;)
    if (links_[i].height != 0) free_node(static_cast<std::int32_t>(i));
  const std::size_t count = build.leaves.size();
  root_ =
      count == 0 ? null_node : build_subtree(build, 0, count, centers_of(build.leaves, 0, count));
  if (root_ != null_node) set_parent(root_, null_node);
}

// The split of [begin, end) by the surface area heuristic (MacDonald & Booth 1990) over binned
// centres (Wald, "On fast construction of SAH-based bounding volume hierarchies", 2007) along
// the widest axis of the centres: the bin boundary minimising left area x left count + right
// area x right count, among those that keep the tree balanced. Returns the middle after
// partitioning, or `end` when no boundary qualifies. The partition copies the leaves through
// the scratch room, each to its side's next place (a conditional index, not a branch: which
// side a leaf goes to is a coin toss the branch predictor loses), keeping their order.
DynamicAabbTree::BuildSplit DynamicAabbTree::sah_partition(BuildLeaves& build, std::size_t begin,
                                                           std::size_t end, const Aabb& centers) {
  std::vector<BuildLeaf>& leaves = build.leaves;
  const Vec3 size = centers.max - centers.min;
  const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  if (!(centers.max[axis] > centers.min[axis])) return {end};
  const Binner bin_of(centers.min[axis], centers.max[axis]);
  std::array<SahBin, sah_bins> bins;
  std::uint8_t* bin_ids = build.bin_ids.data() - begin;
  for (std::size_t i = begin; i < end; ++i) {
    const int bin_id = bin_of(leaves[i].center[axis]);
    bin_ids[i] = static_cast<std::uint8_t>(bin_id);
    bins[static_cast<std::size_t>(bin_id)].add(leaves[i]);
  }
  std::array<double, sah_bins> right_cost{};  // cost of bins [b, sah_bins)
  Aabb right = Aabb::empty();
  std::size_t right_count = 0;
  for (int b = sah_bins - 1; b > 0; --b) {
    right = right.merged(bins[std::size_t(b)].box());
    right_count += bins[std::size_t(b)].count;
    right_cost[std::size_t(b)] = right_count == 0 ? 0 : half_area(right) * double(right_count);
  }
  double best_cost = std::numeric_limits<double>::infinity();
  int best_bin = 0;
  Aabb left = Aabb::empty();
  std::size_t left_count = 0;
  for (int b = 1; b < sah_bins; ++b) {
    left = left.merged(bins[std::size_t(b - 1)].box());
    left_count += bins[std::size_t(b - 1)].count;
    if (left_count == 0 || !keeps_balance(left_count, end - begin - left_count, max_imbalance))
      continue;
    const double cost = half_area(left) * double(left_count) + right_cost[std::size_t(b)];
    if (cost < best_cost) {
      best_cost = cost;
      best_bin = b;
    }
  }
  if (best_bin == 0) return {end};
  BuildSplit split;
  for (int b = 0; b < sah_bins; ++b) {
    Aabb& side = b < best_bin ? split.left_centers : split.right_centers;
    side = side.merged(bins[std::size_t(b)].centers());
  }
  std::size_t to_left = 0;
  for (int b = 0; b < best_bin; ++b) to_left += bins[std::size_t(b)].count;
  BuildLeaf* out = build.scratch.data();
  std::size_t next[2] = {0, to_left};  // the next places of a left (0) and a right (1) leaf
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t side = bin_ids[i] < best_bin ? 0 : 1;
    out[next[side]++] = leaves[i];
  }
  std::copy(out, out + (end - begin), leaves.begin() + static_cast<std::ptrdiff_t>(begin));
  split.middle = begin + to_left;
  return split;
}

// Leaves and their centres side by side, so that the splits do not chase the nodes. Large
// ranges split by the binned SAH, small ones (and ranges whose centres coincide) at the median
// of the widest axis, ties by node.
DynamicAabbTree::BuildSplit DynamicAabbTree::split_range(BuildLeaves& build, std::size_t begin,
                                                         std::size_t end, const Aabb& centers) {
  BuildSplit split{end};
  if (end - begin >= median_split_below) split = sah_partition(build, begin, end, centers);
  if (split.middle == end) split = median_partition(build.leaves, begin, end, centers);
  return split;
}

std::int32_t DynamicAabbTree::build_subtree(BuildLeaves& build, std::size_t begin, std::size_t end,
                                            const Aabb& centers) {
  if (end - begin == 1) return build.leaves[begin].node;
  const BuildSplit split = split_range(build, begin, end, centers);
  // The leaves' links lie anywhere in the node storage: a range's are fetched once it is small,
  // so that their misses overlap instead of coming one at a time as its nodes are made.
  constexpr std::size_t fetch_below = 16;
  if (end - begin > fetch_below)
    for (const auto& [from, to] : {std::pair{begin, split.middle}, std::pair{split.middle, end}})
      if (to - from <= fetch_below)
        for (std::size_t i = from; i < to; ++i)
          __builtin_prefetch(&links_[static_cast<std::size_t>(build.leaves[i].node)], 1);
  const std::int32_t node = allocate_node();  // before its subtrees: nodes in depth-first order
  const std::int32_t left = build_subtree(build, begin, split.middle, split.left_centers);
  const std::int32_t right = build_subtree(build, split.middle, end, split.right_centers);
  set_child(node, 0, left);
  set_child(node, 1, right);
  (void)refit(node);
  return node;
}

// The split of [begin, end) at the median of the widest axis of the centres, ties by node.
DynamicAabbTree::BuildSplit DynamicAabbTree::median_partition(std::vector<BuildLeaf>& leaves,
                                                              std::size_t begin, std::size_t end,
                                                              const Aabb& centers) {
  const Vec3 size = centers.max - centers.min;
  const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  const std::size_t middle = (begin + end) / 2;
  const auto first = leaves.begin();
  std::nth_element(
      first + static_cast<std::ptrdiff_t>(begin), first + static_cast<std::ptrdiff_t>(middle),
      first + static_cast<std::ptrdiff_t>(end), [axis](const BuildLeaf& p, const BuildLeaf& q) {
        return p.center[axis] < q.center[axis] ||
               (p.center[axis] == q.center[axis] && p.node < q.node);
      });
  return {middle, centers_of(leaves, begin, middle), centers_of(leaves, middle, end)};
}

}  // namespace trisect
