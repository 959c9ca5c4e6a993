#include "support/ray_check.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace trisect::testing {
namespace {

/// |value - exact| <= tolerance·|exact| (so exactly 0 when exact is 0).
bool close_to(double value, const mpq_class& exact, double tolerance) {
  const mpq_class difference = abs(mpq_class(value) - exact);
  return cmp(difference, tolerance * abs(exact)) <= 0;
}

std::string describe(const std::optional<oracle::ClosestHits>& exact,
                     const std::optional<Hit>& got) {
  std::string text = "exact: ";
  text += exact ? "hit at t " + std::to_string(exact->t.get_d()) + " on " +
                      std::to_string(exact->ids.front())
                : std::string("miss");
  text += "; trisect: ";
  text += got ? "hit at t " + std::to_string(got->t) + " on " + std::to_string(got->id)
              : std::string("miss");
  return text;
}

}  // namespace

void check_closest_hit(const TriangleSoup& soup, const Ray& ray, const std::optional<Hit>& got) {
  check_closest_hit(soup, ray, oracle::closest_hits(soup, ray), got);
}

void check_closest_hit(const TriangleSoup& soup, const Ray& ray,
                       const std::optional<oracle::ClosestHits>& exact,
                       const std::optional<Hit>& got) {
  INFO(describe(exact, got));
  REQUIRE(got.has_value() == exact.has_value());
  if (!got) return;
  REQUIRE(std::count(exact->ids.begin(), exact->ids.end(), got->id) == 1);
  CHECK(close_to(got->t, exact->t, t_tolerance));
  const auto crossing = oracle::hit(ray, soup.triangle(got->id));
  REQUIRE(crossing.has_value());
  INFO("u " << got->u << " exact " << crossing->u.get_d() << ", v " << got->v << " exact "
            << crossing->v.get_d());
  CHECK(std::fabs(double(got->u) - crossing->u.get_d()) <= 1e-6);
  CHECK(std::fabs(double(got->v) - crossing->v.get_d()) <= 1e-6);
}

void check_any_hit(const TriangleSoup& soup, const Ray& ray, bool got) {
  const bool exact = oracle::closest_hits(soup, ray).has_value();
  INFO("exact " << exact << ", trisect " << got);
  REQUIRE(got == exact);
}

}  // namespace trisect::testing
