#include "support/ray_check.hpp"

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect::test {
namespace {

using oracle::RayCrossing;

/// |value - exact| <= tolerance * |exact|, or <= tolerance when exact is 0.
bool close_to(double value, const mpq_class& exact, double tolerance) {
  const double expected = exact.get_d();
  return std::fabs(value - expected) <= tolerance * std::max(std::fabs(expected), 1e-300) ||
         (expected == 0 && std::fabs(value) <= tolerance);
}

/// t lies within the relative t tolerance (times `factor`) of t_min or t_max.
bool near_a_bound(const Ray& ray, const mpq_class& t, double factor) {
  return (std::isfinite(ray.t_min) && close_to(double(ray.t_min), t, t_tolerance * factor)) ||
         (std::isfinite(ray.t_max) && close_to(double(ray.t_max), t, t_tolerance * factor));
}

/// 1 / |cos| of the angle between the ray and the triangle's normal (in double): the factor by
/// which rounding in the float test grows in t and in the weights for glancing rays.
double glancing_factor(const Ray& ray, const Triangle& triangle) {
  const glm::dvec3 normal =
      glm::cross(glm::dvec3(triangle.b - triangle.a), glm::dvec3(triangle.c - triangle.a));
  const glm::dvec3 direction(ray.direction);
  return glm::length(normal) * glm::length(direction) / std::fabs(glm::dot(normal, direction));
}

/// The distance from the crossing point to the nearest edge line of the triangle, signed
/// (negative outside): a weight w_k times the height over the opposite edge, in double.
double edge_distance(const Triangle& triangle, const RayCrossing& crossing) {
  const Vec3 vertices[3] = {triangle.a, triangle.b, triangle.c};
  const double weights[3] = {mpq_class(1 - crossing.u - crossing.v).get_d(), crossing.u.get_d(),
                             crossing.v.get_d()};
  const double twice_area = glm::length(
      glm::cross(glm::dvec3(triangle.b - triangle.a), glm::dvec3(triangle.c - triangle.a)));
  double nearest = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const double edge =
        glm::length(glm::dvec3(vertices[(k + 2) % 3]) - glm::dvec3(vertices[(k + 1) % 3]));
    nearest = std::min(nearest, weights[k] * twice_area / edge);
  }
  return nearest;
}

/// The largest coordinate of the ray's origin and the triangle's vertices.
double coordinate_scale(const Ray& ray, const Triangle& triangle) {
  double scale = 0;
  for (const Vec3& p : {ray.origin, triangle.a, triangle.b, triangle.c})
    scale =
        std::max({scale, double(std::fabs(p.x)), double(std::fabs(p.y)), double(std::fabs(p.z))});
  return scale;
}

/// The distance within which rounding may move a float hit across an edge: the grazing
/// tolerance times the coordinate scale, grown for glancing rays.
double grazing_distance(const Ray& ray, const Triangle& triangle) {
  return grazing_tolerance * coordinate_scale(ray, triangle) * glancing_factor(ray, triangle);
}

/// The library's hit against the exact crossing of its triangle's plane: t within the t
/// tolerance of |t| plus the ray's time to cross the coordinate scale, and the point its
/// weights u and v give within the grazing distance of the exact point.
void check_hit_values(const Ray& ray, const Triangle& triangle, const Hit& got,
                      const RayCrossing& crossing) {
  const double factor = glancing_factor(ray, triangle);
  const double t = crossing.t.get_d();
  const glm::dvec3 direction(ray.direction);
  INFO("t " << got.t << " exact " << t << ", u " << got.u << " exact " << crossing.u.get_d()
            << ", v " << got.v << " exact " << crossing.v.get_d() << ", glancing factor "
            << factor);
  const double crossing_time = coordinate_scale(ray, triangle) / glm::length(direction);
  CHECK(std::fabs(double(got.t) - t) <= t_tolerance * factor * (std::fabs(t) + crossing_time));
  const glm::dvec3 a(triangle.a), b(triangle.b), c(triangle.c);
  const glm::dvec3 by_weights = a + double(got.u) * (b - a) + double(got.v) * (c - a);
  const glm::dvec3 exact_point = glm::dvec3(ray.origin) + t * direction;
  CHECK(glm::length(by_weights - exact_point) <= grazing_distance(ray, triangle));
}

/// An exact hit that rounding may miss: within the grazing distance of an edge, or within the
/// t tolerance of t_min or t_max.
bool is_grazing_hit(const Ray& ray, const Triangle& triangle, const RayCrossing& crossing) {
  return edge_distance(triangle, crossing) <= grazing_distance(ray, triangle) ||
         near_a_bound(ray, crossing.t, glancing_factor(ray, triangle));
}

/// An exact miss that rounding may hit: the line crossing lies within the grazing distance
/// outside the triangle and within the t tolerance of [t_min, t_max].
bool is_grazing_miss(const Ray& ray, const Triangle& triangle,
                     const std::optional<RayCrossing>& crossing) {
  if (!crossing || edge_distance(triangle, *crossing) < -grazing_distance(ray, triangle))
    return false;
  return oracle::within_bounds(ray, crossing->t) ||
         near_a_bound(ray, crossing->t, glancing_factor(ray, triangle));
}

}  // namespace

RayAgreement check_closest_hit(const TriangleSoup& soup, const Ray& ray,
                               const std::optional<Hit>& got) {
  const auto exact = oracle::closest_hits(soup, ray);
  INFO("exact: " << (exact ? "hit at t " + std::to_string(exact->t.get_d()) + " on " +
                                 std::to_string(exact->ids.front())
                           : std::string("miss"))
                 << "; trisect: "
                 << (got ? "hit at t " + std::to_string(got->t) + " on " + std::to_string(got->id)
                         : std::string("miss")));
  std::optional<RayCrossing> crossing;
  if (got) {
    crossing = oracle::line_crossing(ray, soup.triangle(got->id));
    REQUIRE(crossing.has_value());  // never a zero-area or parallel triangle
    check_hit_values(ray, soup.triangle(got->id), *got, *crossing);
  }
  if (!got && !exact) return RayAgreement::exact;
  if (got && exact && std::count(exact->ids.begin(), exact->ids.end(), got->id) > 0)
    return RayAgreement::exact;
  // A disagreement. A float hit the oracle lacks must be grazing; it may then lie before the
  // exact closest hit. Otherwise the exact closest triangles were missed (or lost to a farther
  // one): each must be grazing, or tie with the float hit within the t tolerance.
  if (got && !(crossing->is_inside() && oracle::within_bounds(ray, crossing->t))) {
    REQUIRE(is_grazing_miss(ray, soup.triangle(got->id), crossing));
    if (!exact || double(got->t) <= exact->t.get_d()) return RayAgreement::grazing;
  }
  for (const TriangleId id : exact->ids) {
    const auto closest = oracle::hit(ray, soup.triangle(id));
    const bool tie = got && close_to(double(got->t), closest->t, t_tolerance);
    INFO("exact closest triangle " << id << " margin " << closest->margin().get_d());
    REQUIRE((tie || is_grazing_hit(ray, soup.triangle(id), *closest)));
  }
  return RayAgreement::grazing;
}

RayAgreement check_any_hit(const TriangleSoup& soup, const Ray& ray, bool got) {
  bool all_grazing = true, exact_hit = false, grazing_miss = false;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle triangle = soup.triangle(id);
    if (!oracle::may_hit(ray, triangle)) continue;
    const auto crossing = oracle::line_crossing(ray, triangle);
    if (!crossing) continue;
    if (crossing->is_inside() && oracle::within_bounds(ray, crossing->t)) {
      exact_hit = true;
      all_grazing = all_grazing && is_grazing_hit(ray, triangle, *crossing);
    } else {
      grazing_miss = grazing_miss || is_grazing_miss(ray, triangle, crossing);
    }
  }
  INFO("exact " << exact_hit << ", trisect " << got);
  if (got == exact_hit) return RayAgreement::exact;
  REQUIRE((got ? grazing_miss : all_grazing));
  return RayAgreement::grazing;
}

}  // namespace trisect::test
