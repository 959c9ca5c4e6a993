#pragma once
/// \file
/// The point of a triangle nearest a point, approximately, in the precision of the vector type:
/// Ericson's Voronoi-region walk ("Real-Time Collision Detection", 2005, §5.1.5). Without any
/// guarantee: the library takes only a direction from it (in double, `src/geometry/
/// approximate_closest.hpp`), and the float baselines of the tests and benchmarks (the Embree
/// peer's point-query callback, as in Embree's closest_point tutorial) take it in float. Not
/// part of the API (no stability promised).

#include <glm/geometric.hpp>

namespace trisect::detail {

/// The point of triangle abc nearest x, approximately (Ericson §5.1.5), in the precision of
/// `V` (glm::vec3 or glm::dvec3). Degenerate
/// triangles may divide by zero.
template <class V>
[[nodiscard]] V approximate_closest_on_triangle(const V& x, const V& a, const V& b,
                                                const V& c) noexcept {
  using Scalar = typename V::value_type;
  const V ab = b - a, ac = c - a, ax = x - a;
  const Scalar d1 = glm::dot(ab, ax), d2 = glm::dot(ac, ax);
  if (d1 <= 0 && d2 <= 0) return a;
  const V bx = x - b;
  const Scalar d3 = glm::dot(ab, bx), d4 = glm::dot(ac, bx);
  if (d3 >= 0 && d4 <= d3) return b;
  const V cx = x - c;
  const Scalar d5 = glm::dot(ab, cx), d6 = glm::dot(ac, cx);
  if (d6 >= 0 && d5 <= d6) return c;
  const Scalar vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Scalar vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const Scalar va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const Scalar scale = 1 / (va + vb + vc);
  return a + (vb * scale) * ab + (vc * scale) * ac;
}

}  // namespace trisect::detail
