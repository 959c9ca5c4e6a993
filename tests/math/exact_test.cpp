#include <trisect/math/exact.hpp>

#include <gmpxx.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

using trisect::exact::Expansion;
namespace exact = trisect::exact;

namespace {

/// An exact value carried both as an Expansion and as a GMP rational.
struct Both {
  Expansion e;
  mpq_class q;
  int degree = 1;
};

Both leaf(double x) { return {Expansion(x), mpq_class(x), 1}; }
Both operator+(const Both& a, const Both& b) {
  return {a.e + b.e, a.q + b.q, std::max(a.degree, b.degree)};
}
Both operator-(const Both& a, const Both& b) {
  return {a.e - b.e, a.q - b.q, std::max(a.degree, b.degree)};
}
Both operator*(const Both& a, const Both& b) { return {a.e * b.e, a.q * b.q, a.degree + b.degree}; }

/// Requires the expansion to equal the rational exactly: same sign, and the same position
/// relative to the nearest doubles below and above the rational (so they agree to well beyond
/// double precision, in sign exactly).
void require_same(const Both& x) {
  INFO("rational " << x.q.get_str() << ", expansion ~" << x.e.approximate());
  REQUIRE(x.e.sign() == sgn(x.q));
  const double near = x.q.get_d();
  for (double threshold : {near, std::nextafter(near, -INFINITY), std::nextafter(near, INFINITY)})
    REQUIRE((x.e - Expansion(threshold)).sign() == sgn(x.q - mpq_class(threshold)));
}

class WildDoubles {
 public:
  explicit WildDoubles(std::uint64_t seed) : rng_(seed) {}
  /// A double with a random 53-bit significand, random sign and binary exponent in
  /// [-max_exponent, max_exponent].
  double next(int max_exponent) {
    const double significand =
        1.0 + static_cast<double>(rng_() >> 12) * 0x1p-52;  // [1, 2), all 52 fraction bits
    const int exponent = std::uniform_int_distribution<int>(-max_exponent, max_exponent)(rng_);
    return std::ldexp((rng_() & 1u) != 0 ? significand : -significand, exponent);
  }
  std::size_t index(std::size_t size) {
    return std::uniform_int_distribution<std::size_t>(0, size - 1)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace

TEST_CASE("Expansion: basic exact values", "[math][exact]") {
  CHECK(Expansion().sign() == 0);
  CHECK(Expansion().size() == 0);
  CHECK(Expansion(0.0).size() == 0);
  CHECK(Expansion(-2.5).sign() == -1);
  CHECK(Expansion(-2.5).approximate() == -2.5);
  CHECK((-Expansion(-2.5)).sign() == 1);
  CHECK((Expansion(1) - Expansion(1)).sign() == 0);
  CHECK((Expansion(1) - Expansion(1)).size() == 0);
  const Expansion sum = Expansion(1) + Expansion(0x1p-80);  // not representable as one double
  CHECK(sum.size() == 2);
  CHECK((sum - Expansion(1)).sign() == 1);
  CHECK((sum - Expansion(1) - Expansion(0x1p-80)).sign() == 0);
  // (1 + 2^-52)^2 - 1 - 2^-51 = 2^-104 exactly; in double it is 0.
  const Expansion x(1 + 0x1p-52);
  CHECK((x * x - Expansion(1) - Expansion(0x1p-51)).sign() == 1);
  CHECK((x * x - Expansion(1) - Expansion(0x1p-51) - Expansion(0x1p-104)).sign() == 0);
}

TEST_CASE("Expansion: a*b - c*d with catastrophic cancellation matches GMP", "[math][exact]") {
  WildDoubles wild(0xca7a'57f0ULL);
  for (int k = 0; k < 20'000; ++k) {
    const double a = wild.next(100), b = wild.next(100);
    // c*d within a few roundings of a*b: d = fl(a*b/c), sometimes nudged by an ulp.
    const double c = wild.next(100);
    double d = a * b / c;
    if (k % 3 == 1) d = std::nextafter(d, INFINITY);
    if (k % 3 == 2) d = std::nextafter(d, -INFINITY);
    require_same(leaf(a) * leaf(b) - leaf(c) * leaf(d));
    // Exactly zero: a*b - b*a, and products that agree by construction.
    REQUIRE((Expansion(a) * Expansion(b) - Expansion(b) * Expansion(a)).sign() == 0);
    const double scaled = std::ldexp(a, 7);
    REQUIRE(
        (Expansion(scaled) * Expansion(b) - Expansion(a) * Expansion(std::ldexp(b, 7))).sign() ==
        0);
  }
}

TEST_CASE("Expansion: factored and expanded forms are exactly equal", "[math][exact]") {
  WildDoubles wild(0xe4a'4d3dULL);
  for (int k = 0; k < 5'000; ++k) {
    const Expansion a(wild.next(60)), b(wild.next(60)), c(wild.next(60)), d(wild.next(60));
    const Expansion factored = (a + b) * (c - d) * (a - c);
    const Expansion expanded = a * c * a - a * d * a + b * c * a - b * d * a - a * c * c +
                               a * d * c - b * c * c + b * d * c;
    REQUIRE((factored - expanded).sign() == 0);
    REQUIRE(factored.sign() == (a + b).sign() * (c - d).sign() * (a - c).sign());
  }
}

TEST_CASE("Expansion: sums of wildly different magnitudes match GMP", "[math][exact]") {
  WildDoubles wild(0x5a'3e5ULL);
  for (int k = 0; k < 5'000; ++k) {
    // Terms that cancel in pairs, in shuffled order, plus one tiny term that decides the sign.
    std::vector<double> terms;
    for (int i = 0; i < 8; ++i) {
      const double t = wild.next(300);
      terms.push_back(t);
      terms.push_back(-t);
    }
    const double tiny = wild.next(20) * 0x1p-700;
    terms.push_back(tiny);
    std::shuffle(terms.begin(), terms.end(), std::mt19937_64(static_cast<std::uint64_t>(k)));
    Both sum = leaf(0);
    for (double t : terms) sum = sum + leaf(t);
    require_same(sum);
    REQUIRE(sum.e.sign() == (tiny > 0 ? 1 : -1));
  }
}

TEST_CASE("Expansion: random expression trees match GMP", "[math][exact]") {
  WildDoubles wild(0x7ee5ULL);
  for (int k = 0; k < 3'000; ++k) {
    std::vector<Both> pool;
    for (int i = 0; i < 6; ++i) pool.push_back(leaf(wild.next(k % 2 == 0 ? 30 : 120)));
    for (int step = 0; step < 12; ++step) {
      const Both& x = pool[wild.index(pool.size())];
      const Both& y = pool[wild.index(pool.size())];
      switch (wild.index(3)) {
        case 0:
          pool.push_back(x + y);
          break;
        case 1:
          pool.push_back(x - y);
          break;
        default:
          // Degree at most 8 keeps every component far from overflow and underflow.
          pool.push_back(x.degree + y.degree <= 8 ? x * y : x - y);
      }
      require_same(pool.back());
    }
  }
}

TEST_CASE("Expansion: nearly singular 3x3 determinants match GMP", "[math][exact]") {
  WildDoubles wild(0xde7ULL);
  for (int k = 0; k < 5'000; ++k) {
    double m[3][3];
    for (int j = 0; j < 3; ++j) {
      m[0][j] = wild.next(40);
      m[1][j] = wild.next(40);
      m[2][j] = m[0][j] + m[1][j];  // rounded: the matrix is singular only up to rounding
    }
    const auto at = [&](int i, int j) { return leaf(m[i][j]); };
    const Both det = at(0, 0) * (at(1, 1) * at(2, 2) - at(1, 2) * at(2, 1)) -
                     at(0, 1) * (at(1, 0) * at(2, 2) - at(1, 2) * at(2, 0)) +
                     at(0, 2) * (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0));
    require_same(det);
  }
}

TEST_CASE("sign_of: exact zeros", "[math][exact]") {
  exact::reset_fallback_count();
  const float x = 0.1f, y = 3e7f;
  // Exactly zero with no rounding anywhere: decided by the fast path.
  CHECK(exact::sign_of([&](auto lift) { return lift(x) - lift(x); }) == 0);
  CHECK(exact::sign_of([&](auto lift) { return lift(0.0f) * lift(y); }) == 0);
  CHECK(exact::sign_of([&](auto lift) { return lift(-0.0f); }) == 0);
  CHECK(exact::fallback_count() == 0);
  // Exactly zero only after cancellation of non-zero terms: the exact path decides.
  CHECK(exact::sign_of([&](auto lift) { return lift(x) * lift(y) - lift(y) * lift(x); }) == 0);
  CHECK(exact::fallback_count() == 1);
  CHECK(exact::sign_of([&](auto lift) {
          return (lift(x) + lift(y)) * (lift(x) - lift(y)) - lift(x) * lift(x) + lift(y) * lift(y);
        }) == 0);
  CHECK(exact::fallback_count() == 2);
}

TEST_CASE("sign_of: near-ties are decided exactly", "[math][exact]") {
  // fl(x*x) differs from x*x by 2^-46 for x = 1 + 2^-23 (in float); as double inputs the
  // product is exact, and the difference survives.
  const float x = 1 + 0x1p-23f;
  const float xx = x * x;
  CHECK(exact::sign_of([&](auto lift) { return lift(x) * lift(x) - lift(xx); }) == 1);
  CHECK(exact::sign_of([&](auto lift) { return lift(xx) - lift(x) * lift(x); }) == -1);
  // 2^60 + 2^-60 - 2^60.
  CHECK(exact::sign_of([&](auto lift) { return lift(0x1p60f) + lift(0x1p-60f) - lift(0x1p60f); }) ==
        1);
}

TEST_CASE(
    "sign_of: random near-collinear orientations match GMP, and the fallback counter "
    "counts exactly the undecided fast paths",
    "[math][exact]") {
  std::mt19937_64 rng(0x0e1e47ULL);
  std::uniform_real_distribution<double> coordinate(-10, 10), along(-2, 3);
  std::uint64_t fallbacks = 0;
  for (int k = 0; k < 200'000; ++k) {
    const float ax = static_cast<float>(coordinate(rng)), ay = static_cast<float>(coordinate(rng));
    const float bx = static_cast<float>(coordinate(rng)), by = static_cast<float>(coordinate(rng));
    const double t = k % 4 == 0 ? static_cast<double>(k % 7) : along(rng);
    // c on the line through a and b, rounded to float.
    const auto on_line = [t](float from, float to) {
      const double p = static_cast<double>(from), q = static_cast<double>(to);
      return static_cast<float>(p + t * (q - p));
    };
    const float cx = on_line(ax, bx), cy = on_line(ay, by);
    const auto orientation = [&](auto lift) {
      return (lift(bx) - lift(ax)) * (lift(cy) - lift(ay)) -
             (lift(by) - lift(ay)) * (lift(cx) - lift(ax));
    };
    // Evaluated on named rationals (gmpxx expression templates must not outlive operands).
    const auto q = [](float value) { return mpq_class(static_cast<double>(value)); };
    const mpq_class qax = q(ax), qay = q(ay), qbx = q(bx), qby = q(by), qcx = q(cx), qcy = q(cy);
    const mpq_class exact_value = (qbx - qax) * (qcy - qay) - (qby - qay) * (qcx - qax);
    const bool fast_decides =
        exact::filtered_sign(orientation(exact::FilteredLift{})) != exact::uncertain_sign;
    const std::uint64_t before = exact::fallback_count();
    const int sign = exact::sign_of(orientation);
    const std::uint64_t taken = exact::fallback_count() - before;
    INFO("a (" << ax << ", " << ay << ") b (" << bx << ", " << by << ") c (" << cx << ", " << cy
               << ")");
    REQUIRE(sign == sgn(exact_value));
    REQUIRE(taken == (fast_decides ? 0u : 1u));
    fallbacks += taken;
  }
  // The near-collinear cases do reach the exact path (and generic ones do not, above).
  CHECK(fallbacks > 1'000);
  CHECK(fallbacks < 100'000);
}

TEST_CASE("sign_of: coplanar and one-ulp-off orient3d in floats matches GMP", "[math][exact]") {
  // Degree 3 with products of up to 75 bits. d = a + s (b - a) + t (c - a) with small dyadic
  // s, t on integer points is exactly coplanar (the exact path must find the zero); half the
  // cases move one coordinate of d by an ulp.
  std::mt19937_64 rng(0x03d1ULL);
  std::uniform_int_distribution<int> coordinate(-1000, 1000), weight(-8, 16), axis(0, 2);
  std::uint64_t fallbacks = 0;
  for (int k = 0; k < 100'000; ++k) {
    float p[4][3];
    for (int v = 0; v < 3; ++v)
      for (float& x : p[v]) x = static_cast<float>(coordinate(rng));
    const float s = 0.125f * static_cast<float>(weight(rng)),
                t = 0.125f * static_cast<float>(weight(rng));
    for (int i = 0; i < 3; ++i)
      p[3][i] = p[0][i] + s * (p[1][i] - p[0][i]) + t * (p[2][i] - p[0][i]);
    if (k % 2 == 1) {
      float& x = p[3][axis(rng)];
      x = std::nextafter(x, k % 4 == 1 ? INFINITY : -INFINITY);
    }
    const auto orient = [&](auto lift) {
      const auto d = [&](int v, int i) { return lift(p[v][i]) - lift(p[0][i]); };
      return d(1, 0) * (d(2, 1) * d(3, 2) - d(2, 2) * d(3, 1)) -
             d(1, 1) * (d(2, 0) * d(3, 2) - d(2, 2) * d(3, 0)) +
             d(1, 2) * (d(2, 0) * d(3, 1) - d(2, 1) * d(3, 0));
    };
    mpq_class q[4][3];
    for (int v = 0; v < 4; ++v)
      for (int i = 0; i < 3; ++i)
        q[v][i] = mpq_class(static_cast<double>(p[v][i])) -
                  (v == 0 ? 0 : mpq_class(static_cast<double>(p[0][i])));
    const mpq_class exact_value = q[1][0] * (q[2][1] * q[3][2] - q[2][2] * q[3][1]) -
                                  q[1][1] * (q[2][0] * q[3][2] - q[2][2] * q[3][0]) +
                                  q[1][2] * (q[2][0] * q[3][1] - q[2][1] * q[3][0]);
    const std::uint64_t before = exact::fallback_count();
    REQUIRE(exact::sign_of(orient) == sgn(exact_value));
    fallbacks += exact::fallback_count() - before;
  }
  CHECK(fallbacks > 1'000);
}

TEST_CASE("sign_of: ill-conditioned dot products are decided exactly", "[math][exact]") {
  // x0 y0 + x1 y1 + x2 y2 + x3 y3 where the first two products (about 2^40, each rounded by
  // about 2^-13 in the fast path) nearly cancel, and x3 y3 cancels the rest to within an ulp of
  // 1: the double value is noise, so only an honest error bound sends it to the exact path.
  WildDoubles wild(0xd0b1e5ULL);
  std::uint64_t positive = 0, negative = 0;
  for (int k = 0; k < 50'000; ++k) {
    const double x0 = std::ldexp(std::fabs(wild.next(0)), 20);
    const double y0 = std::ldexp(std::fabs(wild.next(0)), 20);
    const double x1 = -x0;
    const double y1 = std::nextafter(y0, k % 2 == 0 ? INFINITY : -INFINITY);
    const double x2 = wild.next(1), y2 = wild.next(1), x3 = wild.next(1);
    const mpq_class partial = mpq_class(x0) * y0 + mpq_class(x1) * y1 + mpq_class(x2) * y2;
    const mpq_class y3_exact = -partial / x3;
    double y3 = y3_exact.get_d();
    if (k % 3 == 1) y3 = std::nextafter(y3, INFINITY);
    if (k % 3 == 2) y3 = std::nextafter(y3, -INFINITY);
    const mpq_class exact_value = partial + mpq_class(x3) * y3;
    const int sign = exact::sign_of([&](auto lift) {
      return lift(x0) * lift(y0) + lift(x1) * lift(y1) + lift(x2) * lift(y2) + lift(x3) * lift(y3);
    });
    REQUIRE(sign == sgn(exact_value));
    positive += sign > 0;
    negative += sign < 0;
  }
  CHECK(positive > 10'000);
  CHECK(negative > 10'000);
}

TEST_CASE("fallback_count is per thread and resets", "[math][exact]") {
  const float x = 0.1f, y = 0.7f;
  const auto tie = [&](auto lift) { return lift(x) * lift(y) - lift(y) * lift(x); };
  exact::reset_fallback_count();
  CHECK(exact::sign_of(tie) == 0);
  CHECK(exact::sign_of(tie) == 0);
  CHECK(exact::sign_of([&](auto lift) { return lift(x) * lift(y); }) == 1);
  CHECK(exact::fallback_count() == 2);
  std::uint64_t other_start = 99, other_end = 99;
  std::thread other([&] {
    other_start = exact::fallback_count();
    (void)exact::sign_of(tie);
    other_end = exact::fallback_count();
  });
  other.join();
  CHECK(other_start == 0);
  CHECK(other_end == 1);
  CHECK(exact::fallback_count() == 2);
  exact::reset_fallback_count();
  CHECK(exact::fallback_count() == 0);
}

TEST_CASE("Expansion: values past the in-place components spill to the heap exactly",
          "[math][exact]") {
  // Doubles with full significands 2^60 apart cannot merge: each stays a component of its own
  // (17 of them, in place), and every square of them stays within the double range.
  WildDoubles wild(36);
  Both sum = leaf(0);
  for (int i = 0; i < 17; ++i) sum = sum + leaf(std::ldexp(wild.next(0), i * 60 - 480));
  REQUIRE(sum.e.size() == 17);
  REQUIRE_FALSE(sum.e.spilled());
  require_same(sum);
  // Its square has far more components than fit in place; products, differences, negations,
  // copies and moves of a spilled expansion stay exact, and a value that fits again is right.
  const Both square = sum * sum;
  REQUIRE(square.e.spilled());
  REQUIRE(square.e.size() > Expansion::inline_capacity);
  require_same(square);
  require_same(square - sum * leaf(3.0));
  require_same(Both{-square.e, -square.q, 2});
  Expansion copy = square.e;
  const Expansion moved = std::move(copy);
  REQUIRE((moved - square.e).sign() == 0);
  const Both back = square - square + leaf(0.5);
  REQUIRE(back.e.size() == 1);
  require_same(back);
}
