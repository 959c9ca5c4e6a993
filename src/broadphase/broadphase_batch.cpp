// Proxies of a `Broadphase` created and destroyed in batches: each layer's share goes to its
// tree as one batch (`DynamicAabbTree::create_proxies`), and the broadphase's own records
// follow as they would for the same calls one at a time.
#include "trisect/broadphase/broadphase.hpp"

#include "batch_checks.hpp"
#include "reserve_more.hpp"

#include <string>

namespace trisect {

std::vector<ProxyId> Broadphase::create_proxies(std::span<const Aabb> boxes,
                                                const ProxyOptions& options) {
  return create_batch(boxes, std::span<const ProxyOptions>(&options, 1));
}

std::vector<ProxyId> Broadphase::create_proxies(std::span<const Aabb> boxes,
                                                std::span<const ProxyOptions> options) {
  if (options.size() != boxes.size())
    throw InvalidInput("create_proxies: " + std::to_string(boxes.size()) + " boxes but " +
                       std::to_string(options.size()) + " options");
  if (boxes.empty()) return {};
  return create_batch(boxes, options);
}

std::vector<ProxyId> Broadphase::create_batch(std::span<const Aabb> boxes,
                                              std::span<const ProxyOptions> options) {
  const auto options_of = [&](std::size_t i) -> const ProxyOptions& {
    return options[options.size() == 1 ? 0 : i];
  };
  const std::size_t count = boxes.size();
  // Each proxy checked, and the ids chosen as `create_proxy` would, before any change.
  for (std::size_t i = 0; i < count; ++i) {
    const ProxyOptions& proxy = options_of(i);
    try {
      require_layer(proxy.layer);
    } catch (const InvalidInput& error) {
      throw InvalidInput("proxy " + std::to_string(i) + " of the batch: " + error.what());
    }
    DynamicAabbTree::require_new_proxy({boxes[i], 0, proxy.margin}, i);
  }
  const std::size_t reused = std::min(count, free_ids_.size());
  std::vector<ProxyId> ids(count);
  for (std::size_t i = 0; i < count; ++i)
    ids[i] = i < reused ? free_ids_[free_ids_.size() - 1 - i]
                        : static_cast<ProxyId>(proxies_.size() + (i - reused));
  std::vector<NewProxy> by_layer[2];
  std::vector<std::size_t> indices[2];
  for (std::size_t i = 0; i < count; ++i) {
    const auto layer = static_cast<std::size_t>(options_of(i).layer);
    by_layer[layer].push_back({boxes[i], ids[i], options_of(i).margin});
    indices[layer].push_back(i);
  }
  detail::reserve_more(boxes_, count - reused);
  detail::reserve_more(proxies_, count - reused);
  detail::reserve_more(flags_, count - reused);
  detail::reserve_more(pair_lists_, count - reused);
  detail::reserve_more(rests_, count - reused);
  detail::reserve_more(proposed_slacks_, count - reused);
  detail::reserve_more(fat_changed_, count);
  detail::reserve_more(moved_, count);
  const std::vector<ProxyId> static_nodes = trees_[0].create_proxies(by_layer[0]);
  std::vector<ProxyId> dynamic_nodes;
  try {
    dynamic_nodes = trees_[1].create_proxies(by_layer[1]);
  } catch (...) {  // out of memory: the static tree as it was
    trees_[0].destroy_proxies(static_nodes);
    throw;
  }
  // No allocation below: the records follow.
  free_ids_.resize(free_ids_.size() - reused);
  boxes_.resize(boxes_.size() + (count - reused));
  proxies_.resize(proxies_.size() + (count - reused));
  flags_.resize(flags_.size() + (count - reused));
  pair_lists_.resize(pair_lists_.size() + (count - reused), no_pair);
  rests_.resize(rests_.size() + (count - reused));
  proposed_slacks_.resize(proposed_slacks_.size() + (count - reused));
  const std::vector<ProxyId>* nodes[2] = {&static_nodes, &dynamic_nodes};
  for (std::size_t layer = 0; layer < 2; ++layer)
    for (std::size_t k = 0; k < indices[layer].size(); ++k) {
      const std::size_t i = indices[layer][k];
      const ProxyOptions& proxy = options_of(i);
      const ProxyId id = ids[i];
      boxes_[id] = boxes[i];
      proxies_[id] = Proxy{(*nodes[layer])[k], proxy.layer, proxy.filter, proxy.user_data};
      flags_[id] = proxy.sensor ? alive | sensor : alive;
      mark_fat_changed(id);
      mark_moved(id);
    }
  return ids;
}

void Broadphase::destroy_proxies(std::span<const ProxyId> ids) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (!is_proxy(ids[i]))
      throw InvalidInput("destroy_proxies: proxy id " + std::to_string(ids[i]) + " (index " +
                         std::to_string(i) +
                         " of the batch) is not a live proxy of this broadphase");
  const std::size_t repeat = detail::first_repeat(ids);
  if (repeat < ids.size())
    throw InvalidInput("destroy_proxies: proxy id " + std::to_string(ids[repeat]) + " (index " +
                       std::to_string(repeat) + " of the batch) repeats an earlier one");
  std::vector<ProxyId> nodes[2];
  for (const ProxyId id : ids)
    nodes[static_cast<std::size_t>(proxies_[id].layer)].push_back(proxies_[id].node);
  detail::reserve_more(destroyed_, ids.size());
  // Marked destroyed in the order given, as the calls one at a time would (which ids are
  // reused first depends on it).
  const auto mark_destroyed = [&](auto&& in_layer) {
    for (const ProxyId id : ids) {
      if (!in_layer(proxies_[id].layer)) continue;
      flags_[id] &= static_cast<std::uint8_t>(~alive);
      destroyed_.push_back(id);
    }
  };
  trees_[0].destroy_proxies(nodes[0]);  // each throws only before it changes anything
  try {
    trees_[1].destroy_proxies(nodes[1]);
  } catch (...) {  // out of memory: the static ones are gone, the dynamic ones stay
    mark_destroyed([](Layer layer) { return layer == Layer::static_layer; });
    throw;
  }
  mark_destroyed([](Layer) { return true; });
}

}  // namespace trisect
