#pragma once
/// \file
/// Checks a ray answer of the library against the exact oracle (support/ray_brute_force.hpp),
/// as the contract (docs/contracts.md) states it: hit or miss exactly as real arithmetic decides, a
/// triangle with the smallest exact t, and t the exact parameter to within a relative 1e-6.

#include "support/ray_brute_force.hpp"

#include <trisect/bvh/ray_query.hpp>

#include <optional>

namespace trisect::testing {

/// Relative error the contract allows in a reported t (0 when the exact t is 0).
inline constexpr double t_tolerance = 1e-6;

/// Checks `got`, the library's closest hit of `ray` over `soup`, against the exact oracle with
/// Catch assertions: a miss exactly when the oracle misses; otherwise one of the exact closest
/// triangles, t within `t_tolerance` of the exact t, and the weights u and v within 1e-6 of
/// the exact ones.
void check_closest_hit(const TriangleSoup& soup, const Ray& ray, const std::optional<Hit>& got);

/// The same with the oracle's answer `exact` for `ray` already computed.
void check_closest_hit(const TriangleSoup& soup, const Ray& ray,
                       const std::optional<oracle::ClosestHits>& exact,
                       const std::optional<Hit>& got);

/// The same for any_hit: `got` is true exactly when the oracle finds a hit.
void check_any_hit(const TriangleSoup& soup, const Ray& ray, bool got);

}  // namespace trisect::testing
