// Proxies of a `DynamicAabbTree` created and destroyed in batches. A batch's tree is built by
// the binned surface area heuristic of the whole rebuild and joined to the tree in one place
// (Jolt adds bodies the same way, `AddBodiesPrepare` then `AddBodiesFinalize`, because bodies
// inserted one at a time give an unbalanced tree; the join keeps the balance as an AVL join
// does: the shorter tree goes in at the taller's nodes of its own height).
#include "trisect/broadphase/dynamic_aabb_tree.hpp"

#include "batch_checks.hpp"
#include "reserve_more.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace trisect {

std::vector<ProxyId> DynamicAabbTree::create_proxies(std::span<const Aabb> boxes) {
  std::vector<NewProxy> proxies(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) proxies[i].box = boxes[i];
  return create_proxies(proxies);
}

void DynamicAabbTree::require_new_proxy(const NewProxy& proxy, std::size_t index) {
  try {
    require_box(proxy.box);
    if (proxy.margin) require_margin(*proxy.margin);
  } catch (const InvalidInput& error) {
    throw InvalidInput("proxy " + std::to_string(index) + " of the batch: " + error.what());
  }
}

std::vector<ProxyId> DynamicAabbTree::create_proxies(std::span<const NewProxy> proxies) {
  for (std::size_t i = 0; i < proxies.size(); ++i) require_new_proxy(proxies[i], i);
  const std::size_t count = proxies.size();
  if (count == 0) return {};
  // Everything that allocates comes first: the leaves and their parents (2·count - 1 nodes, and
  // one to join them), the ids, the build's leaves and the rebuild's list of creations.
  if (nodes_.size() + 2 * count > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw std::length_error("DynamicAabbTree: more than 2^31 - 1 nodes");
  detail::reserve_more(nodes_, 2 * count);
  detail::reserve_more(links_, 2 * count);
  std::vector<ProxyId> ids(count);
  BuildLeaves build;
  build.leaves.resize(count);
  build.make_room();
  std::vector<BuildLeaf>& leaves = build.leaves;
  if (gradual_.is_active()) detail::reserve_more(gradual_.created, count);
  Aabb centers = Aabb::empty();
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t leaf = allocate_node();  // room made above
    Links& links = links_[static_cast<std::size_t>(leaf)];
    links.margin = proxies[i].margin.value_or(options_.default_margin());
    links.box = fat(proxies[i].box, growth_of(leaf, proxies[i].box), Vec3(0.0f));
    links.user_data = proxies[i].user_data;
    leaves[i] = {links.box, links.box.center(), leaf};
    centers.extend(leaves[i].center);
    ids[i] = static_cast<ProxyId>(leaf);
    if (gradual_.is_active()) {
      links.pending = pending_created;  // inserted again when the new tree is in place
      gradual_.created.push_back(leaf);
    }
  }
  const std::int32_t subtree = build_subtree(build, 0, count, centers);
  set_parent(subtree, null_node);
  if (root_ != null_node) joined_ += count;
  insert_subtree(subtree);
  proxy_count_ += count;
  changes_ += count;
  return ids;
}

void DynamicAabbTree::destroy_proxies(std::span<const ProxyId> ids) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (!is_proxy(ids[i]))
      throw InvalidInput("destroy_proxies: proxy id " + std::to_string(ids[i]) + " (index " +
                         std::to_string(i) + " of the batch) is not a live proxy of this tree");
  const std::size_t repeat = detail::first_repeat(ids);
  if (repeat < ids.size())
    throw InvalidInput("destroy_proxies: proxy id " + std::to_string(ids[repeat]) + " (index " +
                       std::to_string(repeat) + " of the batch) repeats an earlier one");
  const auto placed = std::count_if(ids.begin(), ids.end(), [&](ProxyId id) {
    return gradual_.is_active() && (links_[id].pending & pending_leaf) != 0;
  });
  detail::reserve_more(gradual_.ghosts, static_cast<std::size_t>(placed));
  for (const ProxyId id : ids) remove_proxy(static_cast<std::int32_t>(id));
}

}  // namespace trisect
