#include "trisect/broadphase/broadphase.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <iterator>
#include <string>

namespace trisect {
namespace {

constexpr std::size_t dynamic_index = static_cast<std::size_t>(Layer::dynamic_layer);
constexpr std::size_t static_index = static_cast<std::size_t>(Layer::static_layer);

// Pairs per task of the overlap filter: large enough that a task outweighs its scheduling.
constexpr std::size_t pairs_per_task = 8192;

}  // namespace

Broadphase::Broadphase(FatBoxOptions options)
    : trees_{DynamicAabbTree(options), DynamicAabbTree(options)} {}

void Broadphase::require_proxy(ProxyId id) const {
  if (!is_proxy(id))
    throw InvalidInput("proxy id " + std::to_string(id) +
                       " is not a live proxy of this broadphase");
}

const Aabb& Broadphase::box(ProxyId id) const {
  require_proxy(id);
  return proxies_[id].box;
}

void Broadphase::mark_fat_changed(ProxyId id) {
  Proxy& proxy = proxies_[id];
  if (proxy.is_fat_changed) return;
  proxy.is_fat_changed = true;
  fat_changed_.push_back(id);
}

ProxyId Broadphase::create_proxy(const Aabb& box, Layer layer, ProxyFilter filter) {
  ProxyId id = 0;
  if (free_ids_.empty()) {
    id = static_cast<ProxyId>(proxies_.size());
  } else {
    id = free_ids_.back();
  }
  DynamicAabbTree& tree = trees_[static_cast<std::size_t>(layer)];
  const ProxyId node = tree.create_proxy(box, id);  // validates the box before any change
  if (free_ids_.empty()) {
    proxies_.emplace_back();
  } else {
    free_ids_.pop_back();
  }
  proxies_[id] = Proxy{box, node, layer, filter, true, false};
  mark_fat_changed(id);
  return id;
}

void Broadphase::destroy_proxy(ProxyId id) {
  require_proxy(id);
  Proxy& proxy = proxies_[id];
  trees_[static_cast<std::size_t>(proxy.layer)].destroy_proxy(proxy.node);
  proxy.is_alive = false;
  destroyed_.push_back(id);
}

void Broadphase::move_proxy(ProxyId id, const Aabb& box, const Vec3& displacement) {
  require_proxy(id);
  Proxy& proxy = proxies_[id];
  // The tree validates the box and displacement before it changes anything.
  if (trees_[static_cast<std::size_t>(proxy.layer)].move_proxy(proxy.node, box, displacement))
    mark_fat_changed(id);
  proxy.box = box;
}

bool Broadphase::may_pair(const Proxy& a, const Proxy& b) const noexcept {
  if (a.layer == Layer::static_layer && b.layer == Layer::static_layer) return false;
  return (a.filter.group & b.filter.mask) != 0 && (b.filter.group & a.filter.mask) != 0;
}

// A fat pair can only appear or vanish when one of its proxies got a new fat box (or died):
// drop every pair touching such a proxy; find_new_fat_pairs searches them again.
void Broadphase::drop_stale_fat_pairs() {
  const auto is_stale = [this](const ProxyPair& pair) {
    const Proxy& a = proxies_[pair.first];
    const Proxy& b = proxies_[pair.second];
    return !a.is_alive || !b.is_alive || a.is_fat_changed || b.is_fat_changed;
  };
  fat_pairs_.erase(std::remove_if(fat_pairs_.begin(), fat_pairs_.end(), is_stale),
                   fat_pairs_.end());
}

// Each proxy with a new fat box searches the trees with it (the dynamic tree, and the static
// tree too when it is dynamic). A pair of two such proxies is kept by the smaller id's search
// only. The result is sorted, so it does not depend on how TBB split the work.
std::vector<ProxyPair> Broadphase::find_new_fat_pairs() {
  tbb::enumerable_thread_specific<std::vector<ProxyPair>> found;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, fat_changed_.size(), 64),
      [&](const tbb::blocked_range<std::size_t>& range) {
        std::vector<ProxyPair>& out = found.local();
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
          const ProxyId id = fat_changed_[i];
          const Proxy& proxy = proxies_[id];
          if (!proxy.is_alive) continue;
          const Aabb& fat = trees_[static_cast<std::size_t>(proxy.layer)].fat_box(proxy.node);
          for (std::size_t layer : {dynamic_index, static_index}) {
            if (layer == static_index && proxy.layer == Layer::static_layer) break;
            const DynamicAabbTree& tree = trees_[layer];
            (void)tree.query(fat, [&](ProxyId node) {
              const auto other = static_cast<ProxyId>(tree.user_data_unchecked(node));
              const Proxy& partner = proxies_[other];
              if (other == id || (partner.is_fat_changed && other < id)) return true;
              if (may_pair(proxy, partner))
                out.push_back(id < other ? ProxyPair{id, other} : ProxyPair{other, id});
              return true;
            });
          }
        }
      });
  std::vector<ProxyPair> pairs;
  for (const std::vector<ProxyPair>& part : found)
    pairs.insert(pairs.end(), part.begin(), part.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// The pairs whose own boxes overlap, among the fat pairs, in their (ascending) order: filtered
// in fixed chunks, each into its own vector, joined in chunk order.
void Broadphase::find_overlapping_pairs() {
  const std::size_t chunks = (fat_pairs_.size() + pairs_per_task - 1) / pairs_per_task;
  std::vector<std::vector<ProxyPair>> parts(chunks);
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t chunk) {
    const std::size_t begin = chunk * pairs_per_task;
    const std::size_t end = std::min(fat_pairs_.size(), begin + pairs_per_task);
    std::vector<ProxyPair>& out = parts[chunk];
    for (std::size_t i = begin; i < end; ++i) {
      const ProxyPair pair = fat_pairs_[i];
      if (proxies_[pair.first].box.overlaps(proxies_[pair.second].box)) out.push_back(pair);
    }
  });
  std::vector<ProxyPair> overlapping;
  for (const std::vector<ProxyPair>& part : parts)
    overlapping.insert(overlapping.end(), part.begin(), part.end());
  began_.clear();
  ended_.clear();
  std::set_difference(overlapping.begin(), overlapping.end(), pairs_.begin(), pairs_.end(),
                      std::back_inserter(began_));
  std::set_difference(pairs_.begin(), pairs_.end(), overlapping.begin(), overlapping.end(),
                      std::back_inserter(ended_));
  pairs_ = std::move(overlapping);
}

void Broadphase::recycle_destroyed() {
  for (const ProxyId id : fat_changed_) proxies_[id].is_fat_changed = false;
  fat_changed_.clear();
  // Reused last-in first-out; highest ids last so that low ids come back first.
  std::sort(destroyed_.begin(), destroyed_.end(), std::greater<>());
  free_ids_.insert(free_ids_.end(), destroyed_.begin(), destroyed_.end());
  destroyed_.clear();
}

void Broadphase::update_pairs() {
  drop_stale_fat_pairs();
  std::vector<ProxyPair> found = find_new_fat_pairs();
  std::vector<ProxyPair> merged;
  merged.reserve(fat_pairs_.size() + found.size());
  std::merge(fat_pairs_.begin(), fat_pairs_.end(), found.begin(), found.end(),
             std::back_inserter(merged));
  fat_pairs_ = std::move(merged);
  find_overlapping_pairs();
  recycle_destroyed();
}

}  // namespace trisect
