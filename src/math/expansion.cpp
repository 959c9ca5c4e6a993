// Exact expansion arithmetic after Shewchuk, "Adaptive Precision Floating-Point Arithmetic and
// Fast Robust Geometric Predicates" (Discrete & Computational Geometry 18, 1997): Two-Sum,
// Two-Product (here through fma), Fast-Expansion-Sum and Scale-Expansion with zero elimination.
// Correctness relies on IEEE round-to-nearest-even doubles without excess precision, which
// x86-64 SSE and AArch64 give; this file is built with -ffp-contract=off so that no expression
// is fused behind our back.
#include "trisect/math/exact.hpp"

#include <cmath>
#include <cstddef>

namespace trisect::exact {
namespace {

struct SumAndError {
  double sum;
  double error;
};

// Knuth's Two-Sum: sum + error == a + b exactly.
SumAndError two_sum(double a, double b) {
  const double sum = a + b;
  const double b_virtual = sum - a;
  const double a_virtual = sum - b_virtual;
  return {sum, (a - a_virtual) + (b - b_virtual)};
}

// Two-Product: product + error == a * b exactly (fma computes the error term exactly).
SumAndError two_product(double a, double b) {
  const double product = a * b;
  return {product, std::fma(a, b, -product)};
}

// Fast-Expansion-Sum with zero elimination: merge by magnitude, then one Two-Sum chain.
std::vector<double> add(const std::vector<double>& e, const std::vector<double>& f) {
  if (e.empty()) return f;
  if (f.empty()) return e;
  std::vector<double> merged;
  merged.reserve(e.size() + f.size());
  std::merge(e.begin(), e.end(), f.begin(), f.end(), std::back_inserter(merged),
             [](double x, double y) { return std::fabs(x) < std::fabs(y); });
  std::vector<double> result;
  result.reserve(merged.size());
  double q = merged[0];
  for (std::size_t i = 1; i < merged.size(); ++i) {
    const SumAndError step = two_sum(q, merged[i]);
    if (step.error != 0) result.push_back(step.error);
    q = step.sum;
  }
  if (q != 0) result.push_back(q);
  return result;
}

// Scale-Expansion with zero elimination: e * b exactly.
std::vector<double> scale(const std::vector<double>& e, double b) {
  std::vector<double> result;
  if (e.empty() || b == 0) return result;
  result.reserve(2 * e.size());
  SumAndError product = two_product(e[0], b);
  if (product.error != 0) result.push_back(product.error);
  double q = product.sum;
  for (std::size_t i = 1; i < e.size(); ++i) {
    product = two_product(e[i], b);
    const SumAndError low = two_sum(q, product.error);
    if (low.error != 0) result.push_back(low.error);
    const SumAndError high = two_sum(product.sum, low.sum);
    if (high.error != 0) result.push_back(high.error);
    q = high.sum;
  }
  if (q != 0) result.push_back(q);
  return result;
}

thread_local std::uint64_t thread_fallbacks = 0;

}  // namespace

Expansion::Expansion(double value) {
  if (value != 0) components_.push_back(value);
}

Expansion operator+(const Expansion& a, const Expansion& b) {
  Expansion result;
  result.components_ = add(a.components_, b.components_);
  return result;
}

Expansion Expansion::operator-() const {
  Expansion result = *this;
  for (double& component : result.components_) component = -component;
  return result;
}

Expansion operator-(const Expansion& a, const Expansion& b) { return a + (-b); }

Expansion operator*(const Expansion& a, const Expansion& b) {
  const Expansion& longer = a.size() >= b.size() ? a : b;
  const Expansion& shorter = a.size() >= b.size() ? b : a;
  Expansion result;
  for (double factor : shorter.components_)
    result.components_ = add(result.components_, scale(longer.components_, factor));
  return result;
}

int Expansion::sign() const noexcept {
  if (components_.empty()) return 0;
  return components_.back() > 0 ? 1 : -1;
}

double Expansion::approximate() const noexcept {
  double sum = 0;
  for (double component : components_) sum += component;
  return sum;
}

std::uint64_t fallback_count() noexcept { return thread_fallbacks; }

void reset_fallback_count() noexcept { thread_fallbacks = 0; }

namespace detail {
void count_fallback() noexcept { ++thread_fallbacks; }
}  // namespace detail

}  // namespace trisect::exact
