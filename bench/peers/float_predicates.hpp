#pragma once
/// \file
/// Plain single-precision predicates, the classic non-exact formulations that trisect's exact
/// predicates are measured against. Every comparison is made in rounded float arithmetic, so
/// near-touching cases may be answered wrongly; that is the point of the comparison. Closed-set
/// conventions match trisect's (touching counts) up to rounding.

#include <trisect/geometry/detail/approximate_closest_point.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>

namespace float_baseline {

using Vec3 = glm::vec3;

/// Sign (-1, 0, +1) of dot(normal, point) - d, rounded.
[[nodiscard]] inline int plane_side(const Vec3& normal, float d, const Vec3& point) noexcept {
  const float s = glm::dot(normal, point) - d;
  return (s > 0.0f) - (s < 0.0f);
}

/// Box–plane overlap in the centre/extents form of Akenine-Möller, Haines and Hoffman,
/// "Real-Time Rendering" (4th ed., §22.10): the box touches the plane iff the distance of its
/// centre from the plane, |n·c - d|, is at most the projected half-size |n|·e.
[[nodiscard]] inline bool aabb_plane(const Vec3& box_min, const Vec3& box_max, const Vec3& normal,
                                     float d) noexcept {
  const Vec3 center = 0.5f * (box_min + box_max);
  const Vec3 extents = 0.5f * (box_max - box_min);
  const float radius = glm::dot(glm::abs(normal), extents);
  return std::fabs(glm::dot(normal, center) - d) <= radius;
}

/// Triangle–plane overlap: the vertices are not all strictly on one side.
[[nodiscard]] inline bool triangle_plane(const Vec3& a, const Vec3& b, const Vec3& c,
                                         const Vec3& normal, float d) noexcept {
  const int sa = plane_side(normal, d, a), sb = plane_side(normal, d, b),
            sc = plane_side(normal, d, c);
  return !((sa > 0 && sb > 0 && sc > 0) || (sa < 0 && sb < 0 && sc < 0));
}

/// Triangle–box overlap by the separating-axis test of Tomas Akenine-Möller, "Fast 3D
/// Triangle-Box Overlap Testing", Journal of Graphics Tools 6(1):29–33, 2001. The triangle is
/// moved so that the box is centred at the origin; then, in the paper's order, the nine axes
/// (box axis × triangle edge), the three box face normals (the triangle's bounds against the box)
/// and the triangle's plane against the box (the p-vertex test) are tried. Written here from the
/// paper, in float throughout.
[[nodiscard]] inline bool triangle_box(const Vec3& box_min, const Vec3& box_max, const Vec3& a,
                                       const Vec3& b, const Vec3& c) noexcept {
  const Vec3 center = 0.5f * (box_min + box_max);
  const Vec3 half = 0.5f * (box_max - box_min);
  const Vec3 v[3] = {a - center, b - center, c - center};

  // Nine axes L = unit_k × edge. For edge p→q the projections of p and q coincide, so only the
  // projections of p and of the opposite vertex r are needed. The box projects to [-rad, rad]
  // with rad = Σ half_i |L_i|.
  for (int edge = 0; edge < 3; ++edge) {
    const Vec3& p = v[edge];
    const Vec3& r = v[(edge + 2) % 3];
    const Vec3 e = v[(edge + 1) % 3] - p;
    const Vec3 axes[3] = {{0.0f, -e.z, e.y}, {e.z, 0.0f, -e.x}, {-e.y, e.x, 0.0f}};
    for (const Vec3& axis : axes) {
      const float pp = glm::dot(axis, p), pr = glm::dot(axis, r);
      const float rad = glm::dot(half, glm::abs(axis));
      if (std::min(pp, pr) > rad || std::max(pp, pr) < -rad) return false;
    }
  }

  // Three box normals: the triangle's bounds against [-half, half].
  for (int axis = 0; axis < 3; ++axis) {
    const float lo = std::min(std::min(v[0][axis], v[1][axis]), v[2][axis]);
    const float hi = std::max(std::max(v[0][axis], v[1][axis]), v[2][axis]);
    if (lo > half[axis] || hi < -half[axis]) return false;
  }

  // Triangle plane n·x = n·v0 against the box: the corners extreme along n must straddle it.
  const Vec3 normal = glm::cross(v[1] - v[0], v[2] - v[1]);
  const float offset = glm::dot(normal, v[0]);
  Vec3 lowest, highest;
  for (int axis = 0; axis < 3; ++axis) {
    lowest[axis] = normal[axis] > 0.0f ? -half[axis] : half[axis];
    highest[axis] = -lowest[axis];
  }
  if (glm::dot(normal, lowest) > offset) return false;
  return glm::dot(normal, highest) >= offset;
}

/// The point of triangle abc closest to `point` in float (Ericson §5.1.5), as Embree's
/// closest_point tutorial computes it.
using trisect::detail::approximate_closest_on_triangle;

/// Sphere–triangle overlap: the squared distance from the centre to the closest point of the
/// triangle is at most radius² (Ericson §5.2.7).
[[nodiscard]] inline bool triangle_sphere(const Vec3& a, const Vec3& b, const Vec3& c,
                                          const Vec3& center, float radius) noexcept {
  const Vec3 offset = approximate_closest_on_triangle(center, a, b, c) - center;
  return glm::dot(offset, offset) <= radius * radius;
}

}  // namespace float_baseline
