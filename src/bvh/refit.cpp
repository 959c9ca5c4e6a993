// Refitting: a bottom-up pass over the wide nodes that rewrites the moved triangles into their
// slots (read in slot order, their memory asked for ahead), takes each leaf's box from its
// triangles and re-quantises each node from its children's exact boxes, skipping the nodes none
// of whose children's boxes moved where the tree keeps those boxes (the update step of
// Lauterbach, Yoon & Manocha, "RT-DEFORM: Interactive Ray Tracing of Dynamic Scenes using BVHs",
// 2006, on 8-wide quantised nodes). Subtrees near
// the root run as parallel tasks; every box depends only on the triangles below it, so the
// result does not depend on the thread count.
#include "trisect/bvh/refit.hpp"

#include "mesh/checked_soup.hpp"
#include "quantize.hpp"
#include "soup_reader.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace trisect {
namespace {

// Boxes are compared bitwise (`refit_node`): six floats, no padding.
static_assert(sizeof(Aabb) == 6 * sizeof(float));

// Subtrees this close to the root are refitted as parallel tasks.
constexpr int parallel_depth = 4;

// What moved in a partial refit: a bit per slot, set for the slots of the changed ids.
class DirtySlots {
 public:
  // Marks the slots of `changed` (ids of `bvh`, whose `slots` map is made).
  DirtySlots(const Bvh& bvh, std::span<const TriangleId> changed) : bits_(bvh.size() / 64 + 1, 0) {
    for (const TriangleId id : changed) {
      const std::uint32_t slot = bvh.slots[id];
      bits_[slot / 64] |= std::uint64_t{1} << (slot % 64);
    }
  }
  // True when `slot` is marked.
  [[nodiscard]] bool moved(std::uint32_t slot) const noexcept {
    return (bits_[slot / 64] >> (slot % 64) & 1u) != 0;
  }
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
  std::vector<std::uint64_t> bits_;
};

// Where a refit takes each leaf's triangles from.
enum class Source {
  soup,     // a full refit: every triangle from the moved soup
  changed,  // a partial refit: the changed triangles from the moved soup, the others kept
  stored,   // the tree's own triangles, to make `Bvh::child_boxes`
};

class Refitter {
 public:
  // `dirty` is needed by `Source::changed` only. Keeps `bvh.child_boxes` in step when the tree
  // has them (as `Source::changed` requires).
  Refitter(Bvh& bvh, const TriangleSoup& moved, Source source, const DirtySlots* dirty = nullptr)
      : bvh_(bvh),
        moved_(moved),
        reader_(moved, bvh.ids),
        source_(source),
        dirty_(dirty),
        exact_(bvh.child_boxes.size() == WideNode::width * bvh.wide.size() ? bvh.child_boxes.data()
                                                                           : nullptr) {}

  void run() { bvh_.root_bounds = refit_node(0, 0, static_cast<std::uint32_t>(bvh_.size()), 0); }

 private:
  // Refits wide node `index` over slots [begin, end) and returns the exact box of its triangles.
  Aabb refit_node(std::uint32_t index, std::uint32_t begin, std::uint32_t end, int depth) {
    WideNode& node = bvh_.wide[index];
    const int count = std::popcount(node.used_mask());
    Aabb boxes[WideNode::width] = {};
    const auto refit_lane = [&](int lane) {
      boxes[lane] = refit_child(index, lane, node.child_end(lane, end), depth);
    };
    if (depth < parallel_depth && end - begin > 4096) {
      tbb::parallel_for(0, count, refit_lane);
    } else {
      for (int lane = 0; lane < count; ++lane) refit_lane(lane);
    }
    // A node's quantised faces are a function of its children's exact boxes alone: it is
    // re-quantised only where one of them moved (always when making the exact boxes).
    const Aabb* before = exact_ != nullptr && source_ != Source::stored
                             ? exact_ + WideNode::width * std::size_t{index}
                             : nullptr;
    if (before == nullptr || std::memcmp(before, boxes, sizeof(Aabb) * std::size_t(count)) != 0)
      detail::quantize_children(node, boxes, count);
    Aabb bounds = Aabb::empty();
    for (int lane = 0; lane < count; ++lane) bounds.extend(boxes[lane]);
    if (exact_ != nullptr)
      for (int lane = 0; lane < WideNode::width; ++lane)
        exact_[WideNode::width * std::size_t{index} + std::size_t(lane)] =
            lane < count ? boxes[lane] : Aabb::empty();
    return bounds;
  }

  // The exact box of child `lane` of wide node `index`, whose slots end at `end`; refits what
  // lies below when needed (in a partial refit, only below children with a changed triangle).
  Aabb refit_child(std::uint32_t index, int lane, std::uint32_t end, int depth) {
    const WideNode& node = bvh_.wide[index];
    const LeafRange range{node.first[lane], end};
    if (source_ == Source::changed && !dirty_->any(range.begin, range.end))
      return exact_[WideNode::width * std::size_t{index} + std::size_t(lane)];
    if (node.child[lane] != WideNode::leaf)
      return refit_node(node.child[lane], range.begin, range.end, depth + 1);
    if (source_ == Source::stored) return stored_box(range);
    Aabb box = Aabb::empty();
    bvh_.triangles.rewrite_leaf(range, [&](std::uint32_t slot) {
      // A full refit reads every slot in order, its memory asked for ahead. A partial one reads
      // only what moved (the rest of the soup is not checked), scattered, where asking ahead
      // would be wasted.
      const Triangle triangle = source_ == Source::soup ? reader_.triangle(slot)
                                : dirty_->moved(slot)   ? moved_.triangle(bvh_.ids[slot])
                                                        : bvh_.triangles.triangle(slot);
      box.extend(triangle.bounds());
      return triangle;
    });
    return box;
  }

  // The box of the stored triangles of the leaf `range`.
  [[nodiscard]] Aabb stored_box(LeafRange range) const {
    Aabb box = Aabb::empty();
    bvh_.triangles.for_each_group(
        range.begin, range.end,
        [&](std::uint32_t, const TriangleGroup& group) { box.extend(group.bounds()); });
    return box;
  }

  Bvh& bvh_;
  const TriangleSoup& moved_;
  // Reads the moved soup in slot order, as the walk does, asking for its memory ahead.
  const detail::SoupReader<> reader_;
  Source source_;
  const DirtySlots* dirty_;
  Aabb* exact_;  // `bvh_.child_boxes`, or null when the tree has none
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

// Makes `bvh.slots` and `bvh.child_boxes` unless they are made already: the boxes from the
// tree's own triangles (the moved soup is not read).
void make_partial_refit_maps(Bvh& bvh, const TriangleSoup& moved) {
  if (bvh.slots.size() != bvh.size()) {
    std::vector<std::uint32_t> slots(bvh.size());
    tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(bvh.size())),
                      [&](const auto& range) {
                        for (std::uint32_t slot = range.begin(); slot != range.end(); ++slot)
                          slots[bvh.ids[slot]] = slot;
                      });
    bvh.slots = std::move(slots);
  }
  if (bvh.child_boxes.size() != WideNode::width * bvh.wide.size()) {
    bvh.child_boxes = std::vector<Aabb>(WideNode::width * bvh.wide.size());
    Refitter(bvh, moved, Source::stored).run();
  }
}

void remember_built_cost(Bvh& bvh) {
  if (bvh.built_sah_cost == 0 && !bvh.empty()) bvh.built_sah_cost = statistics(bvh).sah_cost;
}

}  // namespace

void refit(Bvh& bvh, const TriangleSoup& moved) {
  check_moved(bvh, moved);
  if (bvh.empty()) return;
  remember_built_cost(bvh);
  // Run again on one thread when a worker cannot start: it writes everything anew.
  detail::with_thread_fallback(0, [&] { Refitter(bvh, moved, Source::soup).run(); });
  if (bvh.has_ray_nodes()) refresh_ray_nodes(bvh);
  if (bvh.has_ray_leaves()) refresh_ray_leaves(bvh);
}

void refit(Bvh& bvh, const TriangleSoup& moved, std::span<const TriangleId> changed) {
  if (!detail::soup_shape_is_valid(moved) || moved.size() != bvh.size()) check_moved(bvh, moved);
  for (std::size_t i = 0; i < changed.size(); ++i) {
    if (changed[i] >= bvh.size())
      throw InvalidInput("refit: changed id " + std::to_string(i) + " is " +
                         std::to_string(changed[i]) + ", out of range for " +
                         std::to_string(bvh.size()) + " triangles");
    Triangle triangle;
    if (!detail::read_checked(moved, changed[i], triangle)) validate(moved);  // throws
  }
  if (bvh.empty() || changed.empty()) return;
  remember_built_cost(bvh);
  // Run again on one thread when a worker cannot start: the changed triangles are read from
  // `moved` again, the others are where they were, and the nodes are made anew from them.
  detail::with_thread_fallback(0, [&] {
    make_partial_refit_maps(bvh, moved);
    const DirtySlots dirty(bvh, changed);
    Refitter(bvh, moved, Source::changed, &dirty).run();
  });
  if (bvh.has_ray_nodes()) refresh_ray_nodes(bvh);
  if (bvh.has_ray_leaves()) refresh_ray_leaves(bvh);
}

RefitQuality refit_quality(const Bvh& bvh) {
  return {bvh.empty() ? 0.0 : statistics(bvh).sah_cost, bvh.built_sah_cost};
}

}  // namespace trisect
