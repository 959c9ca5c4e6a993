// The exact squared-distance forms (squared_distance.hpp): bounds_of brackets the exact value,
// compare and is_zero agree with rational arithmetic (ties between different forms, zeros,
// subnormal against FLT_MAX), distance_of is within a relative 2^-24.
#include "support/describe.hpp"
#include "support/nearest_oracle.hpp"

#include <trisect/geometry/squared_distance.hpp>

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

std::string describe(const SquaredDistance& d) {
  std::ostringstream out;
  out << "form " << static_cast<int>(d.form);
  for (const Vec3& p : d.points) out << ' ' << testing::describe(p);
  return out.str();
}

/// Random forms whose coordinates are small integers times 2^exponent (exact ties frequent) or
/// random floats of that binary magnitude.
struct FormMaker {
  std::mt19937_64 random;

  float coordinate(int exponent, bool on_lattice) {
    if (on_lattice)
      return std::ldexp(float(std::uniform_int_distribution<int>(-4, 4)(random)), exponent);
    return std::ldexp(std::uniform_real_distribution<float>(-1, 1)(random), exponent);
  }
  Vec3 point(int exponent, bool on_lattice) {
    return {coordinate(exponent, on_lattice), coordinate(exponent, on_lattice),
            coordinate(exponent, on_lattice)};
  }
  /// A valid form of kind `form` (retrying until its denominator is not 0).
  SquaredDistance form(DistanceForm kind, int exponent, bool on_lattice) {
    while (true) {
      SquaredDistance d{kind, {}};
      for (Vec3& p : d.points) p = point(exponent, on_lattice);
      if (kind == DistanceForm::point_point) d.points[2] = d.points[3] = Vec3(0.0f);
      if (kind == DistanceForm::point_line) d.points[3] = Vec3(0.0f);
      if (std::uniform_int_distribution<int>(0, 5)(random) == 0) d.points[1] = d.points[0];
      if (oracle::value(d) >= 0) return d;
    }
  }
  SquaredDistance any(int exponent, bool on_lattice) {
    return form(static_cast<DistanceForm>(std::uniform_int_distribution<int>(0, 3)(random)),
                exponent, on_lattice);
  }
};

/// The checks of one form alone: bounds, is_zero, distance_of.
void check_alone(const SquaredDistance& d) {
  INFO(describe(d));
  const mpq_class exact = oracle::value(d);
  REQUIRE(exact >= 0);
  const DistanceBounds bounds = bounds_of(d);
  CHECK(bounds.lower >= 0);
  CHECK(mpq_class(bounds.lower) <= exact);
  CHECK((std::isinf(bounds.upper) || exact <= mpq_class(bounds.upper)));
  CHECK(is_zero(d) == (sgn(exact) == 0));
  CHECK(oracle::near_root(distance_of(d), exact, mpq_class(1, 1 << 24)));
  CHECK(compare(d, d) == 0);
}

/// compare(a, b), in both orders and both overloads, against the rational comparison.
void check_pair(const SquaredDistance& a, const SquaredDistance& b) {
  INFO("a: " << describe(a) << "\nb: " << describe(b));
  const int expected = cmp(oracle::value(a), oracle::value(b));
  const int sign = expected < 0 ? -1 : (expected > 0 ? 1 : 0);
  CHECK(compare(a, b) == sign);
  CHECK(compare(b, a) == -sign);
  CHECK(compare(a, bounds_of(a), b, bounds_of(b)) == sign);
}

constexpr int exponents[] = {-147, -140, -126, -100, -30, 0, 30, 100, 120, 125};

TEST_CASE("squared distance forms: bounds, is_zero, distance_of against rationals",
          "[nearest][squared_distance]") {
  FormMaker make{std::mt19937_64(101)};
  for (const int exponent : exponents)
    for (const bool on_lattice : {true, false})
      for (int k = 0; k < 150; ++k) check_alone(make.any(exponent, on_lattice));
}

TEST_CASE("squared distance forms: compare equals the rational comparison",
          "[nearest][squared_distance]") {
  FormMaker make{std::mt19937_64(102)};
  for (const int exponent : exponents)
    for (const bool on_lattice : {true, false})
      for (int k = 0; k < 200; ++k)
        check_pair(make.any(exponent, on_lattice), make.any(exponent, on_lattice));
  // Mixed magnitudes: subnormal against FLT_MAX-sized forms in one comparison.
  for (int k = 0; k < 400; ++k) {
    const int first = exponents[std::uniform_int_distribution<int>(0, 9)(make.random)];
    const int second = exponents[std::uniform_int_distribution<int>(0, 9)(make.random)];
    check_pair(make.any(first, k % 2 == 0), make.any(second, k % 3 == 0));
  }
}

TEST_CASE("squared distance forms: the same distance in different forms compares equal",
          "[nearest][squared_distance]") {
  std::mt19937_64 random(103);
  const auto integer = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  for (const int exponent : exponents) {
    const auto s = [&](int v) { return std::ldexp(float(v), exponent); };
    for (int k = 0; k < 40; ++k) {
      // Every form below is k² (times 4^exponent) away, from p' = p + k·z.
      const int x = integer(-3, 3), y = integer(-3, 3), z = integer(-3, 3), h = integer(0, 3);
      const int i = integer(-3, 3), j = i + integer(1, 4);  // i != j
      const Vec3 p(s(x), s(y), s(z)), lifted(s(x), s(y), s(z + h));
      std::vector<SquaredDistance> same = {
          SquaredDistance::between(p, lifted),
          SquaredDistance::between(lifted, p),
          {DistanceForm::point_line, {lifted, Vec3(s(i), s(y), s(z)), Vec3(s(j), s(y), s(z))}},
          {DistanceForm::point_plane,
           {lifted, Vec3(s(i), s(y), s(z)), Vec3(s(j), s(y), s(z)), Vec3(s(i), s(y + 1), s(z))}},
          {DistanceForm::line_line,
           {Vec3(s(i), s(y), s(z)), Vec3(s(j), s(y), s(z)), Vec3(s(x), s(i), s(z + h)),
            Vec3(s(x), s(j), s(z + h))}},
      };
      if (exponent >= -140) same.push_back(SquaredDistance::of_radius(s(h)));
      // Slanted ties, all 3 (times 4^exponent): from (1, 1, 1) to the plane x + y + z = 0,
      // from 0 to (1, 1, -1), from (1, 1, 1) to the line through 0 along (1, -1, 0).
      std::vector<SquaredDistance> slanted = {
          {DistanceForm::point_plane,
           {Vec3(s(1)), Vec3(0.0f), Vec3(s(1), s(-1), 0), Vec3(0, s(1), s(-1))}},
          SquaredDistance::between(Vec3(0.0f), Vec3(s(1), s(1), s(-1))),
          {DistanceForm::point_line, {Vec3(s(1)), Vec3(s(-1), s(1), 0), Vec3(s(1), s(-1), 0)}},
      };
      for (const auto* group : {&same, &slanted})
        for (const SquaredDistance& a : *group) {
          check_alone(a);
          for (const SquaredDistance& b : *group) {
            INFO("a: " << describe(a) << "\nb: " << describe(b));
            REQUIRE(oracle::value(a) == oracle::value(b));
            CHECK(compare(a, b) == 0);
          }
        }
    }
  }
}

TEST_CASE("squared distance forms: zero distances", "[nearest][squared_distance]") {
  for (const int exponent : exponents) {
    const auto s = [&](int v) { return std::ldexp(float(v), exponent); };
    const std::vector<SquaredDistance> zeros = {
        SquaredDistance::between(Vec3(s(1), s(-2), s(3)), Vec3(s(1), s(-2), s(3))),
        SquaredDistance::of_radius(0.0f),
        {DistanceForm::point_line, {Vec3(s(2), s(2), s(2)), Vec3(s(-1)), Vec3(s(3))}},
        {DistanceForm::point_plane,
         {Vec3(s(1), s(2), 0), Vec3(0.0f), Vec3(s(4), 0, 0), Vec3(0, s(3), 0)}},
        {DistanceForm::line_line,
         {Vec3(s(-1), 0, 0), Vec3(s(1), 0, 0), Vec3(0, s(-3), 0), Vec3(0, s(2), 0)}},
    };
    for (const SquaredDistance& zero : zeros) {
      INFO(describe(zero));
      check_alone(zero);
      CHECK(is_zero(zero));
      CHECK(distance_of(zero) == 0.0);
      CHECK(compare(zero, SquaredDistance::of_radius(0.0f)) == 0);
      CHECK(compare(zero, SquaredDistance::of_radius(FLT_TRUE_MIN)) < 0);
    }
  }
}

TEST_CASE("squared distance forms: subnormal against FLT_MAX and near cancellation",
          "[nearest][squared_distance]") {
  const float max = FLT_MAX, tiny = FLT_TRUE_MIN;
  std::vector<SquaredDistance> forms = {
      SquaredDistance::between(Vec3(0.0f), Vec3(tiny, 0, 0)),
      SquaredDistance::between(Vec3(-max), Vec3(max)),
      SquaredDistance::between(Vec3(-max, 0, 0), Vec3(max, 0, 0)),
      SquaredDistance::of_radius(max),
      SquaredDistance::of_radius(tiny),
      SquaredDistance::between(Vec3(tiny, tiny, 0), Vec3(0, 0, tiny)),
      {DistanceForm::point_line, {Vec3(max, -max, 0), Vec3(-max, -max, 0), Vec3(max, max, 0)}},
      {DistanceForm::point_line, {Vec3(tiny, 0, 0), Vec3(-max, 0, 0), Vec3(max, tiny, 0)}},
      {DistanceForm::point_line, {Vec3(0, tiny, 0), Vec3(-max, 0, 0), Vec3(max, 0, 0)}},
      {DistanceForm::point_plane,
       {Vec3(0, 0, tiny), Vec3(-max, -max, 0), Vec3(max, -max, 0), Vec3(0, max, 0)}},
      {DistanceForm::point_plane,
       {Vec3(max), Vec3(-max, max, max), Vec3(max, -max, max), Vec3(max, max, -max)}},
      {DistanceForm::point_plane,
       {Vec3(1, 1, 1), Vec3(1, 1, 1 + FLT_EPSILON), Vec3(2, 3, 1), Vec3(-5, 7, 1)}},
      {DistanceForm::line_line,
       {Vec3(-max, 0, 0), Vec3(max, 0, 0), Vec3(0, -max, tiny), Vec3(0, max, tiny)}},
      {DistanceForm::line_line,
       {Vec3(-max, -max, -max), Vec3(max), Vec3(max, -max, 0), Vec3(-max, max, tiny)}},
      {DistanceForm::line_line,
       {Vec3(1, 0, 0), Vec3(1e7f, 1, 0), Vec3(0, 1, 1e-30f), Vec3(1, 1e7f, 0)}},
  };
  for (const SquaredDistance& a : forms) {
    check_alone(a);
    for (const SquaredDistance& b : forms) check_pair(a, b);
  }
}

}  // namespace
}  // namespace trisect::testing
