// The collapse from a builder's binary tree to 8-wide nodes (src/bvh/finish.hpp), white box:
// on small random binary trees its wide tree has the least SAH cost of all wide trees whose
// children are cuts of the binary tree, found here by enumerating every cut.
#include "bvh/finish.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/bvh.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace trisect::testing {
namespace {

using detail::BinaryNode;
using detail::CollapseCosts;

// Lanes of a leaf of `triangles` triangles: its groups of four, the last one counted full.
double group_lanes(std::uint32_t triangles) { return 4.0 * ((triangles + 3) / 4); }

// A random binary tree over `leaves` leaves in the builders' layout (root at 0, left child
// next, right child at `first`), leaves of 1 to `max_leaf` triangles over consecutive slots,
// random leaf boxes and every inner box the union of its children's.
class RandomTree {
 public:
  RandomTree(int leaves, std::uint32_t max_leaf, std::mt19937_64& random)
      : random_(random), max_leaf_(max_leaf) {
    grow(leaves);
  }
  [[nodiscard]] const std::vector<BinaryNode>& nodes() const { return nodes_; }
  [[nodiscard]] std::uint32_t triangles() const { return next_slot_; }
  // The box of the binary node over slots [first, end) (each node's range is its own: an
  // inner node's children both hold slots).
  [[nodiscard]] Aabb box_of(std::uint32_t first, std::uint32_t end) const {
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (ranges_[i] == std::pair{first, end}) return nodes_[i].bounds;
    FAIL("no binary node over slots " << first << " to " << end);
    return Aabb::empty();
  }

 private:
  std::uint32_t grow(int leaves) {
    const auto at = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    ranges_.emplace_back(next_slot_, next_slot_);
    if (leaves == 1) {
      const auto count = std::uniform_int_distribution<std::uint32_t>(1, max_leaf_)(random_);
      const Vec3 low(uniform(random_, -10, 10), uniform(random_, -10, 10),
                     uniform(random_, -10, 10));
      const Vec3 size(uniform(random_, 0, 4), uniform(random_, 0, 4), uniform(random_, 0, 4));
      nodes_[at] = {Aabb{low, low + size}, next_slot_, count};
      next_slot_ += count;
    } else {
      const int left_leaves = std::uniform_int_distribution<int>(1, leaves - 1)(random_);
      grow(left_leaves);
      const std::uint32_t right = grow(leaves - left_leaves);
      nodes_[at] = {nodes_[at + 1].bounds.merged(nodes_[right].bounds), right, 0};
    }
    ranges_[at].second = next_slot_;
    return at;
  }

  std::mt19937_64& random_;
  std::uint32_t max_leaf_;
  std::vector<BinaryNode> nodes_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges_;  // each node's slots
  std::uint32_t next_slot_ = 0;
};

// The least cost of binary node `index` as one child of a wide node, by enumerating cuts.
class CutOracle {
 public:
  CutOracle(const std::vector<BinaryNode>& nodes, const CollapseCosts& costs)
      : nodes_(nodes), costs_(costs) {}

  // Least cost of the whole tree: the root wide node, then its one leaf or its best cut.
  [[nodiscard]] double tree_cost() const {
    const double root = double(costs_.traversal) * double(nodes_[0].bounds.half_area());
    if (nodes_[0].is_leaf()) return root + leaf_cost(0);
    return root + std::min(leaf_cost(0), best_cut_below(0));
  }

 private:
  struct Cut {
    int size;
    double cost;
  };

  [[nodiscard]] std::uint32_t triangles(std::uint32_t index) const {
    const BinaryNode& node = nodes_[index];
    return node.is_leaf() ? node.count : triangles(index + 1) + triangles(node.first);
  }
  [[nodiscard]] double leaf_cost(std::uint32_t index) const {
    const std::uint32_t count = triangles(index);
    if (count > costs_.max_leaf_size) return std::numeric_limits<double>::infinity();
    return double(costs_.intersection) * double(nodes_[index].bounds.half_area()) *
           group_lanes(count);
  }
  [[nodiscard]] double child_cost(std::uint32_t index) const {
    if (nodes_[index].is_leaf()) return leaf_cost(index);
    const double inner =
        double(costs_.traversal) * double(nodes_[index].bounds.half_area()) + best_cut_below(index);
    return std::min(leaf_cost(index), inner);
  }
  // Every cut of the subtree of `index` (the node itself included), each with its cost.
  [[nodiscard]] std::vector<Cut> cuts(std::uint32_t index) const {
    std::vector<Cut> all{{1, child_cost(index)}};
    if (nodes_[index].is_leaf()) return all;
    for (const Cut& left : cuts(index + 1))
      for (const Cut& right : cuts(nodes_[index].first))
        if (left.size + right.size <= WideNode::width)
          all.push_back({left.size + right.size, left.cost + right.cost});
    return all;
  }
  // The best cut strictly below inner node `index`, of 2 to 8 nodes.
  [[nodiscard]] double best_cut_below(std::uint32_t index) const {
    double best = std::numeric_limits<double>::infinity();
    for (const Cut& left : cuts(index + 1))
      for (const Cut& right : cuts(nodes_[index].first))
        if (left.size + right.size <= WideNode::width)
          best = std::min(best, left.cost + right.cost);
    return best;
  }

  const std::vector<BinaryNode>& nodes_;
  CollapseCosts costs_;
};

// The SAH cost of a collapsed tree of `tree`: traversal per wide node, intersection per
// lane of every leaf's groups of four, each weighted by the area of its binary node's box (the
// exact box, not the quantised one the wide node holds).
double wide_cost(const std::vector<WideNode>& wide, const RandomTree& tree,
                 const CollapseCosts& costs) {
  double cost = double(costs.traversal) * double(tree.nodes()[0].bounds.half_area());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0u, tree.triangles()}};  // node, end
  while (!stack.empty()) {
    const auto [index, end] = stack.back();
    stack.pop_back();
    const WideNode& node = wide[index];
    for (int i = 0; i < WideNode::width; ++i) {
      if (node.child[i] == WideNode::unused) continue;
      const std::uint32_t child_end = node.child_end(i, end);
      const Aabb box = tree.box_of(node.first[i], child_end);
      CHECK(node.child_bounds(i).contains(box));
      const double area = box.half_area();
      if (node.child[i] == WideNode::leaf) {
        cost += double(costs.intersection) * area * group_lanes(child_end - node.first[i]);
      } else {
        cost += double(costs.traversal) * area;
        stack.emplace_back(node.child[i], child_end);
      }
    }
  }
  return cost;
}

TEST_CASE("the collapse gives the least SAH cost of any wide tree cut from the binary tree",
          "[bvh]") {
  std::mt19937_64 random(2017);
  for (int trial = 0; trial < 400; ++trial) {
    const int leaves = 1 + trial % 14;
    const auto max_leaf = std::uniform_int_distribution<std::uint32_t>(1, 8)(random);
    const CollapseCosts costs{trial % 3 == 0 ? 2.0f : 1.0f, 1.0f, max_leaf};
    const RandomTree tree(leaves, std::max(1u, max_leaf / 2), random);
    INFO("trial " << trial << ", " << leaves << " leaves, max leaf " << max_leaf);
    const std::vector<WideNode> wide =
        detail::collapse_to_wide(tree.nodes().data(), tree.nodes().size(), costs);
    const double expected = CutOracle(tree.nodes(), costs).tree_cost();
    CHECK(wide_cost(wide, tree, costs) == Approx(expected).epsilon(1e-5));
    // Depth-first, every lane used before the unused ones, 2 or more children but for a root
    // that is a single leaf.
    for (std::size_t n = 0; n < wide.size(); ++n) {
      const auto& lanes = wide[n].child;
      const auto used =
          std::find(std::begin(lanes), std::end(lanes), WideNode::unused) - std::begin(lanes);
      CHECK(std::all_of(std::begin(lanes) + used, std::end(lanes),
                        [](std::uint32_t child) { return child == WideNode::unused; }));
      CHECK((used >= 2 || (n == 0 && wide.size() == 1)));
      for (std::uint32_t child : wide[n].child)
        if (child < WideNode::leaf) CHECK(child > n);
    }
  }
}

}  // namespace
}  // namespace trisect::testing
