#pragma once
/// \file
/// Convenience forms of the touching queries: by shape, collecting, any.

#include "trisect/bvh/box_query.hpp"
#include "trisect/bvh/detail/sort_ids.hpp"
#include "trisect/bvh/plane_query.hpp"
#include "trisect/bvh/sphere_query.hpp"
#include "trisect/bvh/traverse.hpp"

#include <span>
#include <utility>
#include <vector>

namespace trisect {

/// A shape with a query: `Aabb` (closed box), `Plane`, `Sphere` (closed ball).
template <class Shape>
concept QueryShape = requires(const Bvh& bvh, const Shape& shape) {
  { make_query(bvh, shape) } -> TriangleQuery;
};

/// `for_each_touching` for a shape: validates it (throws `InvalidInput` for NaN/Inf, an empty
/// box, a zero plane normal, a negative radius), then visits every touching triangle's input id
/// until `visit` returns false.
template <QueryShape Shape, TriangleVisitor Visit>
bool for_each_touching(const Bvh& bvh, const Shape& shape, Visit&& visit,
                       QueryStats* stats = nullptr) {
  return for_each_touching(bvh, make_query(bvh, shape), visit, stats);
}

namespace detail {

/// The visitor of `collect_touching`: keeps every id, a range reported whole in one copy.
struct IdCollector {
  std::vector<TriangleId> ids;

  bool operator()(TriangleId id) {
    ids.push_back(id);
    return true;
  }
  void append(std::span<const TriangleId> range) {
    ids.insert(ids.end(), range.begin(), range.end());
  }
};

}  // namespace detail

/// Input ids of every triangle touching `query` (a `TriangleQuery` or a `QueryShape`), sorted
/// ascending, each once.
template <class QueryOrShape>
requires TriangleQuery<QueryOrShape> || QueryShape<QueryOrShape>
[[nodiscard]] std::vector<TriangleId> collect_touching(const Bvh& bvh, const QueryOrShape& query,
                                                       QueryStats* stats = nullptr) {
  detail::IdCollector collector;
  collector.ids.reserve(64);  // one allocation for typical small answers instead of seven doublings
  for_each_touching(bvh, query, collector, stats);
  std::vector<TriangleId>& ids = collector.ids;
  detail::sort_ids(ids, bvh.size());
  return std::move(ids);
}

/// True when at least one triangle touches `query`; stops at the first.
template <class QueryOrShape>
requires TriangleQuery<QueryOrShape> || QueryShape<QueryOrShape>
[[nodiscard]] bool any_touching(const Bvh& bvh, const QueryOrShape& query,
                                QueryStats* stats = nullptr) {
  return !for_each_touching(
      bvh, query, [](TriangleId) { return false; }, stats);
}

}  // namespace trisect
