// The proxies of a `DynamicAabbTree`: their fat boxes, creation, moves, removal and accessors,
// the node storage they live in, and the shift of every stored box. How the tree is shaped
// around them (insertion, rotations, rebuild) is dynamic_tree_structure.cpp; the bound on its
// height and the check of its invariants are dynamic_tree_checks.cpp.
#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/math/float4.hpp"

#include "ray_box.hpp"
#include "reserve_more.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace trisect {
namespace {

// Declared inline: GCC then inlines it into `fat`, as it did when the tree was one source.
inline Vec3 clamp_to_finite(const Vec3& v) noexcept {
  constexpr float largest = std::numeric_limits<float>::max();
  return glm::clamp(v, Vec3(-largest), Vec3(largest));
}

// A box's corners as four lanes each (the fourth unused), loaded from within the box.
Float4 low_corner(const Aabb& box) noexcept { return Float4::load_unaligned(&box.min.x); }
Float4 high_corner(const Aabb& box) noexcept {
  return shuffle<1, 2, 3, 3>(Float4::load_unaligned(&box.min.z));
}

// `move_proxy`'s rule for keeping the stored fat box, in four lanes (each lane rounds as the
// scalar expressions would): it holds the box and is not much larger than needed (after a
// fast motion stops): Box2D's rule, with four margins of slack, plus the anticipated travel
// `ahead` behind the box (the stored box trails a steadily moving proxy by up to that much).
// Each bound adds terms of one sign, so infinities cannot cancel.
bool keeps_fat_box(const Aabb& stored, const Aabb& box, float growth, const Vec3& ahead) noexcept {
  const Float4 stored_low = low_corner(stored), stored_high = high_corner(stored);
  const Float4 low = low_corner(box), high = high_corner(box);
  constexpr unsigned xyz = 7;
  if ((less_equal_mask(stored_low, low) & less_equal_mask(high, stored_high) & xyz) != xyz)
    return false;
  const Float4 travel = Float4::xyz(ahead.x, ahead.y, ahead.z), zero = Float4::splat(0.0f);
  const Float4 reach = Float4::splat(5.0f * growth) + abs(travel);
  const Float4 roomy_low = low - reach + min_ignoring_nan(travel, zero);
  const Float4 roomy_high = high + reach + max_ignoring_nan(travel, zero);
  return (less_equal_mask(roomy_low, stored_low) & less_equal_mask(stored_high, roomy_high) &
          xyz) == xyz;
}

}  // namespace

DynamicAabbTree::DynamicAabbTree(FatBoxOptions options) : options_(options) {
  require_margin(options.default_margin());
  if (!std::isfinite(options.displacement_multiplier) || options.displacement_multiplier < 0)
    throw InvalidInput("FatBoxOptions: displacement_multiplier must be finite and >= 0");
}

void DynamicAabbTree::require_margin(const FatMargin& margin) {
  if (!std::isfinite(margin.absolute) || margin.absolute < 0)
    throw InvalidInput("fat-box margin: absolute must be finite and >= 0");
  if (!std::isfinite(margin.relative) || margin.relative < 0)
    throw InvalidInput("fat-box margin: relative must be finite and >= 0");
}

float DynamicAabbTree::growth_of(std::int32_t leaf, const Aabb& box) const noexcept {
  const FatMargin& margin = links_[static_cast<std::size_t>(leaf)].margin;
  if (margin.relative == 0) return margin.absolute;
  // A side beyond the float range gives an infinite growth, clamped to the range (the relative
  // part is positive, so never 0 times infinity).
  const Vec3 side = box.max - box.min;
  const float growth = margin.absolute + margin.relative * std::max({side.x, side.y, side.z});
  return std::min(growth, std::numeric_limits<float>::max());
}

Aabb DynamicAabbTree::fat(const Aabb& box, float growth, const Vec3& ahead) noexcept {
  // Subtracting (adding) non-negative amounts rounds down (up) to no less (more) than the box's
  // own corner, so the fat box always contains the box.
  const Vec3 low = box.min - Vec3(growth) + glm::min(ahead, Vec3(0.0f));
  const Vec3 high = box.max + Vec3(growth) + glm::max(ahead, Vec3(0.0f));
  return {clamp_to_finite(low), clamp_to_finite(high)};
}

bool DynamicAabbTree::is_proxy(ProxyId id) const noexcept {
  return id < links_.size() && links_[id].height == 0;
}

void DynamicAabbTree::require_proxy(ProxyId id) const {
  if (!is_proxy(id))
    throw InvalidInput("proxy id " + std::to_string(id) + " is not a live proxy of this tree");
}

void DynamicAabbTree::require_box(const Aabb& box) {
  if (is_finite(box.min) && is_finite(box.max) && !box.is_empty()) return;
  trisect::validate(box, "proxy box");
}

void DynamicAabbTree::require_displacement(ProxyId id, const Vec3& displacement) {
  if (!is_finite(displacement))
    throw InvalidInput("displacement of proxy " + std::to_string(id) + " is not finite");
}

ProxyId DynamicAabbTree::create_proxy(const Aabb& box, std::uint64_t user_data) {
  return create_proxy(box, user_data, options_.default_margin());
}

ProxyId DynamicAabbTree::create_proxy(const Aabb& box, std::uint64_t user_data, FatMargin margin) {
  require_box(box);
  require_margin(margin);
  if (gradual_.is_active()) detail::reserve_more(gradual_.created, 1);
  const std::int32_t leaf = allocate_node();  // may throw: before any change
  Links& links = links_[static_cast<std::size_t>(leaf)];
  links.margin = margin;
  links.box = fat(box, growth_of(leaf, box), Vec3(0.0f));
  links.user_data = user_data;
  if (gradual_.is_active()) links.pending = pending_created;
  try {
    insert_subtree(leaf);
  } catch (...) {  // no room for its parent: the tree is as it was
    free_node(leaf);
    throw;
  }
  if (gradual_.is_active()) gradual_.created.push_back(leaf);  // cannot throw: room reserved
  ++proxy_count_;
  ++changes_;
  return static_cast<ProxyId>(leaf);
}

void DynamicAabbTree::set_margin(ProxyId id, FatMargin margin) {
  require_proxy(id);
  require_margin(margin);
  links_[id].margin = margin;
}

FatMargin DynamicAabbTree::margin(ProxyId id) const {
  require_proxy(id);
  return links_[id].margin;
}

void DynamicAabbTree::destroy_proxy(ProxyId id) {
  require_proxy(id);
  if (gradual_.is_active() && (links_[id].pending & pending_leaf) != 0)
    detail::reserve_more(gradual_.ghosts, 1);
  remove_proxy(static_cast<std::int32_t>(id));
}

void DynamicAabbTree::remove_proxy(std::int32_t leaf) noexcept {
  Links& links = links_[static_cast<std::size_t>(leaf)];
  remove_leaf(leaf);
  if (gradual_.is_active() && (links.pending & pending_leaf) != 0) {
    // The gradual rebuild places it: kept out of the free list until the new tree is in place.
    links.height = -2;
    gradual_.ghosts.push_back(leaf);  // room made by the caller
  } else {
    free_node(leaf);
  }
  --proxy_count_;
  ++changes_;
}

bool DynamicAabbTree::move_proxy(ProxyId id, const Aabb& box, const Vec3& displacement) {
  require_proxy(id);
  require_box(box);
  require_displacement(id, displacement);
  const Aabb& stored = links_[id].box;
  const auto leaf = static_cast<std::int32_t>(id);
  const float growth = growth_of(leaf, box);
  const Vec3 ahead = options_.displacement_multiplier * displacement;
  if (keeps_fat_box(stored, box, growth, ahead)) return false;
  const Aabb wanted = fat(box, growth, ahead);
  if (stored.overlaps(wanted)) {
    // A continuous motion: refit the ancestors in place, with rotations, up to the first one
    // that does not change (Kopta et al., I3D 2012); `rebuild()` restores the tree's quality
    // as these add up.
    set_box(leaf, wanted, 0);
    ++refits_;
    ++changes_;
    note_box_changed(leaf);
    if (parent(leaf) != null_node) refit_upward(parent(leaf), true, true);
    return true;
  }
  remove_leaf(leaf);  // a jump: find the leaf a new place
  links_[id].box = wanted;
  insert_subtree(leaf);  // takes the node its removal freed: cannot throw
  ++changes_;
  note_box_changed(leaf);
  return true;
}

const Aabb& DynamicAabbTree::fat_box(ProxyId id) const {
  require_proxy(id);
  return links_[id].box;
}

std::uint64_t DynamicAabbTree::user_data(ProxyId id) const {
  require_proxy(id);
  return links_[id].user_data;
}

std::int32_t DynamicAabbTree::allocate_node() {
  std::size_t at = 0;
  if (free_list_ == null_node) {
    if (nodes_.size() >= std::size_t(std::numeric_limits<std::int32_t>::max()))
      throw std::length_error("DynamicAabbTree: more than 2^31 - 1 nodes");
    nodes_.emplace_back();
    try {
      links_.emplace_back();
    } catch (...) {
      nodes_.pop_back();  // both or neither
      throw;
    }
    at = nodes_.size() - 1;
  } else {
    at = static_cast<std::size_t>(free_list_);
    free_list_ = links_[at].parents[0];
    nodes_[at] = Node{};
    links_[at] = Links{};
  }
  links_[at].pending = generation_;  // an inner node of the tree, unless a rebuild's
  return static_cast<std::int32_t>(at);
}

void DynamicAabbTree::free_node(std::int32_t index) noexcept {
  nodes_[static_cast<std::size_t>(index)] = Node{};
  Links& links = links_[static_cast<std::size_t>(index)];
  links.height = -1;
  links.parents[0] = free_list_;
  free_list_ = index;
}

bool DynamicAabbTree::ray_meets(const Ray& ray, const Aabb& box) {
  return detail::ray_meets_box(ray, box);
}

bool detail::exact_ray_meets_box(const Ray& ray, const Aabb& box) {
  return ray_meets_box(ray, box);
}

namespace {

// `value` + `offset` rounded to float and then one float step toward `outward`: on that side
// of the exact sum, whatever the roundings (clamped to the float range).
float shifted_outward(float value, float offset, float outward) {
  constexpr float largest = std::numeric_limits<float>::max();
  const float stepped = std::nextafter(static_cast<float>(double(value) + double(offset)), outward);
  return std::clamp(stepped, -largest, largest);
}

}  // namespace

void DynamicAabbTree::shift(const Vec3& offset) {
  if (!is_finite(offset)) trisect::validate(Aabb{offset, offset}, "shift offset");
  constexpr float largest = std::numeric_limits<float>::max();
  for (std::size_t index = 0; index < links_.size(); ++index) {
    if (links_[index].height != 0) continue;  // inner, free or destroyed: recomputed or unused
    Aabb& box = links_[index].box;
    for (int axis = 0; axis < 3; ++axis) {
      box.min[axis] = shifted_outward(box.min[axis], offset[axis], -largest);
      box.max[axis] = shifted_outward(box.max[axis], offset[axis], largest);
    }
    set_box(static_cast<std::int32_t>(index), box, 0);
  }
  // Inner boxes bottom up, children before parents (by height): the tree's, from the copies
  // their children's boxes left in them, and those a gradual rebuild has installed, from their
  // children's boxes themselves (the new tree's links are not the tree's).
  const auto at = [](std::int32_t i) { return static_cast<std::size_t>(i); };
  std::vector<std::int32_t> inner;
  for (std::size_t index = 0; index < links_.size(); ++index)
    if (is_tree_inner(index) || is_installed(index)) inner.push_back(std::int32_t(index));
  std::sort(inner.begin(), inner.end(), [&](std::int32_t a, std::int32_t b) {
    return links_[at(a)].height < links_[at(b)].height;
  });
  for (const std::int32_t index : inner) {
    Node& node = nodes_[at(index)];
    if (is_tree_inner(at(index))) {
      set_box(index, node.box[0].merged(node.box[1]), links_[at(index)].height);
      continue;
    }
    for (int side = 0; side < 2; ++side) node.box[side] = links_[at(node.child[side])].box;
    links_[at(index)].box = node.box[0].merged(node.box[1]);
  }
}

}  // namespace trisect
