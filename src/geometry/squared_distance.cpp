// Exact squared distances as fractions of polynomials in the float coordinates.
//
// Each form is written once, generically over a `lift` (exact.hpp): evaluated with `Filtered`
// doubles for its bounds, with expansions for its value and sign, and with big integers for an
// exact comparison. Comparing N1 / D1 with N2 / D2 means the sign of N1·D2 - N2·D1, a
// polynomial of degree up to 10 (a face against a face): between subnormal and FLT_MAX
// coordinates its monomials span about 2^-1490 to 2^1290, beyond the reach of double
// expansions, so the comparison scales every float by 2^149 (making it an integer) and uses
// GMP's integers, which have no range limit. It runs only when the double bounds overlap.
#include "trisect/geometry/squared_distance.hpp"

#include "trisect/math/detail/lifted3.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace trisect {
namespace {

using detail::cross;
using detail::difference;
using detail::dot;

/// Numerator and denominator of a form.
template <class N, class D>
struct Fraction {
  N numerator;
  D denominator;
};
template <class N, class D>
Fraction(N, D) -> Fraction<N, D>;

/// The fraction of form `form` over `x` built from `lift`; `one` is the lifted constant 1 (not
/// a coordinate: never scaled).
template <DistanceForm form, class Lift, class One>
auto fraction(const std::array<Vec3, 4>& x, const Lift& lift, const One& one) {
  if constexpr (form == DistanceForm::point_point) {
    const auto d = difference(x[0], x[1], lift);
    return Fraction{dot(d, d), one};
  } else if constexpr (form == DistanceForm::point_line) {
    const auto u = difference(x[2], x[1], lift);
    const auto c = cross(u, difference(x[0], x[1], lift));
    return Fraction{dot(c, c), dot(u, u)};
  } else if constexpr (form == DistanceForm::point_plane) {
    const auto n = cross(difference(x[2], x[1], lift), difference(x[3], x[1], lift));
    const auto offset = dot(n, difference(x[0], x[1], lift));
    return Fraction{offset * offset, dot(n, n)};
  } else {
    const auto m = cross(difference(x[1], x[0], lift), difference(x[3], x[2], lift));
    const auto offset = dot(m, difference(x[2], x[0], lift));
    return Fraction{offset * offset, dot(m, m)};
  }
}

template <DistanceForm form>
using FormTag = std::integral_constant<DistanceForm, form>;

/// Calls `use(FormTag<form>{})` for the form of `distance`, so that `use` can instantiate the
/// form's own fraction.
template <class Use>
decltype(auto) dispatch(const SquaredDistance& distance, Use&& use) {
  switch (distance.form) {
    case DistanceForm::point_point:
      return use(FormTag<DistanceForm::point_point>{});
    case DistanceForm::point_line:
      return use(FormTag<DistanceForm::point_line>{});
    case DistanceForm::point_plane:
      return use(FormTag<DistanceForm::point_plane>{});
    case DistanceForm::line_line:
      return use(FormTag<DistanceForm::line_line>{});
  }
  __builtin_unreachable();
}

// Bounds ---------------------------------------------------------------------------------

constexpr double inflate = 1 + 0x1p-50;  // covers a few roundings, relative
constexpr double deflate = 1 - 0x1p-50;
constexpr double tiny = 0x1p-900;  // below every nonzero value of the forms' degrees
constexpr double subnormal_slack = 0x1p-1070;

template <int A, int B>
DistanceBounds bounds_from(exact::Filtered<A> n, exact::Filtered<B> d) noexcept {
  const double n_error = exact::error_bound(n), d_error = exact::error_bound(d);
  // Every nonzero numerator and denominator is at least `tiny` (products of at most six
  // differences of floats, each a multiple of 2^-149), so an absolute `tiny` covers the
  // roundings of these few operations wherever they land.
  const double n_low = (n.value - n_error) * deflate - tiny;
  const double n_high = (n.value + n_error) * inflate + tiny;
  const double d_low = (d.value - d_error) * deflate - tiny;
  const double d_high = (d.value + d_error) * inflate + tiny;
  DistanceBounds bounds;
  bounds.lower = n_low > 0 ? std::max(n_low / d_high * deflate - subnormal_slack, 0.0) : 0.0;
  bounds.upper = d_low > 0 ? n_high / d_low * inflate + subnormal_slack
                           : std::numeric_limits<double>::infinity();
  return bounds;
}

// Exact comparison with big integers ------------------------------------------------------

/// A big integer; its operators evaluate at once (no expression templates kept across `auto`).
struct Big {
  mpz_class value;
};
Big operator+(const Big& a, const Big& b) { return {mpz_class(a.value + b.value)}; }
Big operator-(const Big& a, const Big& b) { return {mpz_class(a.value - b.value)}; }
Big operator*(const Big& a, const Big& b) { return {mpz_class(a.value * b.value)}; }

/// A float times 2^149, an integer (the smallest subnormal is 2^-149), exactly.
struct BigLift {
  Big operator()(float x) const {
    Big big;
    mpz_set_d(big.value.get_mpz_t(), std::ldexp(double(x), 149));  // exact: at most 2^277
    return big;
  }
};

/// Numerator and denominator as big integers, the numerator scaled by 2^(149·2) more than the
/// denominator for every form (each is homogeneous, the numerator two degrees above).
Fraction<Big, Big> big_fraction(const SquaredDistance& distance) {
  return dispatch(distance, [&](auto form) {
    const auto f = fraction<form()>(distance.points, BigLift{}, Big{mpz_class(1)});
    return Fraction<Big, Big>{f.numerator, f.denominator};
  });
}

[[gnu::cold, gnu::noinline]] int compare_exactly(const SquaredDistance& a,
                                                 const SquaredDistance& b) {
  exact::detail::count_fallback();
  const auto fa = big_fraction(a), fb = big_fraction(b);
  const mpz_class left = fa.numerator.value * fb.denominator.value;
  const mpz_class right = fb.numerator.value * fa.denominator.value;
  return cmp(left, right) < 0 ? -1 : (left == right ? 0 : 1);
}

/// True when `a` and `b` are the same fraction by construction: the same two points (in
/// either order), or the same point and the line through the same two vertices (in either
/// order). Ties between neighbouring triangles are mostly these (a query point nearest a
/// shared vertex or edge; two meshes nearest at a vertex of each, found from both sides).
bool same_fraction(const SquaredDistance& a, const SquaredDistance& b) noexcept {
  if (a.form != b.form) return false;
  const auto& x = a.points;
  const auto& y = b.points;
  switch (a.form) {
    case DistanceForm::point_point:
      return (x[0] == y[0] && x[1] == y[1]) || (x[0] == y[1] && x[1] == y[0]);
    case DistanceForm::point_line:
      return x[0] == y[0] && ((x[1] == y[1] && x[2] == y[2]) || (x[1] == y[2] && x[2] == y[1]));
    default:
      return false;
  }
}

}  // namespace

DistanceBounds bounds_of(const SquaredDistance& distance) noexcept {
  return dispatch(distance, [&](auto form) {
    const auto f =
        fraction<form()>(distance.points, exact::FilteredLift{}, exact::Filtered<0>{1.0, 1.0});
    return bounds_from(f.numerator, f.denominator);
  });
}

bool is_zero(const SquaredDistance& distance) {
  // The numerator's sign (a square: 0 or positive), exactly.
  return dispatch(distance, [&](auto form) {
    return exact::sign_of([&](auto lift) {
             return fraction<form()>(distance.points, lift, lift(1.0)).numerator;
           }) == 0;
  });
}

int compare(const SquaredDistance& a, const DistanceBounds& a_bounds, const SquaredDistance& b,
            const DistanceBounds& b_bounds) {
  if (a_bounds.upper < b_bounds.lower) return -1;
  if (a_bounds.lower > b_bounds.upper) return 1;
  if (same_fraction(a, b)) return 0;
  // Touching (distance 0) is the common tie: decided by two cheap exact signs.
  if (a_bounds.lower == 0 && b_bounds.lower == 0) {
    const bool a_zero = is_zero(a), b_zero = is_zero(b);
    if (a_zero || b_zero) return a_zero && b_zero ? 0 : (a_zero ? -1 : 1);
  }
  return compare_exactly(a, b);
}

int compare(const SquaredDistance& a, const SquaredDistance& b) {
  return compare(a, bounds_of(a), b, bounds_of(b));
}

double distance_of(const SquaredDistance& distance) {
  // sqrt(N) / sqrt(D) rather than sqrt(N / D): the quotient of the extremes underflows.
  return dispatch(distance, [&](auto form) {
    const double n = exact::value_of(
        [&](auto lift) { return fraction<form()>(distance.points, lift, lift(1.0)).numerator; });
    if (n == 0) return 0.0;
    const double d = exact::value_of(
        [&](auto lift) { return fraction<form()>(distance.points, lift, lift(1.0)).denominator; });
    return std::sqrt(n) / std::sqrt(d);
  });
}

namespace {

// Coordinate `axis` of the nearest point times the form's denominator is a polynomial (of
// degree 3 for a line, 5 for a plane): evaluated, like the denominator, to a relative 2^-26,
// their quotient is within about 2^-25 of the exact coordinate, however long the edge or large
// the triangle compared with the distance.

/// Coordinate `axis` of u + (v - u)·t, t = (p - u)·(v - u) / |v - u|², points {p, u, v}.
double line_point_coordinate(const std::array<Vec3, 4>& x, int axis) {
  const double numerator = exact::value_of([&](auto lift) {
    const auto u = difference(x[2], x[1], lift);
    return lift(x[1][axis]) * dot(u, u) +
           (lift(x[2][axis]) - lift(x[1][axis])) * dot(difference(x[0], x[1], lift), u);
  });
  const double denominator = exact::value_of([&](auto lift) {
    const auto u = difference(x[2], x[1], lift);
    return dot(u, u);
  });
  return numerator / denominator;
}

/// Coordinate `axis` of p - n·((p - a)·n) / |n|², n = (b - a) × (c - a), points {p, a, b, c}.
double plane_point_coordinate(const std::array<Vec3, 4>& x, int axis) {
  const auto normal = [&](auto lift) {
    return cross(difference(x[2], x[1], lift), difference(x[3], x[1], lift));
  };
  const double numerator = exact::value_of([&](auto lift) {
    const auto n = normal(lift);
    const auto offset = dot(n, difference(x[0], x[1], lift));
    const auto component = axis == 0 ? n.x : (axis == 1 ? n.y : n.z);
    return lift(x[0][axis]) * dot(n, n) - component * offset;
  });
  const double denominator = exact::value_of([&](auto lift) {
    const auto n = normal(lift);
    return dot(n, n);
  });
  return numerator / denominator;
}

}  // namespace

Vec3 nearest_point_of(const SquaredDistance& distance, const Aabb& within) {
  const bool line = distance.form == DistanceForm::point_line;
  if (!line && distance.form != DistanceForm::point_plane)
    return distance.points[1];  // the point q itself (for line_line, documented as meaningless)
  Vec3 rounded;
  for (int axis = 0; axis < 3; ++axis) {
    const double coordinate = line ? line_point_coordinate(distance.points, axis)
                                   : plane_point_coordinate(distance.points, axis);
    rounded[axis] = static_cast<float>(
        std::clamp(coordinate, double(within.min[axis]), double(within.max[axis])));
  }
  return rounded;
}

}  // namespace trisect
