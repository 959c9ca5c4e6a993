#include "trisect/broadphase/broadphase.hpp"

#include "reserve_more.hpp"

#include <tbb/parallel_for.h>

#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>

namespace trisect {
namespace {

// Searches per task of the new fat pairs.
constexpr std::size_t searches_per_task = 256;
// Below this count (a few tasks' worth) the search runs on the calling thread alone: on a small
// frame, waking TBB's workers and gathering their results costs about what sharing the work
// saves, and a worker that the system does not schedule at once holds the frame up. The small
// frames of bench_broadphase (10k boxes, all or every tenth moving: 354 and 34 searches a frame)
// run serially; there 2 threads measured within noise of 1 (CPU time, medians of 5: 1.36 and
// 1.37 ms, 0.230 and 0.231 ms).
constexpr std::size_t serial_searches_below = 2 * searches_per_task;

// Calls `body(begin, end)` on the chunks [k·grain, min((k + 1)·grain, count)) of [0, count), on
// `executor`'s threads (none: TBB's), or once with the whole range on this thread when `count`
// is below `serial_below`. Returns the number of chunks (1 when serial). On TBB's threads, a
// worker that cannot start makes the chunks run again on this thread: `body` must make each
// chunk's whole result anew.
template <class Body>
std::size_t for_chunks(const TaskExecutor& executor, std::size_t count, std::size_t grain,
                       std::size_t serial_below, const Body& body) {
  if (count < serial_below) {
    body(std::size_t{0}, count);
    return 1;
  }
  const std::size_t chunks = (count + grain - 1) / grain;
  const auto run = [&](std::size_t chunk) {
    body(chunk * grain, std::min(count, (chunk + 1) * grain));
  };
  if (executor)
    executor(chunks, run);
  else  // on one thread again when a worker cannot start; each chunk remakes its whole result
    detail::with_thread_fallback(0, [&] { tbb::parallel_for(std::size_t{0}, chunks, run); });
  return chunks;
}

}  // namespace

Broadphase::Broadphase(FatBoxOptions options)
    : trees_{DynamicAabbTree(options), DynamicAabbTree(options)} {}

void Broadphase::require_proxy(ProxyId id) const {
  if (!is_proxy(id))
    throw InvalidInput("proxy id " + std::to_string(id) +
                       " is not a live proxy of this broadphase");
}

void Broadphase::require_known(ProxyId id) const {
  if (id >= proxies_.size())
    throw InvalidInput("proxy id " + std::to_string(id) +
                       " never named a proxy of this broadphase");
}

const Aabb& Broadphase::box(ProxyId id) const {
  require_proxy(id);
  return boxes_[id];
}

void Broadphase::mark_fat_changed(ProxyId id) {
  if ((flags_[id] & fat_changed) != 0) return;
  flags_[id] |= fat_changed;
  fat_changed_.push_back(id);
}

void Broadphase::mark_moved(ProxyId id) {
  if ((flags_[id] & moved) != 0) return;
  flags_[id] |= moved;
  moved_.push_back(id);
}

void Broadphase::require_layer(Layer layer) {
  if (layer != Layer::static_layer && layer != Layer::dynamic_layer)
    throw InvalidInput("layer " + std::to_string(static_cast<int>(layer)) +
                       " is neither Layer::static_layer (0) nor Layer::dynamic_layer (1)");
}

const DynamicAabbTree& Broadphase::tree(Layer layer) const {
  require_layer(layer);
  return trees_[static_cast<std::size_t>(layer)];
}

void Broadphase::validate() const {
  for (const DynamicAabbTree& tree : trees_) tree.validate();
  for (ProxyId id = 0; id < flags_.size(); ++id) {
    if ((flags_[id] & alive) == 0) continue;
    const Proxy& proxy = proxies_[id];
    if (!trees_[static_cast<std::size_t>(proxy.layer)].fat_box(proxy.node).contains(boxes_[id]))
      throw std::logic_error("Broadphase::validate: proxy " + std::to_string(id) +
                             "'s fat box does not contain its box");
  }
  validate_pairs();
}

ProxyId Broadphase::create_proxy(const Aabb& box, Layer layer, ProxyFilter filter,
                                 std::uint64_t user_data) {
  return create_proxy(box, ProxyOptions{layer, filter, user_data});
}

ProxyId Broadphase::create_proxy(const Aabb& box, const ProxyOptions& options) {
  const Layer layer = options.layer;
  require_layer(layer);
  const ProxyId id = free_ids_.empty() ? static_cast<ProxyId>(proxies_.size()) : free_ids_.back();
  // Room first, so that nothing below throws after the tree changed.
  detail::reserve_more(boxes_, 1);
  detail::reserve_more(proxies_, 1);
  detail::reserve_more(flags_, 1);
  detail::reserve_more(pair_lists_, 1);
  detail::reserve_more(rests_, 1);
  detail::reserve_more(proposed_slacks_, 1);
  detail::reserve_more(fat_changed_, 1);
  detail::reserve_more(moved_, 1);
  DynamicAabbTree& tree = trees_[static_cast<std::size_t>(layer)];
  // The tree validates the box and margin before any change.
  const ProxyId node =
      tree.create_proxy(box, id, options.margin.value_or(tree.options().default_margin()));
  if (free_ids_.empty()) {
    boxes_.emplace_back();
    proxies_.emplace_back();
    flags_.emplace_back();
    pair_lists_.push_back(no_pair);
    rests_.emplace_back();  // set when its first update settles it
    proposed_slacks_.push_back(0);
  } else {
    free_ids_.pop_back();
  }
  boxes_[id] = box;
  proxies_[id] = Proxy{node, layer, options.filter, options.user_data};
  flags_[id] = options.sensor ? alive | sensor : alive;
  mark_fat_changed(id);
  mark_moved(id);
  return id;
}

void Broadphase::destroy_proxy(ProxyId id) {
  require_proxy(id);
  detail::reserve_more(destroyed_, 1);
  const Proxy& proxy = proxies_[id];
  trees_[static_cast<std::size_t>(proxy.layer)].destroy_proxy(proxy.node);
  flags_[id] &= static_cast<std::uint8_t>(~alive);
  destroyed_.push_back(id);
}

void Broadphase::move_proxy(ProxyId id, const Aabb& box, const Vec3& displacement) {
  require_proxy(id);
  detail::reserve_more(fat_changed_, 1);
  detail::reserve_more(moved_, 1);
  // Checked here, before the clamp below could make an infinite displacement finite; the tree
  // validates the box before it changes anything.
  DynamicAabbTree::require_displacement(id, displacement);
  const Proxy& proxy = proxies_[id];
  constexpr float largest = std::numeric_limits<float>::max();
  const Vec3 anticipated =
      glm::clamp(anticipation_of(id) * displacement, Vec3(-largest), Vec3(largest));
  if (trees_[static_cast<std::size_t>(proxy.layer)].move_proxy(proxy.node, box, anticipated))
    mark_fat_changed(id);
  boxes_[id] = box;
  mark_moved(id);
}

float Broadphase::anticipation_of(ProxyId id) noexcept {
  // A fixed scramble of the id (Knuth's multiplicative hash, TAOCP 6.4) to [0.5, 1.5).
  const std::uint32_t scrambled = id * 2654435761u;
  return 0.5f + static_cast<float>(scrambled >> 8) * 0x1p-24f;
}

void Broadphase::set_filter(ProxyId id, ProxyFilter filter) {
  require_proxy(id);
  detail::reserve_more(fat_changed_, 1);
  detail::reserve_more(moved_, 1);
  proxies_[id].filter = filter;
  // Its pairs are searched again (only those the new filter allows are found; the others are
  // dropped) and tested again.
  mark_fat_changed(id);
  mark_moved(id);
}

void Broadphase::set_layer(ProxyId id, Layer layer) {
  require_proxy(id);
  require_layer(layer);
  Proxy& proxy = proxies_[id];
  if (proxy.layer == layer) return;
  detail::reserve_more(fat_changed_, 1);
  detail::reserve_more(moved_, 1);
  // Into the new tree first: if that throws (out of memory), the old tree is untouched.
  const DynamicAabbTree& old_tree = trees_[static_cast<std::size_t>(proxy.layer)];
  const ProxyId node = trees_[static_cast<std::size_t>(layer)].create_proxy(
      boxes_[id], id, old_tree.margin(proxy.node));
  trees_[static_cast<std::size_t>(proxy.layer)].destroy_proxy(proxy.node);
  proxy.node = node;
  proxy.layer = layer;
  mark_fat_changed(id);
  mark_moved(id);
}

void Broadphase::shift_origin(const Vec3& offset) {
  if (!is_finite(offset)) trisect::validate(Aabb{offset, offset}, "origin shift");
  for (ProxyId id = 0; id < flags_.size(); ++id) {
    if ((flags_[id] & alive) == 0) continue;
    const Aabb shifted{boxes_[id].min + offset, boxes_[id].max + offset};
    if (!is_finite(shifted.min) || !is_finite(shifted.max))
      throw InvalidInput("origin shift: proxy " + std::to_string(id) +
                         "'s box would leave the float range");
  }
  fat_changed_.reserve(flags_.size());
  moved_.reserve(flags_.size());
  for (DynamicAabbTree& tree : trees_) tree.shift(offset);
  for (ProxyId id = 0; id < flags_.size(); ++id) {
    if ((flags_[id] & alive) == 0) continue;
    boxes_[id] = {boxes_[id].min + offset, boxes_[id].max + offset};
    // Every proxy searches again: a rounding may join boxes whose fat boxes were apart.
    mark_fat_changed(id);
    mark_moved(id);
  }
}

void Broadphase::set_margin(ProxyId id, FatMargin margin) {
  require_proxy(id);
  const Proxy& proxy = proxies_[id];
  trees_[static_cast<std::size_t>(proxy.layer)].set_margin(proxy.node, margin);
}

FatMargin Broadphase::margin(ProxyId id) const {
  require_proxy(id);
  const Proxy& proxy = proxies_[id];
  return trees_[static_cast<std::size_t>(proxy.layer)].margin(proxy.node);
}

bool Broadphase::is_sensor(ProxyId id) const {
  require_known(id);
  return (flags_[id] & sensor) != 0;
}

void Broadphase::set_user_data(ProxyId id, std::uint64_t user_data) {
  require_proxy(id);
  proxies_[id].user_data = user_data;
}

std::uint64_t Broadphase::user_data(ProxyId id) const {
  require_known(id);
  return proxies_[id].user_data;
}

ProxyFilter Broadphase::filter(ProxyId id) const {
  require_proxy(id);
  return proxies_[id].filter;
}

Layer Broadphase::layer(ProxyId id) const {
  require_proxy(id);
  return proxies_[id].layer;
}

Aabb Broadphase::bounds_of(const Sphere& ball) {
  trisect::validate(ball, "broadphase query ball");
  constexpr float largest = std::numeric_limits<float>::max();
  Aabb box;
  for (int axis = 0; axis < 3; ++axis) {
    const double centre = ball.center[axis], radius = ball.radius;
    // One rounding to float each, then a step outward: below and above the real faces.
    const float low = std::nextafter(static_cast<float>(centre - radius), -largest);
    const float high = std::nextafter(static_cast<float>(centre + radius), largest);
    box.min[axis] = std::clamp(low, -largest, largest);
    box.max[axis] = std::clamp(high, -largest, largest);
  }
  return box;
}

bool Broadphase::ball_meets_box(const Sphere& ball, const Aabb& box) {
  // The point of the closed box nearest the centre, coordinate by coordinate (each a float of
  // the centre or the box, so exact), then its distance to the centre exactly.
  const Vec3 nearest = glm::clamp(ball.center, box.min, box.max);
  return detail::vertex_in_ball(nearest, ball);
}

// Two static proxies never meet here: a static proxy searches the dynamic tree only, and the
// static tree is searched by dynamic proxies only (`find_new_fat_pairs`), the one place that
// keeps static pairs out.
bool Broadphase::may_pair(const Proxy& a, const Proxy& b) const noexcept {
  return (a.filter.group & b.filter.mask) != 0 && (b.filter.group & a.filter.mask) != 0;
}

// Each proxy with a new fat box searches the trees with it (the dynamic tree, and the static
// tree too when it is dynamic). A pair of two such proxies is kept by the smaller id's search
// only. The result is sorted, so it does not depend on how TBB split the work.
std::vector<ProxyPair> Broadphase::find_new_fat_pairs() {
  std::vector<std::vector<ProxyPair>> found(
      std::max<std::size_t>(1, (fat_changed_.size() + searches_per_task - 1) / searches_per_task));
  const std::size_t chunks = for_chunks(
      executor_, fat_changed_.size(), searches_per_task, serial_searches_below,
      [&](std::size_t begin, std::size_t end) {
        std::vector<ProxyPair>& out = found[begin / searches_per_task];
        out.clear();  // a chunk run again after a thread failed to start starts afresh
        for (const Layer layer : {Layer::dynamic_layer, Layer::static_layer}) {
          std::vector<ProxyId> ids;  // the searching proxies, and their fat boxes
          std::vector<Aabb> fat_boxes;
          for (std::size_t i = begin; i != end; ++i) {
            const ProxyId id = fat_changed_[i];
            const Proxy& proxy = proxies_[id];
            if ((flags_[id] & alive) == 0) continue;
            if (layer == Layer::static_layer && proxy.layer == Layer::static_layer) continue;
            ids.push_back(id);
            fat_boxes.push_back(trees_[static_cast<std::size_t>(proxy.layer)].fat_box(proxy.node));
          }
          const DynamicAabbTree& tree = trees_[static_cast<std::size_t>(layer)];
          tree.query_each(fat_boxes, [&](std::size_t query, ProxyId node) {
            const ProxyId id = ids[query];
            const auto other = static_cast<ProxyId>(tree.user_data_unchecked(node));
            if (other == id || ((flags_[other] & fat_changed) != 0 && other < id)) return;
            if (!may_pair(proxies_[id], proxies_[other])) return;
            const ProxyPair pair = id < other ? ProxyPair{id, other} : ProxyPair{other, id};
            if (!pair_filter_ || pair_filter_(pair.first, pair.second)) out.push_back(pair);
          });
        }
      });
  std::vector<ProxyPair> pairs;
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
    pairs.insert(pairs.end(), found[chunk].begin(), found[chunk].end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// The frame's pairs in one pass, in ascending order (merging last frame's fat pairs with the new
// ones found, testing boxes, collecting events and the current pairs), so that the fat pairs
// are read and written once.
//
// A fat pair can only appear or vanish when one of its proxies got a new fat box (or died), and
// each such proxy searched again: an old pair of such a proxy lives on only when found again
// (keeping its state); otherwise, if its boxes overlapped, it ends now. A pair's boxes are
// tested again when either proxy moved (a new fat box implies a move, so every new pair is
// tested).
void Broadphase::recycle_destroyed() {
  for (const ProxyId id : fat_changed_) flags_[id] &= static_cast<std::uint8_t>(~fat_changed);
  for (const ProxyId id : moved_) flags_[id] &= static_cast<std::uint8_t>(~(moved | unsettled));
  unsettled_.clear();
  fat_changed_.clear();
  moved_.clear();
  // Reused last-in first-out; highest ids last so that low ids come back first.
  std::sort(destroyed_.begin(), destroyed_.end(), std::greater<>());
  free_ids_.insert(free_ids_.end(), destroyed_.begin(), destroyed_.end());
  destroyed_.clear();
}

void Broadphase::update_pairs() {
  for (std::size_t layer = 0; layer < 2; ++layer) {
    DynamicAabbTree& tree = trees_[layer];
    // The refits of this frame alone (the count starts again when a rebuild is put in place).
    const std::size_t refits = tree.refits_since_rebuild();
    const std::size_t this_frame =
        refits >= refits_seen_[layer] ? refits - refits_seen_[layer] : refits;
    if (double(this_frame) >= rebuild_after_refits * double(tree.size()))
      tree.rebuild();  // a frame that refitted most proxies at once
    else
      tree.rebuild_gradually();
    refits_seen_[layer] = tree.refits_since_rebuild();
  }
  advance_pairs(find_new_fat_pairs());
  recycle_destroyed();
}

}  // namespace trisect
