// The finishing step: triangle copy in slot order and the greedy collapse to 8-wide nodes.
#include "finish.hpp"

#include "huge_pages.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <limits>
#include <utility>

namespace trisect::detail {
namespace {

class Collapser {
 public:
  explicit Collapser(const BinaryNode* nodes) : nodes_(nodes) {}

  std::vector<WideNode> run() && {
    const Children root = nodes_[0].is_leaf() ? single(0) : children_of(0);
    // Counted first so that the array is allocated once, at its exact size.
    wide_.reserve(count_nodes(root));
    advise_huge_pages(wide_.data(), wide_.capacity() * sizeof(WideNode));
    emit_node(root);
    return std::move(wide_);
  }

 private:
  struct Children {
    std::uint32_t index[WideNode::width];
    int count = 0;
  };

  [[nodiscard]] Children children_of(std::uint32_t inner) const {
    Children children;
    children.index[0] = inner + 1;
    children.index[1] = nodes_[inner].first;
    children.count = 2;
    // Open the inner child of largest area, in place so that slot order is kept; the first of
    // equal areas wins, so the result depends on nothing but the tree.
    while (children.count < WideNode::width) {
      int widest = -1;
      float widest_area = -std::numeric_limits<float>::infinity();
      for (int i = 0; i < children.count; ++i) {
        const BinaryNode& node = nodes_[children.index[i]];
        if (!node.is_leaf() && node.bounds.half_area() > widest_area) {
          widest = i;
          widest_area = node.bounds.half_area();
        }
      }
      if (widest < 0) break;
      const std::uint32_t opened = children.index[widest];
      for (int i = children.count; i > widest + 1; --i) children.index[i] = children.index[i - 1];
      children.index[widest] = opened + 1;
      children.index[widest + 1] = nodes_[opened].first;
      ++children.count;
    }
    return children;
  }

  [[nodiscard]] Children single(std::uint32_t index) const {
    Children children;
    children.index[0] = index;
    children.count = 1;
    return children;
  }

  // First slot below binary node `index`: its leftmost leaf's.
  [[nodiscard]] std::uint32_t first_slot(std::uint32_t index) const {
    while (!nodes_[index].is_leaf()) ++index;
    return nodes_[index].first;
  }
  // One past the last slot below binary node `index`: its rightmost leaf's end.
  [[nodiscard]] std::uint32_t end_slot(std::uint32_t index) const {
    while (!nodes_[index].is_leaf()) index = nodes_[index].first;
    return nodes_[index].first + nodes_[index].count;
  }

  // Number of wide nodes emit_node(children) appends.
  [[nodiscard]] std::size_t count_nodes(const Children& children) const {
    std::size_t count = 1;
    for (int i = 0; i < children.count; ++i)
      if (!nodes_[children.index[i]].is_leaf())
        count += count_nodes(children_of(children.index[i]));
    return count;
  }

  // Appends the wide node over `children` and, depth-first, the wide nodes below it.
  std::uint32_t emit_node(const Children& children) {
    const auto at = static_cast<std::uint32_t>(wide_.size());
    wide_.emplace_back();
    WideNode& node = wide_[at];
    const float infinity = std::numeric_limits<float>::infinity();
    const std::uint32_t end = end_slot(children.index[children.count - 1]);
    for (int i = 0; i < WideNode::width; ++i) {
      const bool used = i < children.count;
      const Aabb box =
          used ? nodes_[children.index[i]].bounds : Aabb{Vec3(infinity), Vec3(-infinity)};
      for (int axis = 0; axis < 3; ++axis) {
        node.bounds[2 * axis][i] = box.min[axis];
        node.bounds[2 * axis + 1][i] = box.max[axis];
      }
      node.child[i] = used ? WideNode::leaf : WideNode::unused;
      node.first[i] = used ? first_slot(children.index[i]) : end;
    }
    for (int i = 0; i < children.count; ++i) {
      if (nodes_[children.index[i]].is_leaf()) continue;
      const std::uint32_t below = emit_node(children_of(children.index[i]));
      wide_[at].child[i] = below;  // `node` may dangle: emit_node grows wide_
    }
    return at;
  }

  const BinaryNode* nodes_;
  std::vector<WideNode> wide_;
};

}  // namespace

std::vector<WideNode> collapse_to_wide(const BinaryNode* nodes) { return Collapser(nodes).run(); }

std::vector<Triangle> copy_triangles(const TriangleSoup& soup, const std::vector<TriangleId>& ids) {
  std::vector<Triangle> triangles;
  // Reserved and advised before the first write, so that the pages are huge from the start.
  triangles.reserve(ids.size());
  advise_huge_pages(triangles.data(), triangles.capacity() * sizeof(Triangle));
  triangles.resize(ids.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ids.size(), 4096), [&](const auto& range) {
    for (std::size_t slot = range.begin(); slot != range.end(); ++slot)
      triangles[slot] = soup.triangle(ids[slot]);
  });
  return triangles;
}

Bvh finish(const BinaryNode* nodes, std::vector<TriangleId> leaf_order, const TriangleSoup& soup) {
  Bvh bvh;
  bvh.triangles = copy_triangles(soup, leaf_order);
  bvh.ids = std::move(leaf_order);
  bvh.wide = collapse_to_wide(nodes);
  bvh.root_bounds = nodes[0].bounds;
  return bvh;
}

}  // namespace trisect::detail
