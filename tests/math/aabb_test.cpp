#include <trisect/math/aabb.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using trisect::Aabb;
using trisect::Vec3;

TEST_CASE("Aabb::from_corners sorts per axis", "[math][aabb]") {
  const Aabb box = Aabb::from_corners({3, -1, 2}, {-2, 4, 2});
  CHECK(box.min == Vec3(-2, -1, 2));
  CHECK(box.max == Vec3(3, 4, 2));
  CHECK(Aabb::from_corners({-2, 4, 2}, {3, -1, 2}) == box);
  CHECK_FALSE(box.is_empty());
  const Aabb point = Aabb::from_corners({1, 2, 3}, {1, 2, 3});
  CHECK(point.min == point.max);
  CHECK_FALSE(point.is_empty());
}

TEST_CASE("Aabb::from_corners keeps a NaN of either corner", "[math][aabb]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const bool first : {true, false}) {
    const Vec3 a(1, 2, 3), b(4, nan, 6);
    const Aabb box = first ? Aabb::from_corners(b, a) : Aabb::from_corners(a, b);
    CHECK(std::isnan(box.min.y));
    CHECK(std::isnan(box.max.y));
    CHECK(box.min.x == 1);
    CHECK(box.max.z == 6);
    CHECK_THROWS_AS(trisect::validate(box, "box"), trisect::InvalidInput);
  }
}

TEST_CASE("Aabb::from_center_extents", "[math][aabb]") {
  const Aabb box = Aabb::from_center_extents({2, 4, -1}, {0.5f, 1, 3});
  CHECK(box.min == Vec3(1.5f, 3, -4));
  CHECK(box.max == Vec3(2.5f, 5, 2));
  // Negative extents are taken by absolute value.
  CHECK(Aabb::from_center_extents({2, 4, -1}, {-0.5f, 1, -3}) == box);
  // Corners are rounded to float (spacing 1/16 near 1e6): 1e6 ± 0.03 both round to 1e6, and
  // 1e6 ± 0.05 to 1e6 ± 1/16.
  const Aabb flat = Aabb::from_center_extents({1e6f, 0, 0}, {0.03f, 0, 0});
  CHECK(flat.min.x == 1e6f);
  CHECK(flat.max.x == 1e6f);
  const Aabb widened = Aabb::from_center_extents({1e6f, 0, 0}, {0.05f, 0, 0});
  CHECK(widened.min.x == 1e6f - 0.0625f);
  CHECK(widened.max.x == 1e6f + 0.0625f);
  CHECK(box.center() == Vec3(2, 4, -1));
  CHECK(box.extents() == Vec3(0.5f, 1, 3));
}

TEST_CASE("Aabb::empty contains nothing and is the identity of extend", "[math][aabb]") {
  const Aabb empty = Aabb::empty();
  CHECK(empty.is_empty());
  CHECK(std::isinf(empty.min.x));
  CHECK(empty.min.x > 0);
  CHECK(empty.max.x < 0);
  CHECK_FALSE(empty.contains(Vec3(0, 0, 0)));
  CHECK_FALSE(empty.overlaps(Aabb::from_corners({-1e30f, -1e30f, -1e30f}, {1e30f, 1e30f, 1e30f})));

  Aabb grown = Aabb::empty();
  grown.extend(Vec3(1, -2, 3));
  CHECK(grown == Aabb::from_corners({1, -2, 3}, {1, -2, 3}));
  grown.extend(Vec3(-1, 5, 3));
  CHECK(grown == Aabb::from_corners({-1, -2, 3}, {1, 5, 3}));
  const Aabb before = grown;
  grown.extend(Aabb::empty());
  CHECK(grown == before);
  Aabb from_empty = Aabb::empty();
  from_empty.extend(before);
  CHECK(from_empty == before);
}

TEST_CASE("Aabb::merged", "[math][aabb]") {
  const Aabb a = Aabb::from_corners({0, 0, 0}, {1, 1, 1});
  const Aabb b = Aabb::from_corners({2, -1, 0.5f}, {3, 0.5f, 0.75f});
  CHECK(a.merged(b) == Aabb::from_corners({0, -1, 0}, {3, 1, 1}));
  CHECK(b.merged(a) == a.merged(b));
  CHECK(a.merged(Aabb::empty()) == a);
  CHECK(Aabb::empty().merged(a) == a);
  CHECK(Aabb::empty().merged(Aabb::empty()).is_empty());
}

TEST_CASE("Aabb::contains is closed", "[math][aabb]") {
  const Aabb box = Aabb::from_corners({0, 0, 0}, {1, 2, 3});
  CHECK(box.contains(Vec3(0, 0, 0)));
  CHECK(box.contains(Vec3(1, 2, 3)));
  CHECK(box.contains(Vec3(0.5f, 2, 0)));
  CHECK_FALSE(box.contains(Vec3(std::nextafter(1.0f, 2.0f), 1, 1)));
  CHECK_FALSE(box.contains(Vec3(0.5f, 1, -0x1p-149f)));
  CHECK(box.contains(box));
  CHECK(box.contains(Aabb::from_corners({0, 1, 1}, {1, 2, 3})));
  CHECK_FALSE(box.contains(Aabb::from_corners({0, 1, 1}, {1, 2, 3.5f})));
  CHECK(box.contains(Aabb::empty()));
  CHECK_FALSE(Aabb::empty().contains(box));
}

TEST_CASE("Aabb::overlaps counts touching", "[math][aabb]") {
  const Aabb box = Aabb::from_corners({0, 0, 0}, {1, 1, 1});
  CHECK(box.overlaps(Aabb::from_corners({1, 1, 1}, {2, 2, 2})));    // corner
  CHECK(box.overlaps(Aabb::from_corners({1, -5, -5}, {3, 5, 5})));  // face
  CHECK(box.overlaps(Aabb::from_corners({0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f})));
  CHECK_FALSE(box.overlaps(Aabb::from_corners({std::nextafter(1.0f, 2.0f), 0, 0}, {2, 1, 1})));
  CHECK_FALSE(box.overlaps(Aabb::from_corners({0, 0, -2}, {1, 1, -0x1p-149f})));
  CHECK(box.overlaps(box));
  const Aabb other = Aabb::from_corners({-1, 0.5f, 0.25f}, {0.5f, 3, 0.75f});
  CHECK(box.overlaps(other) == other.overlaps(box));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(box.overlaps(Aabb{Vec3(-inf), Vec3(inf)}));
}
