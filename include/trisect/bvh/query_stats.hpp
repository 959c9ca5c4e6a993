#pragma once
/// \file
/// What a query did: the counters every BVH query can report.

#include <cstdint>

namespace trisect {

/// What a query did, for tests and benchmarks. Counters add up over calls that share it.
struct QueryStats {
  std::uint64_t nodes_visited = 0;     ///< Nodes entered (see each query for which).
  std::uint64_t triangles_tested = 0;  ///< Exact leaf tests run.
  std::uint64_t triangles_inside = 0;  ///< Triangles reported untested (node inside the query).
  std::uint64_t exact_fallbacks = 0;   ///< Exact-arithmetic fallbacks taken by this query.
};

}  // namespace trisect
