// The exact oriented box–triangle test against the rational oracle (the triangle mapped into
// the box's coordinates and clipped): contact at a corner, along an edge, on a face, one ulp
// apart; flat boxes; degenerate triangles; skewed and nearly orthonormal axes; a property test
// in every numeric regime; the float certificates never contradict the exact answer.
#include "support/random_cases.hpp"
#include "support/touching.hpp"

#include <trisect/geometry/oriented_box_triangle.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <utility>

using trisect::OrientedBox;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::CaseGenerator;
using trisect::testing::touches_checked;

namespace {

float up(float x) { return std::nextafter(x, std::numeric_limits<float>::max()); }

// A square turned 45° about z: axes (1, 1, 0), (-1, 1, 0), (0, 0, 1), unit half extents. Its
// faces are x + y = ±2, y - x = ±2, z = ±1; its corners (±2, 0, ±1) and (0, ±2, ±1).
const OrientedBox diamond{{0, 0, 0}, {{1, 1, 0}, {-1, 1, 0}, {0, 0, 1}}, {1, 1, 1}};

}  // namespace

TEST_CASE("triangle-oriented box: contact at a corner, an edge, a face counts",
          "[geometry][oriented_box_triangle]") {
  SECTION("a vertex on the corner (2, 0, 1), the triangle going outward") {
    CHECK(touches_checked(Triangle{{2, 0, 1}, {5, 0, 3}, {4, 1, 2}}, diamond));
    CHECK_FALSE(touches_checked(Triangle{{up(2), 0, 1}, {5, 0, 3}, {4, 1, 2}}, diamond));
  }
  SECTION("an edge along the face x + y = 2, the triangle outside") {
    CHECK(touches_checked(Triangle{{3, -1, 0}, {-1, 3, 0}, {4, 4, 0}}, diamond));
    CHECK_FALSE(
        touches_checked(Triangle{{3, up(-1) + 0x1p-20f, 0}, {-1, 3, 0}, {4, 4, 0}}, diamond));
  }
  SECTION("an edge crossing the box's vertical edge at (2, 0, z) from outside") {
    // The segment (3, -1, 0)-(1, 1, 0) passes through the corner line x + y = 2, y = x - 2.
    CHECK(touches_checked(Triangle{{3, -1, 0}, {1, 1, 0}, {5, 5, 0}}, diamond));
  }
  SECTION("a large triangle through the whole box, no vertex near it") {
    CHECK(touches_checked(Triangle{{-10, -10, 0.5f}, {10, -10, 0.5f}, {0, 10, 0.5f}}, diamond));
    CHECK_FALSE(
        touches_checked(Triangle{{-10, -10, up(1)}, {10, -10, up(1)}, {0, 10, up(1)}}, diamond));
    CHECK(touches_checked(Triangle{{-10, -10, 1}, {10, -10, 1}, {0, 10, 1}}, diamond));
  }
  SECTION("the triangle inside, the box inside the triangle's plane") {
    CHECK(touches_checked(Triangle{{0.1f, 0, 0}, {0, 0.1f, 0}, {0, 0, 0.1f}}, diamond));
  }
}

TEST_CASE("triangle-oriented box: flat boxes and degenerate triangles",
          "[geometry][oriented_box_triangle]") {
  OrientedBox flat = diamond;
  flat.half_extents = Vec3(1, 1, 0);  // the square x + y, y - x in [-2, 2], z = 0
  CHECK(touches_checked(Triangle{{0, 0, -1}, {1, 0, 1}, {0, 1, 1}}, flat));
  CHECK_FALSE(touches_checked(Triangle{{0, 0, 0x1p-30f}, {1, 0, 1}, {0, 1, 1}}, flat));
  CHECK(touches_checked(Triangle{{0, 0, 0}, {1, 0, 1}, {0, 1, 1}}, flat));
  OrientedBox segment = diamond;
  segment.half_extents = Vec3(1, 0, 0);  // from (-1, -1, 0) to (1, 1, 0)
  CHECK(touches_checked(Triangle{{1, 1, -1}, {1, 1, 1}, {3, 3, 0}}, segment));
  CHECK_FALSE(touches_checked(Triangle{{up(1), 1, -1}, {up(1), 1, 1}, {3, 3, 0}}, segment));
  OrientedBox point = diamond;
  point.half_extents = Vec3(0, 0, 0);
  CHECK(touches_checked(Triangle{{-1, 0, 0}, {1, 0, 0}, {0, 1, 0}}, point));
  CHECK_FALSE(touches_checked(Triangle{{-1, 0x1p-40f, 0}, {1, 0x1p-40f, 0}, {0, 1, 0}}, point));
  // Zero-area triangles: a segment through the box, a segment ending on a face, a point.
  CHECK(touches_checked(Triangle{{-5, 0, 0}, {5, 0, 0}, {0, 0, 0}}, diamond));
  CHECK(touches_checked(Triangle{{2, 0, 0}, {5, 0, 0}, {5, 0, 0}}, diamond));
  CHECK_FALSE(touches_checked(Triangle{{up(2), 0, 0}, {5, 0, 0}, {5, 0, 0}}, diamond));
  CHECK(touches_checked(Triangle{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, diamond));
  CHECK_FALSE(touches_checked(Triangle{{1, up(1), 1}, {1, up(1), 1}, {1, up(1), 1}}, diamond));
}

TEST_CASE("triangle-oriented box: skewed and rounded-rotation axes",
          "[geometry][oriented_box_triangle]") {
  // A skewed box: axes (1, 0, 0), (1, 1, 0), (0, 0, 1): a parallelogram prism, corners
  // (±2, ±1) and (0, ±1)... exactly the points s0 (1, 0) + s1 (1, 1) with |s| <= 1.
  const OrientedBox skew{{0, 0, 0}, {{1, 0, 0}, {1, 1, 0}, {0, 0, 1}}, {1, 1, 1}};
  CHECK(touches_checked(Triangle{{2, 1, 0}, {3, 1, 0}, {3, 2, 0}}, skew));            // at (2, 1)
  CHECK_FALSE(touches_checked(Triangle{{2, up(1), 0}, {3, 2, 0}, {4, 2, 0}}, skew));  // above
  CHECK(touches_checked(Triangle{{-1, 0.5f, 0}, {-3, 0.5f, 0}, {-3, -3, 0}}, skew));
  // A rotation rounded to float: the solid is that of the floats, decided exactly.
  OrientedBox turned;
  turned.center = Vec3(1, 2, 3);
  trisect::testing::set_rotation(turned.axes, 0.9, 0.1, -0.3, 0.2);
  turned.half_extents = Vec3(0.5f, 1, 2);
  const Vec3 corner =
      turned.center + 0.5f * turned.axes[0] + turned.axes[1] + 2.0f * turned.axes[2];
  for (const Vec3 offset : {Vec3(0.0f), Vec3(1e-6f, 0, 0), Vec3(-1e-6f, 0, 0), Vec3(0, 0, 1e-6f)})
    (void)touches_checked(Triangle{corner + offset, corner + 2.0f * turned.axes[0],
                                   corner + 2.0f * turned.axes[1] + turned.axes[2]},
                          turned);
}

TEST_CASE("oriented boxes are validated with the part named", "[geometry][oriented_box_triangle]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto message = [](OrientedBox box) {
    try {
      trisect::validate(box, "box 4");
    } catch (const trisect::InvalidInput& error) {
      return std::string(error.what());
    }
    return std::string("valid");
  };
  OrientedBox box = diamond;
  CHECK(message(box) == "valid");
  box.half_extents.y = -1;
  CHECK(message(box) == "box 4: half extent 1 is negative");
  box.half_extents.y = nan;
  CHECK(message(box) == "box 4: half extent 1 is NaN");
  box.half_extents.y = inf;
  CHECK(message(box) == "box 4: half extent 1 is not finite");
  box = diamond;
  box.axes[2] = Vec3(0.0f);
  CHECK(message(box) == "box 4: axis 2 is zero");
  box.axes[2] = Vec3(0, inf, 0);
  CHECK_THAT(message(box), Catch::StartsWith("box 4: axis 2 (0, inf, 0) is not finite"));
  box.axes[2] = Vec3(3, 1, 0);  // = 2 (1, 1, 0) - (-1, 1, 0): in the plane of the others
  CHECK(message(box) == "box 4: axes are linearly dependent");
  box = diamond;
  box.center.x = nan;
  CHECK_THAT(message(box), Catch::StartsWith("box 4: centre"));
}

TEST_CASE("triangle-oriented box agrees with the exact oracle in every regime",
          "[geometry][oriented_box_triangle][property]") {
  trisect::testing::require_touching_agrees(
      "triangle-oriented box", 0x0bb0'7e57ULL,
      [](CaseGenerator& g) {
        const Triangle triangle = g.triangle();
        OrientedBox box = g.oriented_box();
        if (g.tie(0.3)) box.center = g.chance(0.5) ? triangle.a : 0.5f * (triangle.b + triangle.c);
        return std::pair{triangle, box};
      },
      // The oracle clips in rationals of growing size: a tenth of the cases.
      10);
}

TEST_CASE("the exact separating-axis path alone agrees with the exact oracle",
          "[geometry][oriented_box_triangle][property]") {
  using Input = std::pair<Triangle, OrientedBox>;
  const auto result = trisect::testing::compare_with_oracle(
      0x5a7'0bb0ULL,
      [](CaseGenerator& g) {
        return Input{g.triangle(), g.oriented_box()};
      },
      [](const Input& in) { return trisect::detail::intersects_exactly(in.first, in.second); },
      [](const Input& in) { return trisect::oracle::touches(in.first, in.second); },
      [](const Input& in) {
        return trisect::testing::describe(in.first) + " " + trisect::testing::describe(in.second);
      },
      20);
  trisect::testing::require_agreement("triangle-oriented box, exact path", result);
}

TEST_CASE("triangle-oriented box: the answer survives scaling by 2^100 and 2^-100",
          "[geometry][oriented_box_triangle]") {
  // Scaling the centre, the half extents and the triangle by a power of two scales the solids
  // exactly; near FLT_MAX and deep in the small numbers the answer must not change.
  CaseGenerator g(0x5ca1'0bb0ULL);
  int checked = 0;
  for (int k = 0; k < 3000; ++k) {
    g.begin(trisect::testing::all_regimes[static_cast<std::size_t>(k) %
                                          trisect::testing::all_regimes.size()]);
    const Triangle t = g.triangle();
    const OrientedBox box = g.oriented_box();
    const bool answer = trisect::intersects(t, box);
    for (const float scale : {0x1p100f, 0x1p-100f}) {
      const Triangle scaled_t{t.a * scale, t.b * scale, t.c * scale};
      OrientedBox scaled = box;
      scaled.center *= scale;
      scaled.half_extents *= scale;
      const Triangle back{scaled_t.a / scale, scaled_t.b / scale, scaled_t.c / scale};
      if (back.a != t.a || back.b != t.b || back.c != t.c || scaled.center / scale != box.center ||
          scaled.half_extents / scale != box.half_extents)
        continue;  // a value left the float range or lost bits: not an exact scaling
      INFO(trisect::testing::describe(t)
           << " " << trisect::testing::describe(box) << " scale " << scale);
      REQUIRE(trisect::intersects(scaled_t, scaled) == answer);
      ++checked;
    }
  }
  CHECK(checked > 4000);
}
