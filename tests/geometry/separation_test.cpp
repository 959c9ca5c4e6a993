// The cheap distance bounds of src/geometry/separation.hpp against the exact oracle: the lower
// bounds (box gap, plane gap, the gap along any direction) never exceed the exact
// squared distance and the upper bound (nearest vertices) never falls below it, in every regime
// of the case generator, and on a needle triangle of mixed scale whose nearly cancelling normal
// once broke the plane bound.
#include "geometry/separation.hpp"
#include "geometry/approximate_closest.hpp"
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
  CHECK(exact(detail::direction_gap_lower_bound(
            needle, at_point, detail::approximate_nearest_direction(needle, at_point))) <= squared);
  CHECK(exact(detail::vertex_gap_upper_bound(needle, at_point)) >= squared);
}

TEST_CASE("distance bounds hold against the exact oracle in every regime",
          "[geometry][separation][property]") {
  CaseGenerator generate(0x5e9a'7a7eULL);
  const std::uint64_t cases = std::max<std::uint64_t>(property_case_count() / 100, 600);
  std::uint64_t apart = 0, tight = 0;
  for (std::uint64_t k = 0; k < cases; ++k) {
    generate.begin(all_regimes[k % all_regimes.size()]);
    const Triangle s = generate.triangle(), t = generate.triangle();
    const Vec3 p = generate.chance(0.5) ? generate.sphere_near(t).center : generate.point();
    INFO(describe(s) << " " << describe(t) << " " << describe(p));
    const mpq_class point_gap = exact_point_gap(t, p);
    REQUIRE(exact(detail::plane_gap_lower_bound(t, &p, 1)) <= point_gap);
    const mpq_class between = oracle::squared_distance(s, t);
    REQUIRE(exact(detail::box_gap_lower_bound(s.bounds(), t.bounds())) <= between);
    REQUIRE(exact(detail::vertex_gap_upper_bound(s, t)) >= between);
    // Any direction: the approximate nearest one, the nearest vertices', a random one, and
    // directions that overflow or underflow every product.
    const glm::dvec3 directions[] = {detail::approximate_nearest_direction(s, t),
                                     detail::nearest_vertices_direction(s, t),
                                     glm::dvec3(generate.point()),
                                     glm::dvec3(1e300, -1e300, 1e300),
                                     glm::dvec3(0x1p-1074, 0x1p-1060, -0x1p-1074),
                                     glm::dvec3(0.0)};
    for (const glm::dvec3& d : directions)
      REQUIRE(exact(detail::direction_gap_lower_bound(s, t, d)) <= between);
    // The largest double at most the exact distance is never shown exceeded.
    REQUIRE_FALSE(detail::directions_show_farther(s, t, between.get_d()));
    if (sgn(between) > 0) {
      ++apart;
      // Apart, the approximate nearest direction gives nearly the distance (the reason the
      // queries use it): within a relative 1e-6 in all but rare cases.
      const double lower = detail::direction_gap_lower_bound(s, t, directions[0]);
      if (exact(lower) >= between * mpq_class(999999, 1000000)) ++tight;
    }
  }
  CHECK(tight >= apart * 9 / 10);
}

TEST_CASE("the bound along a direction is the distance when the direction is exact",
          "[geometry][separation]") {
  // Parallel faces 3 apart along z, edges crossing 2 apart along (1, 1, 0), a vertex 0.5 from a
  // face: the direction between the closest points gives the squared distance within its
  // relative margin; the approximate direction finds it.
  const Triangle floor{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  const Triangle roof{{0, 0, 3}, {4, 0, 3}, {0, 4, 3}};
  CHECK(detail::direction_gap_lower_bound(floor, roof, {0, 0, 1}) == Approx(9.0).epsilon(1e-12));
  CHECK(detail::direction_gap_lower_bound(floor, roof, {0, 0, 1}) <= 9.0);
  CHECK(detail::direction_gap_lower_bound(floor, roof,
                                          detail::approximate_nearest_direction(floor, roof)) ==
        Approx(9.0).epsilon(1e-12));
  const Triangle point_above{{1, 1, 0.5f}, {1, 1, 0.5f}, {1, 1, 0.5f}};
  CHECK(detail::direction_gap_lower_bound(
            floor, point_above, detail::approximate_nearest_direction(floor, point_above)) ==
        Approx(0.25).epsilon(1e-12));
  CHECK(detail::directions_show_farther(floor, roof, 8.99));
  CHECK_FALSE(detail::directions_show_farther(floor, roof, 9.0));
  // Touching (a shared vertex) and crossing: no gap along any direction.
  const Triangle touching{{4, 0, 0}, {5, 1, 1}, {5, -1, 1}};
  CHECK(detail::direction_gap_lower_bound(
            floor, touching, detail::approximate_nearest_direction(floor, touching)) == 0.0);
  CHECK_FALSE(detail::directions_show_farther(floor, touching, 0.0));
}

}  // namespace
}  // namespace trisect::testing
