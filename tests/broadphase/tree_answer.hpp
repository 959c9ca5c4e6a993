#pragma once
// The answer of a DynamicAabbTree query as a sorted list, for comparison with an oracle's.
#include "broadphase/random_boxes.hpp"

#include <trisect/broadphase/dynamic_aabb_tree.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
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

/// Checks `tree`'s invariants, then its answers to `queries` random box queries (centres in a
/// cube of side `side`) against `fat_answer`.
template <class Value>
void require_exact_answers(const DynamicAabbTree& tree, const std::map<ProxyId, Value>& live,
                           std::mt19937_64& random, float side, int queries) {
  REQUIRE_NOTHROW(tree.validate());
  for (int q = 0; q < queries; ++q) {
    const Aabb query = random_box(random, side);
    REQUIRE(tree_answer(tree, query) == fat_answer(tree, live, query));
  }
}

}  // namespace trisect::testing
