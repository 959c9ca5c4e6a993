// Refitting: a bottom-up pass over the wide nodes that rewrites the moved triangles into their
// slots, takes each leaf's box from its triangles and re-quantises every node from its
// children's exact boxes (the update step of Lauterbach, Yoon & Manocha, "RT-DEFORM: Interactive
// Ray Tracing of Dynamic Scenes using BVHs", 2006, on 8-wide quantised nodes). Subtrees near
// the root run as parallel tasks; every box depends only on the triangles below it, so the
// result does not depend on the thread count.
#include "trisect/bvh/refit.hpp"

#include "mesh/checked_soup.hpp"
#include "quantize.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace trisect {
namespace {

// Subtrees this close to the root are refitted as parallel tasks.
constexpr int parallel_depth = 4;

// What moved in a partial refit: a flag per input id, and a bit per slot of those ids.
class DirtySlots {
 public:
  // Marks the slots of the ids flagged in `moved_ids` (one flag per id).
  DirtySlots(const Bvh& bvh, std::vector<std::uint8_t> moved_ids)
      : moved_ids_(std::move(moved_ids)), bits_(bvh.size() / 64 + 1, 0) {
    for (std::uint32_t slot = 0; slot < bvh.size(); ++slot)
      if (moved_ids_[bvh.ids[slot]]) bits_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  // True when triangle `id` moved.
  [[nodiscard]] bool moved(TriangleId id) const noexcept { return moved_ids_[id] != 0; }
  // True when a slot in [begin, end) is marked.
  [[nodiscard]] bool any(std::uint32_t begin, std::uint32_t end) const noexcept {
    if (begin >= end) return false;
    const std::size_t first = begin / 64, last = (end - 1) / 64;
    const std::uint64_t low = ~std::uint64_t{0} << (begin % 64);
    const std::uint64_t high = ~std::uint64_t{0} >> (63 - (end - 1) % 64);
    if (first == last) return (bits_[first] & low & high) != 0;
    if ((bits_[first] & low) != 0 || (bits_[last] & high) != 0) return true;
    return std::any_of(bits_.begin() + std::ptrdiff_t(first) + 1,
                       bits_.begin() + std::ptrdiff_t(last),
                       [](std::uint64_t w) { return w != 0; });
  }

 private:
  std::vector<std::uint8_t> moved_ids_;
  std::vector<std::uint64_t> bits_;
};

class Refitter {
 public:
  // `dirty` is null for a full refit.
  Refitter(Bvh& bvh, const TriangleSoup& moved, const DirtySlots* dirty)
      : bvh_(bvh), moved_(moved), dirty_(dirty) {}

  void run() { bvh_.root_bounds = refit_node(0, 0, static_cast<std::uint32_t>(bvh_.size()), 0); }

 private:
  // Refits wide node `index` over slots [begin, end) and returns the exact box of its triangles.
  Aabb refit_node(std::uint32_t index, std::uint32_t begin, std::uint32_t end, int depth) {
    WideNode& node = bvh_.wide[index];
    const int count = std::popcount(node.used_mask());
    Aabb boxes[WideNode::width] = {};
    const auto refit_lane = [&](int lane) {
      boxes[lane] = refit_child(node, lane, node.child_end(lane, end), depth);
    };
    if (depth < parallel_depth && end - begin > 4096) {
      tbb::parallel_for(0, count, refit_lane);
    } else {
      for (int lane = 0; lane < count; ++lane) refit_lane(lane);
    }
    detail::quantize_children(node, boxes, count);
    Aabb bounds = Aabb::empty();
    for (int lane = 0; lane < count; ++lane) bounds.extend(boxes[lane]);
    return bounds;
  }

  // The exact box (or, for a subtree no changed triangle is in, a box holding it) of child
  // `lane` of `node`, whose slots end at `end`; refits what lies below when needed.
  Aabb refit_child(const WideNode& node, int lane, std::uint32_t end, int depth) {
    const LeafRange range{node.first[lane], end};
    const bool leaf = node.child[lane] == WideNode::leaf;
    if (dirty_ != nullptr && !dirty_->any(range.begin, range.end))
      return leaf ? stored_box(range) : decoded_union(bvh_.wide[node.child[lane]]);
    if (!leaf) return refit_node(node.child[lane], range.begin, range.end, depth + 1);
    Aabb box = Aabb::empty();
    bvh_.triangles.rewrite_leaf(range, [&](std::uint32_t slot) {
      // A partial refit reads only what moved: the rest of the soup is not checked.
      const TriangleId id = bvh_.ids[slot];
      const Triangle triangle = dirty_ == nullptr || dirty_->moved(id)
                                    ? moved_.triangle(id)
                                    : bvh_.triangles.triangle(slot);
      box.extend(triangle.bounds());
      return triangle;
    });
    return box;
  }

  // The box of the stored triangles of the leaf `range`.
  [[nodiscard]] Aabb stored_box(LeafRange range) const {
    Aabb box = Aabb::empty();
    bvh_.triangles.for_each_group(range.begin, range.end,
                                  [&](std::uint32_t, const TriangleGroup& group) {
                                    for (int lane = 0; lane < group.count; ++lane)
                                      box.extend(group.triangle(lane).bounds());
                                  });
    return box;
  }

  // The union of `node`'s decoded child boxes, clipped to the float range (an upper face
  // whose product overflows decodes to +inf; the builder's checked value is finite).
  [[nodiscard]] static Aabb decoded_union(const WideNode& node) {
    Aabb box = Aabb::empty();
    const int count = std::popcount(node.used_mask());
    for (int lane = 0; lane < count; ++lane) box.extend(node.child_bounds(lane));
    for (int axis = 0; axis < 3; ++axis)
      box.max[axis] = std::min(box.max[axis], std::numeric_limits<float>::max());
    return box;
  }

  Bvh& bvh_;
  const TriangleSoup& moved_;
  const DirtySlots* dirty_;
};

// True when every position is finite and every index in range: then `validate(soup)` passes
// without being called (it rejects only what this finds, and only where a triangle uses it).
bool plainly_valid(const TriangleSoup& soup) {
  const auto finite = [&](const tbb::blocked_range<std::size_t>& r, bool ok) {
    for (std::size_t i = r.begin(); ok && i != r.end(); ++i) ok = is_finite(soup.positions[i]);
    return ok;
  };
  const auto in_range = [&](const tbb::blocked_range<std::size_t>& r, bool ok) {
    for (std::size_t i = r.begin(); ok && i != r.end(); ++i)
      ok = soup.indices[i] < soup.positions.size();
    return ok;
  };
  const auto both = [](bool a, bool b) { return a && b; };
  return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, soup.positions.size(), 1 << 14),
                              true, finite, both) &&
         tbb::parallel_reduce(tbb::blocked_range<std::size_t>(0, soup.indices.size(), 1 << 14),
                              true, in_range, both);
}

void check_moved(const Bvh& bvh, const TriangleSoup& moved) {
  // validate throws, naming the first bad triangle
  if (!detail::soup_shape_is_valid(moved) || !plainly_valid(moved)) validate(moved);
  if (moved.size() != bvh.size())
    throw InvalidInput("refit: the moved soup has " + std::to_string(moved.size()) +
                       " triangles, the tree " + std::to_string(bvh.size()));
}

void remember_built_cost(Bvh& bvh) {
  if (bvh.built_sah_cost == 0 && !bvh.empty()) bvh.built_sah_cost = statistics(bvh).sah_cost;
}

}  // namespace

void refit(Bvh& bvh, const TriangleSoup& moved) {
  check_moved(bvh, moved);
  if (bvh.empty()) return;
  remember_built_cost(bvh);
  Refitter(bvh, moved, nullptr).run();
  if (bvh.has_ray_nodes()) refresh_ray_nodes(bvh);
}

void refit(Bvh& bvh, const TriangleSoup& moved, std::span<const TriangleId> changed) {
  if (!detail::soup_shape_is_valid(moved) || moved.size() != bvh.size()) check_moved(bvh, moved);
  std::vector<std::uint8_t> is_changed(bvh.size(), 0);
  for (std::size_t i = 0; i < changed.size(); ++i) {
    if (changed[i] >= bvh.size())
      throw InvalidInput("refit: changed id " + std::to_string(i) + " is " +
                         std::to_string(changed[i]) + ", out of range for " +
                         std::to_string(bvh.size()) + " triangles");
    Triangle triangle;
    if (!detail::read_checked(moved, changed[i], triangle)) validate(moved);  // throws
    is_changed[changed[i]] = 1;
  }
  if (bvh.empty() || changed.empty()) return;
  remember_built_cost(bvh);
  const DirtySlots dirty(bvh, std::move(is_changed));
  Refitter(bvh, moved, &dirty).run();
  if (bvh.has_ray_nodes()) refresh_ray_nodes(bvh);
}

RefitQuality refit_quality(const Bvh& bvh) {
  return {bvh.empty() ? 0.0 : statistics(bvh).sah_cost, bvh.built_sah_cost};
}

}  // namespace trisect
