#pragma once
/// \file
/// The exact closest hit of a ray over every triangle of a soup: the oracle of the ray
/// queries, independent of the library's ray code (exact rational arithmetic, with a
/// conservative double-precision box filter of its own in front).

#include "support/exact_ray_oracle.hpp"

#include <trisect/mesh/triangle_soup.hpp>

#include <optional>
#include <vector>

namespace trisect::oracle {

/// The exact smallest t at which a ray hits a soup, and every triangle hit at that t.
struct ClosestHits {
  mpq_class t;                  ///< Exact parameter of the closest hit.
  std::vector<TriangleId> ids;  ///< Every triangle hit at exactly t, ascending.
};

/// False only when the ray, for t in [t_min, t_max], certainly misses the triangle's bounding
/// box grown by a millionth of the largest coordinate involved (double arithmetic, whose
/// rounding is far below that margin): a filter that never drops a hit.
[[nodiscard]] bool may_hit(const Ray& ray, const Triangle& triangle);

/// The exact closest hits of `ray` over all triangles of `soup`; nothing when it misses all.
[[nodiscard]] std::optional<ClosestHits> closest_hits(const TriangleSoup& soup, const Ray& ray);

}  // namespace trisect::oracle
