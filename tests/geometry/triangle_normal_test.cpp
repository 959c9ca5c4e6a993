#include "support/describe.hpp"
#include "support/exact_oracle.hpp"
#include "support/property.hpp"

#include <trisect/geometry/triangle_normal.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using trisect::is_degenerate;
using trisect::Triangle;
using trisect::Vec3;

namespace {

bool oracle_degenerate(const Triangle& t) {
  using trisect::oracle::rational;
  const auto normal = trisect::oracle::cross(trisect::oracle::minus(rational(t.b), rational(t.a)),
                                             trisect::oracle::minus(rational(t.c), rational(t.a)));
  return sgn(normal[0]) == 0 && sgn(normal[1]) == 0 && sgn(normal[2]) == 0;
}

}  // namespace

TEST_CASE("is_degenerate: zero area exactly", "[geometry][triangle_normal]") {
  const Vec3 a(1, 2, 3), b(4, -1, 0), c(0, 0, 7);
  CHECK_FALSE(is_degenerate(Triangle{a, b, c}));
  CHECK(is_degenerate(Triangle{a, a, c}));
  CHECK(is_degenerate(Triangle{a, b, b}));
  CHECK(is_degenerate(Triangle{c, b, c}));
  CHECK(is_degenerate(Triangle{a, a, a}));
  CHECK(is_degenerate(Triangle{{0, 0, 0}, {1, 2, 3}, {-2, -4, -6}}));
  CHECK(is_degenerate(Triangle{{0, 0, 0}, {0, 0, 5}, {0, 0, -1}}));  // along one axis
  // One ulp off the line.
  CHECK_FALSE(is_degenerate(Triangle{{0, 0, 0}, {1, 2, 3}, {-2, -4, std::nextafter(-6.0f, 0.0f)}}));
  // Near 1e6: collinear with steps of 1/16, then one step off.
  const Vec3 p(1e6f, -1e6f, 1e6f), step(0.0625f, 0.125f, -0.1875f);
  CHECK(is_degenerate(Triangle{p, p + step, p + 3.0f * step}));
  CHECK_FALSE(is_degenerate(Triangle{p, p + step, p + 3.0f * step + Vec3(0.0625f, 0, 0)}));
  // Needle: a 2^-20-wide sliver 8 units long still has area.
  CHECK_FALSE(is_degenerate(Triangle{{0, 0, 0}, {8, 0, 0}, {4, 0x1p-20f, 0}}));
}

TEST_CASE("is_degenerate agrees with exact rationals on random inputs",
          "[geometry][triangle_normal][property]") {
  using namespace trisect::testing;
  const auto result = compare_with_oracle(
      0xde9e'4e7aULL, [](CaseGenerator& g) { return g.triangle(); },
      [](const Triangle& t) { return is_degenerate(t); }, oracle_degenerate,
      [](const Triangle& t) { return describe(t); });
  require_agreement("is_degenerate", result);
  // The constructed regimes produce degenerate triangles often enough to count.
  if (result.cases[0] >= 1'000) CHECK(result.fraction(Regime::lattice, 1) > 0.05);
}
