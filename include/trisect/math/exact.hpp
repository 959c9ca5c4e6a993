#pragma once
/// \file
/// Exact signs of polynomials in float inputs: a double-precision fast path with a proven error
/// bound, and exact expansion arithmetic when the bound cannot decide.
///
/// A predicate is written once as a generic expression `[&](auto lift) { ... }` over `lift(x)`
/// (each float input lifted into the number type) using only `+`, binary `-`, unary `-` and
/// `*`. `sign_of` evaluates it first with `Filtered` doubles, whose error bound follows the
/// forward analysis of Higham ("Accuracy and Stability of Numerical Algorithms", §3.1), with the
/// tight handling of differences of exact inputs from Shewchuk ("Adaptive Precision
/// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997). Only when the value is
/// within that bound of zero does it evaluate the same expression with `Expansion`s (Shewchuk's
/// nonoverlapping expansions), which are exact. Float inputs keep every intermediate of the
/// degrees used in trisect (at most 8) far from double overflow and underflow, which the bound
/// relies on.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace trisect::exact {

/// Unit roundoff of IEEE double precision, 2^-53.
inline constexpr double unit_roundoff = 0x1p-53;

/// A double computed from exact inputs by a tree of roundings, with `magnitude` bounding the sum
/// of the absolute values of the exact polynomial's monomials, and `Order` the number of
/// roundings that can compound along any monomial. Then |value - exact| <= gamma_Order * that
/// sum, which `filtered_sign` turns into a decision.
template <int Order>
struct Filtered {
  double value;      ///< The computed (rounded) value.
  double magnitude;  ///< Computed bound on the sum of |monomials|; 0 means exactly zero.
};

/// Lifts an exact input into the fast path: a leaf with no rounding error.
struct FilteredLift {
  /// `x` must be exactly representable (every float is).
  [[nodiscard]] Filtered<0> operator()(double x) const noexcept {
    return {x, std::fabs(x)};  // branch-free (a compare-and-negate compiles to a branch)
  }
};

template <int A, int B>
[[nodiscard]] constexpr Filtered<std::max(A, B) + 1> operator+(Filtered<A> a, Filtered<B> b) {
  const double value = a.value + b.value;
  // Sum of two exact leaves: the result is (a + b)(1 + delta), a single monomial.
  if constexpr (A == 0 && B == 0)
    return {value, std::fabs(value)};
  else
    return {value, a.magnitude + b.magnitude};
}

template <int A, int B>
[[nodiscard]] constexpr Filtered<std::max(A, B) + 1> operator-(Filtered<A> a, Filtered<B> b) {
  const double value = a.value - b.value;
  if constexpr (A == 0 && B == 0)
    return {value, std::fabs(value)};
  else
    return {value, a.magnitude + b.magnitude};
}

template <int A>
[[nodiscard]] constexpr Filtered<A> operator-(Filtered<A> a) {
  return {-a.value, a.magnitude};
}

template <int A, int B>
[[nodiscard]] constexpr Filtered<A + B + 1> operator*(Filtered<A> a, Filtered<B> b) {
  return {a.value * b.value, a.magnitude * b.magnitude};
}

/// Returned by `filtered_sign` when the fast path cannot decide.
inline constexpr int uncertain_sign = 2;

/// A bound on |f.value - exact value|: (Order + 2)·u·magnitude exceeds gamma_Order·(exact
/// magnitude) including the rounding of the magnitude itself.
template <int Order>
[[nodiscard]] constexpr double error_bound(Filtered<Order> f) noexcept {
  return (Order + 2) * unit_roundoff * f.magnitude;
}

/// The sign (-1, 0, +1) of the exact value behind `f`, or `uncertain_sign` when |value| lies
/// within the error bound.
template <int Order>
[[nodiscard]] constexpr int filtered_sign(Filtered<Order> f) noexcept {
  const double bound = error_bound(f);
  if (f.value > bound) return 1;
  if (f.value < -bound) return -1;
  if (f.magnitude == 0) return 0;
  return uncertain_sign;
}

/// An exact real number as a nonoverlapping sum of doubles (Shewchuk 1997), components in
/// increasing magnitude, zeros eliminated. Exact as long as no component overflows or
/// underflows, which holds for the low-degree polynomials in float inputs used here. Up to
/// `inline_capacity` components live inside the object, more on the heap: the predicates'
/// expansions fit in place, so exact arithmetic allocates nothing (a fallback that called
/// malloc on every operation was 26 times slower where a worker thread could not get a malloc
/// arena of its own, as under an address-space limit).
class Expansion {
 public:
  /// Components kept in place (more go to the heap).
  static constexpr std::size_t inline_capacity = 32;

  /// Zero.
  Expansion() noexcept {}
  /// Exactly `value`.
  explicit Expansion(double value) noexcept;
  /// Copies.
  Expansion(const Expansion& other) { assign(other); }
  Expansion& operator=(const Expansion& other) {
    if (this != &other) assign(other);
    return *this;
  }
  /// Moves (the heap part, if any, changes hands).
  Expansion(Expansion&& other) noexcept { take(other); }
  Expansion& operator=(Expansion&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }
  ~Expansion() = default;

  /// Exact sum.
  friend Expansion operator+(const Expansion& a, const Expansion& b);
  /// Exact difference.
  friend Expansion operator-(const Expansion& a, const Expansion& b);
  /// Exact product.
  friend Expansion operator*(const Expansion& a, const Expansion& b);
  /// Exact negation.
  Expansion operator-() const;

  /// -1, 0 or +1: the sign of the exact value.
  [[nodiscard]] int sign() const noexcept;
  /// The exact value rounded roughly to double (for diagnostics, not decisions).
  [[nodiscard]] double approximate() const noexcept;
  /// Number of nonzero components.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// True when the components spilled to the heap (more than `inline_capacity` were needed).
  [[nodiscard]] bool spilled() const noexcept { return !heap_.empty(); }

 private:
  /// The components, [0, size()).
  [[nodiscard]] const double* data() const noexcept {
    return heap_.empty() ? in_place_ : heap_.data();
  }
  [[nodiscard]] double* data() noexcept { return heap_.empty() ? in_place_ : heap_.data(); }
  /// Room for `capacity` components, the value discarded (size 0): where to write them.
  double* reset(std::size_t capacity);
  void assign(const Expansion& other);
  void take(Expansion& other) noexcept;

  double in_place_[inline_capacity];  // components while they fit (only [0, size_) is set)
  std::vector<double> heap_;          // components beyond that: empty unless in use
  std::size_t size_ = 0;
};

/// Lifts an exact input into exact arithmetic.
struct ExpansionLift {
  [[nodiscard]] Expansion operator()(double x) const { return Expansion(x); }
};

/// Exact fallbacks taken so far by the calling thread (each `sign_of` that the fast path could
/// not decide counts one). Per thread, so parallel queries do not contend on it.
[[nodiscard]] std::uint64_t fallback_count() noexcept;

/// Sets the calling thread's fallback count back to zero.
void reset_fallback_count() noexcept;

namespace detail {
void count_fallback() noexcept;

template <class Expression>
[[gnu::noinline, gnu::cold]] int exact_sign(const Expression& expression) {
  count_fallback();
  return expression(ExpansionLift{}).sign();
}

template <class Expression>
[[gnu::noinline, gnu::cold]] double exact_value(const Expression& expression) {
  count_fallback();
  return expression(ExpansionLift{}).approximate();
}
}  // namespace detail

/// The exact sign (-1, 0, +1) of `expression`, a generic callable `(auto lift) -> number`
/// built from lifted float inputs with +, -, * only. Fast path first; exact when needed.
template <class Expression>
[[nodiscard]] inline int sign_of(const Expression& expression) {
  const int fast = filtered_sign(expression(FilteredLift{}));
  if (fast != uncertain_sign) [[likely]]
    return fast;
  return detail::exact_sign(expression);
}

/// The exact value of `expression` (as for `sign_of`) to within a relative error of 2^-26: the
/// fast path's value when its error bound is that small relative to it, otherwise the exact
/// expansion rounded to double (a relative error of a few units in the last place). Exactly 0
/// when the exact value is 0.
template <class Expression>
[[nodiscard]] inline double value_of(const Expression& expression) {
  const auto fast = expression(FilteredLift{});
  if (std::fabs(fast.value) > 0x1p26 * error_bound(fast)) [[likely]]
    return fast.value;
  return detail::exact_value(expression);
}

}  // namespace trisect::exact
