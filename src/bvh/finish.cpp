// The finishing step: the collapse to 8-wide nodes and their
// quantised boxes, then the triangles copied in slot order, grouped by leaf.
#include "finish.hpp"

#include "huge_pages.hpp"
#include "quantize.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <utility>

namespace trisect::detail {
namespace {

// The collapse chooses, for every wide node, which descendants of its binary node become its
// children, and which subtrees become single leaves, so that the wide tree's SAH cost is the
// least the binary tree allows: the dynamic programme of Ylitie, Karras & Laine ("Efficient
// Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG 2017), here without leaf
// blocks. For binary node n with box area A(n) and t(n) triangles:
//   leaf(n)  = intersection * A(n) * l(n) when t(n) <= max_leaf_size, else +inf, where l(n)
//              is t(n) rounded up to a multiple of 4: the lanes of the leaf's groups of four
//              (`LeafTriangles`), which are tested together
//   C(n)     = min(leaf(n), traversal * A(n) + F(n, 8))     n as one child of a wide node
//   F(n, j)  = min over k in [1, j) of D(left, k) + D(right, j - k)
//   D(n, 1)  = C(n);  D(n, j) = min(C(n), F(n, j))            n's subtree as 1..j children
// A binary leaf has D(n, j) = leaf(n). Ties keep a leaf, fewer children and then the smaller
// k, so the result depends on nothing but the tree. The tables are filled bottom-up and the
// wide nodes written top-down, both in parallel over subtrees; every wide node's index comes
// from subtree counts, so the layout is depth-first whatever the thread count.
class Collapser {
 public:
  // `nodes` holds `slot_count` entries; the reachable ones form the binary tree.
  Collapser(const BinaryNode* nodes, std::size_t slot_count, const CollapseCosts& costs)
      : nodes_(nodes), costs_(costs), tables_(new Table[slot_count]) {
    advise_huge_pages(tables_.get(), slot_count * sizeof(Table));
  }

  std::vector<WideNode> run() && {
    solve(0, 0);
    const Children root = root_children();
    resize_on_huge_pages(wide_, root.count == 1 ? 1 : 1 + below(root));
    emit(root, 0, 0);
    return std::move(wide_);
  }

 private:
  static constexpr int width = WideNode::width;
  // Subtrees this close to the root are solved and emitted as parallel tasks.
  static constexpr int parallel_depth = 10;

  // What the collapse knows of one binary node n, at n's index. Not initialised: only the
  // reachable nodes' entries are written, and only those are read.
  struct Table {
    float cost[width];  // cost[j - 1] = D(n, j)
    std::uint32_t first_slot, end_slot;
    std::uint32_t wide_nodes;       // wide nodes in the subtree of n made a wide node; 0 for a leaf
    bool as_leaf;                   // n, as a child, is one leaf over its slots
    std::uint8_t split[width + 1];  // split[j]: the k of F(n, j), for an inner n and j >= 2
  };

  struct Children {
    std::uint32_t index[width];
    int count = 0;
  };

  // Fills the table of `index` and of every node below it.
  void solve(std::uint32_t index, int depth) {
    const BinaryNode& node = nodes_[index];
    Table& table = tables_[index];
    const float area = node.bounds.half_area();
    if (node.is_leaf()) {
      table.first_slot = node.first;
      table.end_slot = node.first + node.count;
      table.wide_nodes = 0;
      table.as_leaf = true;
      const float cost = leaf_cost(area, node.count);
      for (float& entry : table.cost) entry = cost;
      return;
    }
    const std::uint32_t left = index + 1, right = node.first;
    if (depth < parallel_depth) {
      tbb::parallel_invoke([&] { solve(left, depth + 1); }, [&] { solve(right, depth + 1); });
    } else {
      solve(left, depth + 1);
      solve(right, depth + 1);
    }
    combine(index, area);
  }

  // The table of inner node `index` from its children's.
  void combine(std::uint32_t index, float area) {
    Table& table = tables_[index];
    const Table& left = tables_[index + 1];
    const Table& right = tables_[nodes_[index].first];
    table.first_slot = left.first_slot;
    table.end_slot = right.end_slot;
    const float leaf = leaf_cost(area, table.end_slot - table.first_slot);
    float split_cost[width + 1];
    for (int j = 2; j <= width; ++j) {
      const Split split = best_split(left, right, j);
      split_cost[j] = split.cost;
      table.split[j] = static_cast<std::uint8_t>(split.left_children);
    }
    const float inner = costs_.traversal * area + split_cost[width];
    table.as_leaf = leaf <= inner;
    table.cost[0] = std::min(leaf, inner);
    for (int j = 2; j <= width; ++j) table.cost[j - 1] = std::min(table.cost[0], split_cost[j]);
    table.wide_nodes = table.as_leaf ? 0 : 1 + below(children_of(index));
  }

  // leaf(n): a leaf over `triangles` triangles with this box area, or +inf when too many.
  [[nodiscard]] float leaf_cost(float area, std::uint32_t triangles) const noexcept {
    const std::uint32_t lanes =
        (triangles + TriangleGroup::width - 1) / TriangleGroup::width * TriangleGroup::width;
    return triangles <= costs_.max_leaf_size
               ? costs_.intersection * area * static_cast<float>(lanes)
               : std::numeric_limits<float>::infinity();
  }

  struct Split {
    float cost;
    int left_children;
  };
  // F(n, j) from the tables of n's children, and the smallest k that gives it.
  [[nodiscard]] static Split best_split(const Table& left, const Table& right, int j) {
    Split best{std::numeric_limits<float>::infinity(), 1};
    for (int k = 1; k < j; ++k) {
      const float cost = left.cost[k - 1] + right.cost[j - k - 1];
      if (cost < best.cost) best = {cost, k};
    }
    return best;
  }

  // The root's children: the root alone when one leaf costs no more than the best cut below
  // it (the root's own traversal is paid either way).
  [[nodiscard]] Children root_children() const {
    const BinaryNode& root = nodes_[0];
    if (!root.is_leaf()) {
      const Table& table = tables_[0];
      const float cut = best_split(tables_[1], tables_[root.first], width).cost;
      if (cut < leaf_cost(root.bounds.half_area(), table.end_slot - table.first_slot))
        return children_of(0);
    }
    Children children;
    children.index[children.count++] = 0;
    return children;
  }

  // The children of the wide node inner node `index` becomes: the best cut of at most 8.
  [[nodiscard]] Children children_of(std::uint32_t index) const {
    Children children;
    append_split(index, width, children);
    return children;
  }

  // Appends the subtree of inner node `index` as at most `budget` >= 2 children.
  void append_split(std::uint32_t index, int budget, Children& children) const {
    const int k = tables_[index].split[budget];
    append(index + 1, k, children);
    append(nodes_[index].first, budget - k, children);
  }

  // Appends the subtree of `index` as at most `budget` children: one when that is no dearer.
  void append(std::uint32_t index, int budget, Children& children) const {
    const Table& table = tables_[index];
    if (budget == 1 || nodes_[index].is_leaf() || table.cost[0] <= table.cost[budget - 1]) {
      children.index[children.count++] = index;
      return;
    }
    append_split(index, budget, children);
  }

  // Wide nodes below a wide node with these children.
  [[nodiscard]] std::uint32_t below(const Children& children) const {
    std::uint32_t count = 0;
    for (int i = 0; i < children.count; ++i) count += tables_[children.index[i]].wide_nodes;
    return count;
  }

  // Writes the wide node over `children` at `at`, and the wide nodes below it after it,
  // depth-first.
  void emit(const Children& children, std::uint32_t at, int depth) {
    WideNode& node = wide_[at];
    const std::uint32_t end = tables_[children.index[children.count - 1]].end_slot;
    Aabb boxes[width];
    for (int i = 0; i < children.count; ++i) boxes[i] = nodes_[children.index[i]].bounds;
    quantize_children(node, boxes, children.count);
    std::uint32_t next = at + 1;
    for (int i = 0; i < width; ++i) {
      const bool used = i < children.count;
      const Table* table = used ? &tables_[children.index[i]] : nullptr;
      node.first[i] = used ? table->first_slot : end;
      // Only a root that is one leaf has one child.
      const bool leaf = used && (table->as_leaf || children.count == 1);
      node.child[i] = !used ? WideNode::unused : leaf ? WideNode::leaf : next;
      if (used && !leaf) next += table->wide_nodes;
    }
    const auto emit_child = [&](int i) {
      if (node.child[i] < WideNode::leaf)
        emit(children_of(children.index[i]), node.child[i], depth + 1);
    };
    if (depth < parallel_depth) {
      tbb::parallel_for(0, children.count, emit_child);
    } else {
      for (int i = 0; i < children.count; ++i) emit_child(i);
    }
  }

  const BinaryNode* nodes_;
  CollapseCosts costs_;
  std::unique_ptr<Table[]> tables_;
  std::vector<WideNode> wide_;
};

}  // namespace

std::vector<WideNode> collapse_to_wide(const BinaryNode* nodes, std::size_t slot_count,
                                       const CollapseCosts& costs) {
  return Collapser(nodes, slot_count, costs).run();
}

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

Bvh finish(const BinaryNode* nodes, std::vector<TriangleId> leaf_order, const TriangleSoup& soup,
           const CollapseCosts& costs) {
  Bvh bvh;
  const auto slot_count = static_cast<std::uint32_t>(leaf_order.size());
  bvh.wide = collapse_to_wide(nodes, 2 * std::size_t{slot_count} - 1, costs);
  bvh.triangles = LeafTriangles::of(soup, leaf_order, leaf_ranges(bvh.wide.span(), slot_count));
  bvh.ids = std::move(leaf_order);
  bvh.root_bounds = nodes[0].bounds;
  return bvh;
}

}  // namespace trisect::detail
