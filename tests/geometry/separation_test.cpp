// The cheap distance bounds of src/geometry/separation.hpp against the exact oracle: the lower
// bounds (box gap, plane gap, separation) never exceed the exact squared distance and the upper
// bound (nearest vertices) never falls below it, in every regime of the case generator, and on
// a needle triangle of mixed scale whose nearly cancelling normal once broke the plane bound.
#include "geometry/separation.hpp"
#include "support/describe.hpp"
#include "support/nearest_oracle.hpp"
#include "support/property.hpp"

#include <catch2/catch.hpp>

namespace trisect::testing {
namespace {

mpq_class exact_point_gap(const Triangle& t, const Vec3& p) {
  return oracle::squared_length(oracle::minus(oracle::nearest_point(t, p), oracle::rational(p)));
}

// The exact value of a double bound.
mpq_class exact(double bound) { return mpq_class(bound); }

TEST_CASE("the plane bound holds on a needle of mixed scale", "[geometry][separation]") {
  // Two edges nearly parallel across 1e6, z offsets near 1e-4: the normal cancels to 3e-6 from
  // products near 100 that round. The point is r = 20.9... from the vertex c along x, and c is
  // its nearest point: the exact squared distance is r² (the point touches a capsule or ball
  // of radius r there).
  const Triangle needle{{0x1p+0f, -0x1.cp+1f, -0x1.c1159p-13f},
                        {-0x1p+2f, -0x1.e847bep+19f, -0x1.0c6f9cp-20f},
                        {-0x1.8p+0f, -0x1.e8482ep+18f, -0x1.c32e7p-14f}};
  const Vec3 point{-0x1.66857ep+4f, -0x1.e8482ep+18f, -0x1.c32e7p-14f};
  const mpq_class squared = exact_point_gap(needle, point);
  CHECK(exact(detail::plane_gap_lower_bound(needle, &point, 1)) <= squared);
  const Triangle at_point{point, point, point};
  CHECK(exact(detail::separation_lower_bound(needle, at_point)) <= squared);
  CHECK(exact(detail::vertex_gap_upper_bound(needle, at_point)) >= squared);
}

TEST_CASE("distance bounds hold against the exact oracle in every regime",
          "[geometry][separation][property]") {
  CaseGenerator generate(0x5e9a'7a7eULL);
  const std::uint64_t cases = std::max<std::uint64_t>(property_case_count() / 100, 600);
  for (std::uint64_t k = 0; k < cases; ++k) {
    generate.begin(all_regimes[k % all_regimes.size()]);
    const Triangle s = generate.triangle(), t = generate.triangle();
    const Vec3 p = generate.chance(0.5) ? generate.sphere_near(t).center : generate.point();
    INFO(describe(s) << " " << describe(t) << " " << describe(p));
    const mpq_class point_gap = exact_point_gap(t, p);
    REQUIRE(exact(detail::plane_gap_lower_bound(t, &p, 1)) <= point_gap);
    const mpq_class between = oracle::squared_distance(s, t);
    REQUIRE(exact(detail::separation_lower_bound(s, t)) <= between);
    REQUIRE(exact(detail::box_gap_lower_bound(s.bounds(), t.bounds())) <= between);
    REQUIRE(exact(detail::vertex_gap_upper_bound(s, t)) >= between);
  }
}

}  // namespace
}  // namespace trisect::testing
