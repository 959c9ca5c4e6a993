#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

using trisect::Aabb;
using trisect::Error;
using trisect::InvalidInput;
using trisect::Plane;
using trisect::Ray;
using trisect::Sphere;
using trisect::Triangle;
using trisect::validate;
using trisect::Vec3;

namespace {

constexpr float not_a_number = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();

/// Requires `check` to throw InvalidInput whose message names `what` and mentions `detail`.
template <class Check>
void require_rejected(const Check& check, const std::string& what, const std::string& detail) {
  try {
    check();
    FAIL("no InvalidInput thrown; expected one naming " << what << " (" << detail << ")");
  } catch (const InvalidInput& error) {
    const std::string message = error.what();
    INFO("message: " << message);
    CHECK(message.find(what) != std::string::npos);
    CHECK(message.find(detail) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("InvalidInput is a trisect::Error, caught as std::exception", "[math][validate]") {
  static_assert(std::is_base_of_v<std::runtime_error, Error>);
  CHECK_THROWS_AS(validate(Plane{{0, 0, 0}, 1}), Error);
  bool caught = false;
  try {
    validate(Plane{{0, 0, 0}, 1});
  } catch (const std::exception& error) {
    caught = std::string(error.what()).find("plane") != std::string::npos;
  }
  CHECK(caught);
}

TEST_CASE("validate(Plane)", "[math][validate]") {
  CHECK_NOTHROW(validate(Plane{{0, 0, 1}, 0}));
  CHECK_NOTHROW(validate(Plane{{0x1p-149f, 0, 0}, -1e30f}));
  require_rejected(
      [] {
        validate(Plane{{not_a_number, 0, 1}, 0}, "query 3");
      },
      "query 3", "normal");
  require_rejected(
      [] {
        validate(Plane{{0, infinity, 1}, 0}, "query 3");
      },
      "query 3", "not finite");
  require_rejected([] { validate(Plane{{0, 0, 1}, not_a_number}, "query 4"); }, "query 4", "d");
  require_rejected(
      [] {
        validate(Plane{{0, 0, 1}, -infinity}, "query 4");
      },
      "query 4", "not finite");
  require_rejected([] { validate(Plane{{0, 0, 0}, 1}, "query 5"); }, "query 5", "zero");
  require_rejected([] { validate(Plane{{-0.0f, 0, -0.0f}, 0}); }, "plane", "normal is zero");
}

TEST_CASE("validate(Aabb)", "[math][validate]") {
  CHECK_NOTHROW(validate(Aabb::from_corners({1, 2, 3}, {-1, 0, 3})));
  CHECK_NOTHROW(validate(Aabb::from_corners({1, 2, 3}, {1, 2, 3})));
  require_rejected(
      [] {
        validate(Aabb{{0, 0, 0}, {1, not_a_number, 1}}, "box 7");
      },
      "box 7", "max corner");
  require_rejected(
      [] {
        validate(Aabb{{-infinity, 0, 0}, {1, 1, 1}}, "box 7");
      },
      "box 7", "min corner");
  require_rejected([] { validate(Aabb{{0, 2, 0}, {1, 1, 1}}, "box 8"); }, "box 8", "exceeds");
  require_rejected([] { validate(Aabb::empty()); }, "box", "not finite");
}

TEST_CASE("validate(Sphere)", "[math][validate]") {
  CHECK_NOTHROW(validate(Sphere{{1, 2, 3}, 0}));
  CHECK_NOTHROW(validate(Sphere{{1, 2, 3}, 1e30f}));
  require_rejected([] { validate(Sphere{{1, 2, 3}, -1}, "query 9"); }, "query 9", "negative");
  require_rejected([] { validate(Sphere{{1, 2, 3}, -0x1p-149f}, "s"); }, "s", "radius");
  require_rejected(
      [] {
        validate(Sphere{{1, 2, 3}, not_a_number}, "query 9");
      },
      "query 9", "radius");
  require_rejected([] { validate(Sphere{{1, 2, 3}, infinity}, "query 9"); }, "query 9", "radius");
  require_rejected(
      [] {
        validate(Sphere{{not_a_number, 2, 3}, 1}, "query 9");
      },
      "query 9", "centre");
}

TEST_CASE("validate(Triangle)", "[math][validate]") {
  CHECK_NOTHROW(validate(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  CHECK_NOTHROW(validate(Triangle{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}));  // degenerate is valid
  require_rejected(
      [] {
        validate(Triangle{{not_a_number, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "triangle 12");
      },
      "triangle 12", "vertex a");
  require_rejected(
      [] {
        validate(Triangle{{0, 0, 0}, {1, infinity, 0}, {0, 1, 0}}, "triangle 12");
      },
      "triangle 12", "vertex b");
  require_rejected(
      [] {
        validate(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, -infinity}}, "triangle 12");
      },
      "triangle 12", "vertex c");
}

TEST_CASE("validate(Ray)", "[math][validate]") {
  CHECK_NOTHROW(validate(Ray{{0, 0, 0}, {0, 0, 1}}));
  CHECK_NOTHROW(validate(Ray{{0, 0, 0}, {0, 0, 1}, 5, 1}));  // t_min > t_max misses, valid
  CHECK_NOTHROW(validate(Ray{{0, 0, 0}, {0, 0, 1}, -infinity, infinity}));
  require_rejected(
      [] {
        validate(Ray{{0, 0, 0}, {0, 0, 0}}, "query 2");
      },
      "query 2", "direction is zero");
  require_rejected(
      [] {
        validate(Ray{{0, 0, 0}, {-0.0f, 0, 0}}, "query 2");
      },
      "query 2", "direction is zero");
  require_rejected(
      [] {
        validate(Ray{{0, 0, 0}, {not_a_number, 0, 1}}, "query 2");
      },
      "query 2", "direction");
  require_rejected(
      [] {
        validate(Ray{{infinity, 0, 0}, {0, 0, 1}}, "query 2");
      },
      "query 2", "origin");
  require_rejected(
      [] {
        validate(Ray{{0, 0, 0}, {0, 0, 1}, not_a_number, 1}, "query 2");
      },
      "query 2", "t_min");
  require_rejected(
      [] {
        validate(Ray{{0, 0, 0}, {0, 0, 1}, 0, not_a_number}, "query 2");
      },
      "query 2", "t_max");
}
