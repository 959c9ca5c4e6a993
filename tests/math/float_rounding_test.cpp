// Outward rounding of a double to a float (math/detail/float_rounding.hpp): the contract (the
// smallest float >= x, the largest float <= x) and bit-for-bit agreement with the
// std::nextafter forms it replaced in the sphere query and the ray traversal.
#include <trisect/math/detail/float_rounding.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using trisect::detail::float_at_least;
using trisect::detail::float_at_most;

namespace {

constexpr float largest = std::numeric_limits<float>::max();
constexpr float infinity = std::numeric_limits<float>::infinity();
constexpr float tiniest = std::numeric_limits<float>::denorm_min();

// The forms replaced (SphereQuery::rounded_up / rounded_down, with a guard against converting
// values above the float range).
float reference_at_least(double x) {
  if (x > double(largest)) return infinity;
  const float rounded = static_cast<float>(x);
  return double(rounded) < x ? std::nextafter(rounded, infinity) : rounded;
}
float reference_at_most(double x) {
  if (x > double(largest)) return x == double(infinity) ? infinity : largest;
  const float rounded = static_cast<float>(x);
  return double(rounded) > x ? std::nextafter(rounded, -infinity) : rounded;
}

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

// Edge values and doubles just beside floats of every kind (zeros, subnormals, normals, the
// range's ends), then random bit patterns over the whole double range.
std::vector<double> inputs() {
  std::vector<double> values = {0.0,
                                -0.0,
                                double(infinity),
                                -double(infinity),
                                0x1p-150,
                                -0x1p-150,
                                0x1p-149,
                                1e-300,
                                -1e-300,
                                double(largest),
                                -double(largest),
                                0x1.fffffefp127,
                                0x1.ffffffp127,
                                1e300,
                                -1e300,
                                0.1,
                                -0.1,
                                1.0 / 3.0};
  for (const float f : {tiniest, 2 * tiniest, std::numeric_limits<float>::min(), 1.0f, 1.5f,
                        3.0e38f, largest, 1e-30f, 12345.678f}) {
    for (const float signed_f : {f, -f}) {
      const double d = signed_f;
      values.insert(values.end(), {d, std::nextafter(d, 0.0), std::nextafter(d, 2 * d),
                                   std::nextafter(d, -2 * d)});
    }
  }
  std::mt19937_64 random(23);
  for (int k = 0; k < 200000; ++k) {
    const double d = std::bit_cast<double>(random());
    if (!std::isnan(d)) values.push_back(d);
    // Near the float range: a random exponent from -160 to 130.
    const double scaled =
        std::ldexp(double(random() % (1u << 30)) / 0x1p30, int(random() % 291) - 160);
    values.insert(values.end(), {scaled, -scaled});
  }
  return values;
}

}  // namespace

TEST_CASE("float_at_least and float_at_most round outwards to the nearest float",
          "[math][float_rounding]") {
  for (const double x : inputs()) {
    CAPTURE(x);
    const float up = float_at_least(x), down = float_at_most(x);
    CHECK(double(up) >= x);
    CHECK(double(down) <= x);
    if (up != -infinity)
      CHECK(double(std::nextafter(up, -infinity)) < x);  // the smallest such float
    if (down != infinity)
      CHECK(double(std::nextafter(down, infinity)) > x);  // the largest such float
    CHECK(bits(up) == bits(reference_at_least(x)));
    CHECK(bits(down) == bits(reference_at_most(x)));
    CHECK(bits(down) == bits(-float_at_least(-x)));
  }
}

TEST_CASE("float rounding beyond the float range and at NaN", "[math][float_rounding]") {
  CHECK(float_at_least(1e300) == infinity);
  CHECK(float_at_most(1e300) == largest);
  CHECK(float_at_least(-1e300) == -largest);
  CHECK(float_at_most(-1e300) == -infinity);
  CHECK(float_at_least(double(infinity)) == infinity);
  CHECK(float_at_most(-double(infinity)) == -infinity);
  CHECK(std::isnan(float_at_least(std::nan(""))));
  CHECK(std::isnan(float_at_most(std::nan(""))));
  // Constant expressions, as the rounding of constants needs.
  static_assert(float_at_least(0.1) == 0.100000001f && float_at_most(0.1) == 0.099999994f);
}
