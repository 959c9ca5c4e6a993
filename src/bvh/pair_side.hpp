#pragma once
// One side of the pair walk (bvh/pair_walk.hpp): a tree with an optional transform into the
// first side's frame, the subtrees the walk meets on it, with their boxes mapped (outward) and
// kept per node, and the last leaf a visitor read, mapped. Internal to the library; compiled
// with -ffp-contract=off by its users (mapped boxes round outward, every operation once).
#include "math/transform_rows.hpp"
#include "math/transformed_box.hpp"
#include "trisect/bvh/bvh.hpp"

#include <bit>
#include <cstdint>
#include <vector>

namespace trisect::detail {

/// A subtree met by the pair walk: a wide node (`node` its index) or a leaf (`node` ==
/// `WideNode::leaf`), its slot range, and its box in the first tree's frame.
struct PairSubtree {
  std::uint32_t node;
  std::uint32_t begin, end;
  Aabb box;

  [[nodiscard]] bool is_leaf() const noexcept { return node == WideNode::leaf; }
  /// The same subtree (of the same tree).
  [[nodiscard]] bool same_as(const PairSubtree& other) const noexcept {
    return node == other.node && begin == other.begin;
  }
};

/// One side of the walk: a tree and the transform of its triangles and boxes into the first
/// side's frame (null for none), with the mapped child boxes of each wide node reached so far.
class PairSide {
 public:
  /// `keep`: keep the boxes of every node reached even untransformed (a self walk meets each
  /// node many times). A transformed side always keeps them.
  PairSide(const Bvh& bvh, const Transform* transform, bool keep = false)
      : bvh_(bvh), transform_(transform), keep_(keep || transform != nullptr) {}

  [[nodiscard]] const Bvh& bvh() const noexcept { return bvh_; }
  [[nodiscard]] bool is_transformed() const noexcept { return transform_ != nullptr; }

  /// The root as a subtree, its box mapped. The tree must not be empty.
  [[nodiscard]] PairSubtree root() const {
    return {0, 0, static_cast<std::uint32_t>(bvh_.size()), mapped(bvh_.bounds())};
  }

  /// The decoded child boxes of wide node `index`, clipped to the root's box (a decoded box
  /// may reach +inf where a node spans the whole float range, and the exact leaf tests take
  /// these boxes) and mapped outward. Valid until the next call for a side that does not keep
  /// them (decoded each time), until the next new node's for one that does (kept per node).
  [[nodiscard]] const ChildBoxes& boxes(std::uint32_t index) {
    if (!keep_) {
      decoded_ = clipped_boxes(index);
      return decoded_;
    }
    if (mapped_index_.empty()) mapped_index_.assign(bvh_.wide.size(), unset);
    std::uint32_t& at = mapped_index_[index];
    if (at == unset) {
      at = static_cast<std::uint32_t>(mapped_boxes_.size());
      ChildBoxes boxes = clipped_boxes(index);
      for (unsigned used = transform_ != nullptr ? bvh_.wide[index].used_mask() : 0u; used != 0;
           used &= used - 1) {
        const int i = std::countr_zero(used);
        boxes.set(i, mapped(boxes.child_bounds(i)));
      }
      mapped_boxes_.push_back(boxes);
    }
    return mapped_boxes_[at];
  }

  /// `t` mapped (each vertex by the transform's rounding rule).
  [[nodiscard]] Triangle mapped(const Triangle& t) const noexcept {
    if (transform_ == nullptr) return t;
    return {transform_point(*transform_, t.a), transform_point(*transform_, t.b),
            transform_point(*transform_, t.c)};
  }

  /// Calls `f(slot, triangle)` for each slot of `leaf` in order, its triangle mapped.
  template <class F>
  void for_each_mapped(const PairSubtree& leaf, F&& f) const {
    bvh_.triangles.for_each_group(
        leaf.begin, leaf.end, [&](std::uint32_t first, const TriangleGroup& group) {
          for (int lane = 0; lane < group.count; ++lane)
            f(first + static_cast<std::uint32_t>(lane), mapped(group.triangle(lane)));
        });
  }

 private:
  static constexpr std::uint32_t unset = 0xffffffffu;

  // The decoded child boxes of wide node `index`, clipped to the root's box.
  [[nodiscard]] ChildBoxes clipped_boxes(std::uint32_t index) const noexcept {
    ChildBoxes boxes = ChildBoxes::of(bvh_.wide[index]);
    boxes.clip(bvh_.bounds());
    return boxes;
  }

  [[nodiscard]] Aabb mapped(const Aabb& box) const noexcept {
    return transform_ != nullptr ? within_float_range(transformed_box(*transform_, box)) : box;
  }

  const Bvh& bvh_;
  const Transform* transform_;
  bool keep_;
  ChildBoxes decoded_{};
  std::vector<std::uint32_t> mapped_index_;
  std::vector<ChildBoxes> mapped_boxes_;
};

/// The last leaf of one side a visitor read, each triangle mapped and made into a `T` by
/// `make(triangle)`: a walk meets a leaf many times in a row (with each child of the node it
/// was split against), so it is read again only when another leaf comes.
template <class T>
class LastLeaf {
 public:
  /// The triangles of `side`'s leaf `leaf`, made by `make`, or those kept from the last call
  /// when it was the same leaf.
  template <class Make>
  const std::vector<T>& of(const PairSide& side, const PairSubtree& leaf, Make&& make) {
    if (begin_ != leaf.begin) {
      begin_ = leaf.begin;
      items_.clear();
      side.for_each_mapped(leaf,
                           [&](std::uint32_t, const Triangle& t) { items_.push_back(make(t)); });
    }
    return items_;
  }

 private:
  std::uint32_t begin_ = WideNode::unused;
  std::vector<T> items_;
};

}  // namespace trisect::detail
