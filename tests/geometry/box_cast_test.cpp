// The exact first contact of a translated oriented box with a triangle, against the rational
// oracle (support/cast_oracle.hpp): face, edge and corner contact at exact times, contact at
// the start and at t = 1, misses, motions along a face, nearest-float rounding; a property test
// in every numeric regime that also checks, by clipping, that the oracle's time is a contact
// and that a moment before it is not.
#include "support/cast_oracle.hpp"
#include "support/describe.hpp"
#include "support/random_cases.hpp"

#include <trisect/geometry/box_cast.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>

using trisect::OrientedBox;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::CaseGenerator;

namespace {

float up(float x) { return std::nextafter(x, std::numeric_limits<float>::max()); }

// The library's time, checked to equal the oracle's (rounded to the nearest float).
std::optional<float> contact_checked(const Triangle& t, const OrientedBox& box, const Vec3& v) {
  INFO(trisect::testing::describe(t)
       << " " << trisect::testing::describe(box) << " motion " << trisect::testing::describe(v));
  const std::optional<float> answer = trisect::first_contact(t, box, v);
  const std::optional<mpq_class> exact = trisect::oracle::first_contact(t, box, v);
  REQUIRE(answer.has_value() == exact.has_value());
  if (exact) CHECK(*answer == trisect::oracle::nearest_float(*exact));
  return answer;
}

const OrientedBox unit{{0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0.5f, 0.5f, 0.5f}};
// A wall x = 2.5 (a big triangle in that plane).
const Triangle wall{{2.5f, -10, -10}, {2.5f, 10, -10}, {2.5f, 0, 10}};

}  // namespace

TEST_CASE("box cast: contact times against the exact oracle", "[geometry][box_cast]") {
  SECTION("face to face: the face x = 0.5 reaches x = 2.5 at t = 0.5") {
    CHECK(contact_checked(wall, unit, {4, 0, 0}) == 0.5f);
    CHECK(contact_checked(wall, unit, {2, 0, 0}) == 1.0f);  // exactly at the end
    CHECK_FALSE(contact_checked(wall, unit, {std::nextafter(2.0f, 0.0f), 0, 0}));
    CHECK_FALSE(contact_checked(wall, unit, {-4, 0, 0}));  // moving away
    const Triangle beyond{{up(2.5f), -10, -10}, {up(2.5f), 10, -10}, {up(2.5f), 0, 10}};
    CHECK(*contact_checked(beyond, unit, {4, 0, 0}) > 0.5f);
  }
  SECTION("touching at the start is t = 0, whatever the motion") {
    const Triangle through{{0, -10, -10}, {0, 10, -10}, {0, 0, 10}};
    CHECK(contact_checked(through, unit, {4, 0, 0}) == 0.0f);
    CHECK(contact_checked(through, unit, {0, 0, 0}) == 0.0f);
    CHECK_FALSE(contact_checked(wall, unit, {0, 0, 0}));
  }
  SECTION("a motion along the wall never reaches it; one ulp into it does at the start") {
    CHECK_FALSE(contact_checked(wall, unit, {0, 3, 1}));
    OrientedBox touching = unit;
    touching.center.x = 2.0f;  // its face on the wall
    CHECK(contact_checked(wall, touching, {0, 3, 1}) == 0.0f);
  }
  SECTION("corner first: a box turned 45° about z reaches the wall with its edge") {
    const OrientedBox diamond{{0, 0, 0}, {{1, 1, 0}, {-1, 1, 0}, {0, 0, 1}}, {0.5f, 0.5f, 0.5f}};
    CHECK(contact_checked(wall, diamond, {3, 0, 0}) == 0.5f);  // its edge x = 1 reaches 2.5
  }
  SECTION("edge against edge: a box passing over a triangle's edge") {
    const Triangle ridge{{2, -5, 0}, {2, 5, 0}, {5, 0, -3}};  // the edge x = 2, z = 0 on top
    // The box raised to z in [0, 1] slides its bottom face along z = 0 by (4, 0, 0); its edge
    // x = 0.5 meets the ridge's top edge when 0.5 + 4t = 2: t = 0.375.
    OrientedBox raised = unit;
    raised.center.z = 0.5f;
    CHECK(contact_checked(ridge, raised, {4, 0, 0}) == 0.375f);
    raised.center.z = up(0.5f);  // the bottom now passes just above the ridge
    CHECK_FALSE(contact_checked(ridge, raised, {4, 0, 0}));
  }
  SECTION("a time that is not a float is rounded to the nearest") {
    CHECK(contact_checked(wall, unit, {6, 0, 0}) == 1.0f / 3.0f);  // t = 2 / 6
    CHECK(contact_checked(wall, unit, {7, 0, 0}) == 2.0f / 7.0f);
  }
}

TEST_CASE("box cast agrees with the exact oracle in every regime",
          "[geometry][box_cast][property]") {
  CaseGenerator g(0xca57'7e57ULL);
  int hits = 0, misses = 0, at_start = 0;
  for (int k = 0; k < 6000; ++k) {
    g.begin(trisect::testing::all_regimes[static_cast<std::size_t>(k) %
                                          trisect::testing::all_regimes.size()]);
    const Triangle t = g.triangle();
    const OrientedBox box = g.oriented_box();
    // Towards a point of the triangle and past it, or anywhere.
    const Vec3 target = g.chance(0.7) ? 0.5f * (t.a + t.b) : g.point();
    const Vec3 motion = g.chance(0.1) ? Vec3(0.0f) : 2.0f * (target - box.center);
    if (!trisect::is_finite(motion)) continue;
    (void)contact_checked(t, box, motion);
    const std::optional<mpq_class> exact = trisect::oracle::first_contact(t, box, motion);
    if (!exact) {
      ++misses;
      continue;
    }
    // The oracle's time is a contact (by clipping), and a moment before it is none.
    INFO(trisect::testing::describe(t) << " " << trisect::testing::describe(box));
    REQUIRE(trisect::oracle::touches_moved(t, box, motion, *exact));
    if (sgn(*exact) > 0) {
      REQUIRE_FALSE(
          trisect::oracle::touches_moved(t, box, motion, *exact - mpq_class(1, 1 << 30) * *exact));
      ++hits;
    } else {
      ++at_start;
    }
  }
  CHECK(hits > 600);
  CHECK(misses > 600);
  CHECK(at_start > 100);
}
