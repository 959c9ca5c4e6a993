#pragma once
// The answer of a DynamicAabbTree query as a sorted list, for comparison with an oracle's.
#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace trisect::testing {

/// The proxies that `tree.query(query, ...)` visits (a box or a ray), ascending.
template <class Query>
std::vector<ProxyId> tree_answer(const DynamicAabbTree& tree, const Query& query) {
  std::vector<ProxyId> ids;
  (void)tree.query(query, [&](ProxyId id) {
    ids.push_back(id);
    return true;
  });
  std::sort(ids.begin(), ids.end());
  return ids;
}

/// The brute-force answer to `tree_answer(tree, query)` for a box: the proxies of `live` (each
/// live proxy's id, with any value) whose fat box in `tree` meets `query`, ascending.
template <class Value>
std::vector<ProxyId> fat_answer(const DynamicAabbTree& tree, const std::map<ProxyId, Value>& live,
                                const Aabb& query) {
  std::vector<ProxyId> ids;
  for (const auto& entry : live)
    if (tree.fat_box(entry.first).overlaps(query)) ids.push_back(entry.first);
  return ids;
}

}  // namespace trisect::testing
