#pragma once
// Approximately the closest points of two triangles, in double without any guarantee: the
// direction between them is all that is taken (`direction_gap_lower_bound` in separation.hpp
// proves its bound whatever the direction, and is tight when the direction is close to the
// true one). The candidates are Ericson's ("Real-Time Collision Detection", 2005): each vertex
// against the other triangle (the Voronoi-region walk of §5.1.5) and each pair of edges
// (§5.1.9); degenerate triangles may make a candidate NaN, which is then passed over. Internal
// to the library (the nearest queries, clearance).
#include "trisect/geometry/detail/approximate_closest_point.hpp"
#include "trisect/math/triangle.hpp"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <limits>

namespace trisect::detail {

/// The point of segment [p, q] nearest x, approximately (p when the segment has no length).
[[nodiscard]] inline glm::dvec3 approximate_closest_on_segment(const glm::dvec3& x,
                                                               const glm::dvec3& p,
                                                               const glm::dvec3& q) noexcept {
  const glm::dvec3 d = q - p;
  const double length2 = glm::dot(d, d);
  if (!(length2 > 0)) return p;
  return p + std::clamp(glm::dot(x - p, d) / length2, 0.0, 1.0) * d;
}

/// The closest points of segments [p0, p1] and [q0, q1], approximately (Ericson §5.1.9), as
/// `from` on the first and `to` on the second.
inline void approximate_closest_of_segments(const glm::dvec3& p0, const glm::dvec3& p1,
                                            const glm::dvec3& q0, const glm::dvec3& q1,
                                            glm::dvec3& from, glm::dvec3& to) noexcept {
  const glm::dvec3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
  const double a = glm::dot(u, u), e = glm::dot(v, v), f = glm::dot(v, w);
  double s = 0, t = 0;
  if (!(a > 0)) {
    t = e > 0 ? std::clamp(f / e, 0.0, 1.0) : 0.0;
  } else {
    const double c = glm::dot(u, w);
    if (!(e > 0)) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = glm::dot(u, v), denominator = a * e - b * b;
      s = denominator > 0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  from = p0 + s * u;
  to = q0 + t * v;
}

/// q - p for the nearest vertex p of `s` and vertex q of `t` (the first pair on ties): the
/// cheapest direction from s to t that is often nearly the best.
[[nodiscard]] inline glm::dvec3 nearest_vertices_direction(const Triangle& s,
                                                           const Triangle& t) noexcept {
  glm::dvec3 best(0.0);
  double best_length2 = std::numeric_limits<double>::infinity();
  for (const Vec3& p : {s.a, s.b, s.c}) {
    for (const Vec3& q : {t.a, t.b, t.c}) {
      const glm::dvec3 d = glm::dvec3(q) - glm::dvec3(p);
      const double length2 = glm::dot(d, d);
      if (length2 < best_length2) {
        best_length2 = length2;
        best = d;
      }
    }
  }
  return best;
}

/// q - p for approximately the closest points p of `s` and q of `t`: a direction from s to t
/// (zero, or not finite, when they touch or a candidate overflowed).
[[nodiscard]] inline glm::dvec3 approximate_nearest_direction(const Triangle& s,
                                                              const Triangle& t) noexcept {
  const glm::dvec3 sv[3] = {glm::dvec3(s.a), glm::dvec3(s.b), glm::dvec3(s.c)};
  const glm::dvec3 tv[3] = {glm::dvec3(t.a), glm::dvec3(t.b), glm::dvec3(t.c)};
  glm::dvec3 best(0.0);
  double best_length2 = std::numeric_limits<double>::infinity();
  const auto offer = [&](const glm::dvec3& from, const glm::dvec3& to) {
    const glm::dvec3 d = to - from;
    const double length2 = glm::dot(d, d);
    if (length2 < best_length2) {
      best_length2 = length2;
      best = d;
    }
  };
  for (int k = 0; k < 3; ++k) {
    offer(sv[k], approximate_closest_on_triangle(sv[k], tv[0], tv[1], tv[2]));
    offer(approximate_closest_on_triangle(tv[k], sv[0], sv[1], sv[2]), tv[k]);
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      glm::dvec3 from, to;
      approximate_closest_of_segments(sv[i], sv[(i + 1) % 3], tv[j], tv[(j + 1) % 3], from, to);
      offer(from, to);
    }
  }
  return best;
}

}  // namespace trisect::detail
