#include "support/touching.hpp"

#include <trisect/geometry/aabb_plane.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using trisect::Aabb;
using trisect::Plane;
using trisect::Side;
using trisect::Vec3;

namespace {

/// The eight-corner method: the box touches the plane unless all eight corners lie strictly on
/// the same side (each corner classified exactly by the library's point test).
bool touches_by_corners(const Aabb& box, const Plane& plane) {
  bool all_below = true, all_above = true;
  for (unsigned corner = 0; corner < 8; ++corner) {
    const Vec3 p((corner & 1u) != 0 ? box.max.x : box.min.x,
                 (corner & 2u) != 0 ? box.max.y : box.min.y,
                 (corner & 4u) != 0 ? box.max.z : box.min.z);
    const Side side = trisect::classify(plane, p);
    all_below = all_below && side == Side::below;
    all_above = all_above && side == Side::above;
  }
  return !all_below && !all_above;
}

/// The corner form (checked against the oracle), with the centre/extents form and the
/// eight-corner method required to agree.
bool touches_checked(const Aabb& box, const Plane& plane) {
  const bool corner_form = trisect::testing::touches_checked(box, plane);
  CHECK(trisect::intersects_center_extents(box, plane) == corner_form);
  CHECK(touches_by_corners(box, plane) == corner_form);
  return corner_form;
}

const Aabb unit_box = Aabb::from_corners({0, 0, 0}, {1, 1, 1});

}  // namespace

TEST_CASE("aabb-plane: touching faces, edges and corners count", "[geometry][aabb_plane]") {
  CHECK(touches_checked(unit_box, Plane{{1, 0, 0}, 0}));     // face x = 0
  CHECK(touches_checked(unit_box, Plane{{0, 0, -1}, -1}));   // face z = 1, flipped normal
  CHECK(touches_checked(unit_box, Plane{{1, 1, 0}, 2}));     // edge x = y = 1
  CHECK(touches_checked(unit_box, Plane{{1, 1, 1}, 3}));     // corner (1, 1, 1)
  CHECK(touches_checked(unit_box, Plane{{1, -1, 1}, -1}));   // corner (0, 1, 0)
  CHECK(touches_checked(unit_box, Plane{{1, 1, 1}, 1.5f}));  // through the middle
}

TEST_CASE("aabb-plane: missing by one ulp", "[geometry][aabb_plane]") {
  const float above_one = std::nextafter(1.0f, 2.0f), below_zero = -0x1p-149f;
  CHECK_FALSE(touches_checked(unit_box, Plane{{1, 0, 0}, above_one}));
  CHECK_FALSE(touches_checked(unit_box, Plane{{0, 1, 0}, below_zero}));
  CHECK_FALSE(touches_checked(unit_box, Plane{{1, 1, 1}, std::nextafter(3.0f, 4.0f)}));
  CHECK_FALSE(touches_checked(unit_box, Plane{{1, -1, 1}, std::nextafter(-1.0f, -2.0f)}));
  // A corner that misses only in the 2^-46 term of (1 + 2^-23)^2.
  const float x = 1 + 0x1p-23f;
  const Aabb box = Aabb::from_corners({-x, -x, 0}, {x, x, 0});
  CHECK(touches_checked(box, Plane{{x, 0, 0}, x * x}));               // x * x rounds down
  CHECK_FALSE(touches_checked(box, Plane{{x, 0, 0}, 1 + 0x1p-21f}));  // above x^2
}

TEST_CASE("aabb-plane: degenerate boxes", "[geometry][aabb_plane]") {
  const Aabb point = Aabb::from_corners({1, 2, 3}, {1, 2, 3});
  CHECK(touches_checked(point, Plane{{1, 1, 1}, 6}));
  CHECK_FALSE(touches_checked(point, Plane{{1, 1, 1}, std::nextafter(6.0f, 7.0f)}));
  const Aabb slab = Aabb::from_corners({-1, 5, -1}, {1, 5, 1});
  CHECK(touches_checked(slab, Plane{{0, 1, 0}, 5}));
  CHECK_FALSE(touches_checked(slab, Plane{{0, 1, 0}, 4}));
  CHECK(touches_checked(slab, Plane{{1, 1, 0}, 6}));  // edge x = 1 of the slab
  CHECK_FALSE(touches_checked(slab, Plane{{1, 1, 0}, 6.5f}));
  const Aabb segment = Aabb::from_corners({-2, 0, 0}, {2, 0, 0});
  CHECK(touches_checked(segment, Plane{{1, 7, -3}, -2}));
  CHECK_FALSE(touches_checked(segment, Plane{{1, 7, -3}, 2.5f}));
}

TEST_CASE("aabb-plane: corner form, centre/extents form and eight corners agree",
          "[geometry][aabb_plane][property]") {
  using namespace trisect::testing;
  CaseGenerator g(0xab'b0'91a7'e000ULL);
  const std::uint64_t count = property_case_count();
  std::uint64_t disagreements = 0, touching = 0;
  std::string first;
  for (std::uint64_t k = 0; k < count; ++k) {
    g.begin(all_regimes[k % all_regimes.size()]);
    const Aabb box = g.box();
    const Plane plane = g.tie(0.5) ? g.plane_through(box.max) : g.plane();
    const bool corner_form = trisect::intersects(box, plane);
    touching += corner_form;
    if (corner_form == trisect::intersects_center_extents(box, plane) &&
        corner_form == touches_by_corners(box, plane))
      continue;
    if (disagreements++ == 0) first = describe(box) + " " + describe(plane);
  }
  INFO(disagreements << " disagreements in " << count << " cases; first: " << first);
  CHECK(disagreements == 0);
  // Both answers are common (the cases are not trivially one-sided).
  CHECK(touching > count / 10);
  CHECK(touching < count - count / 10);
}

TEST_CASE("aabb-plane agrees with exact rationals on random inputs",
          "[geometry][aabb_plane][property]") {
  using trisect::testing::CaseGenerator;
  trisect::testing::require_touching_agrees(
      "aabb-plane", 0xab'b0'91a7'e001ULL, [](CaseGenerator& g) {
        const Aabb box = g.box();
        // Planes through a box corner (exactly, when n·p is exact) or at random.
        const Vec3 corner = g.chance(0.5) ? box.min : box.max;
        return std::pair{box, g.tie(0.5) ? g.plane_through(corner) : g.plane()};
      });
}
