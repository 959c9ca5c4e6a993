#include "support/exact_ray_oracle.hpp"

#include <algorithm>
#include <cmath>

namespace trisect::oracle {

bool RayCrossing::is_inside() const { return sgn(margin()) >= 0; }

mpq_class RayCrossing::margin() const {
  const mpq_class w = 1 - u - v;
  return std::min({u, v, w});
}

std::optional<RayCrossing> line_crossing(const Ray& ray, const Triangle& triangle) {
  const QVec3 a = rational(triangle.a), origin = rational(ray.origin);
  const QVec3 direction = rational(ray.direction);
  const QVec3 ab = minus(rational(triangle.b), a), ac = minus(rational(triangle.c), a);
  const QVec3 normal = cross(ab, ac);
  const mpq_class normal_squared = dot(normal, normal);
  const mpq_class approach = dot(normal, direction);
  if (sgn(normal_squared) == 0 || sgn(approach) == 0) return std::nullopt;
  const mpq_class t = dot(normal, minus(a, origin)) / approach;
  QVec3 from_a;  // point - a, where point = origin + t·direction
  for (std::size_t i = 0; i < 3; ++i) from_a[i] = origin[i] + t * direction[i] - a[i];
  // point - a = u·ab + v·ac; crossing with ac and ab isolates u and v along the normal.
  const mpq_class u = dot(cross(from_a, ac), normal) / normal_squared;
  const mpq_class v = dot(cross(ab, from_a), normal) / normal_squared;
  return RayCrossing{t, u, v};
}

bool within_bounds(const Ray& ray, const mpq_class& t) {
  const bool above_min = std::isinf(ray.t_min) ? ray.t_min < 0 : cmp(t, rational(ray.t_min)) >= 0;
  const bool below_max = std::isinf(ray.t_max) ? ray.t_max > 0 : cmp(t, rational(ray.t_max)) <= 0;
  return above_min && below_max;
}

std::optional<RayCrossing> hit(const Ray& ray, const Triangle& triangle) {
  auto crossing = line_crossing(ray, triangle);
  if (!crossing || !crossing->is_inside() || !within_bounds(ray, crossing->t)) return std::nullopt;
  return crossing;
}

}  // namespace trisect::oracle
