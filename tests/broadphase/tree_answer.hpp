#pragma once
// The answer of a DynamicAabbTree query as a sorted list, for comparison with an oracle's.
#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <algorithm>
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

}  // namespace trisect::testing
