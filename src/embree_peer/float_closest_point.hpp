#pragma once
// The float closest point on a triangle that Embree's closest_point tutorial computes in its
// point-query callback: the float baselines of the tests and benchmarks (the Embree peer's
// callback, the float sphere test of bench/peers/float_predicates.hpp) call this one.
#include <trisect/math/vec.hpp>

#include <glm/geometric.hpp>

namespace trisect::embree {

/// The point of triangle abc nearest `p`, in float: Ericson's Voronoi-region walk ("Real-Time
/// Collision Detection", 2005, §5.1.5; vertex regions, then edge regions, then the face), as in
/// Embree's closest_point tutorial. Degenerate triangles may divide by zero.
[[nodiscard]] inline Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                                    const Vec3& c) noexcept {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;

  const Vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;

  const Vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;

  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;

  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;

  const float va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);

  const float denominator = 1 / (va + vb + vc);
  return a + (vb * denominator) * ab + (vc * denominator) * ac;
}

}  // namespace trisect::embree
