// Exact expansion arithmetic after Shewchuk, "Adaptive Precision Floating-Point Arithmetic and
// Fast Robust Geometric Predicates" (Discrete & Computational Geometry 18, 1997): Two-Sum,
// Two-Product (here through fma), Fast-Expansion-Sum and Scale-Expansion with zero elimination.
// Correctness relies on IEEE round-to-nearest-even doubles without excess precision, which
// x86-64 SSE and AArch64 give; this file is built with -ffp-contract=off so that no expression
// is fused behind our back.
#include "trisect/math/exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

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

// Fast-Expansion-Sum with zero elimination: the components of e and f merged by magnitude (on
// equal magnitudes e's first, as std::merge takes them), one Two-Sum chain over them, written
// to `out` (room for e_size + f_size); returns how many were written.
std::size_t add(const double* e, std::size_t e_size, const double* f, std::size_t f_size,
                double* out) {
  std::size_t i = 0, j = 0, written = 0;
  const auto next = [&] {
    if (j < f_size && (i == e_size || std::fabs(f[j]) < std::fabs(e[i]))) return f[j++];
    return e[i++];
  };
  double q = next();
  while (i + j < e_size + f_size) {
    const SumAndError step = two_sum(q, next());
    if (step.error != 0) out[written++] = step.error;
    q = step.sum;
  }
  if (q != 0) out[written++] = q;
  return written;
}

// Scale-Expansion with zero elimination: e * b exactly, written to `out` (room for 2 e_size);
// returns how many were written. e is not empty and b is not 0.
std::size_t scale(const double* e, std::size_t e_size, double b, double* out) {
  std::size_t written = 0;
  SumAndError product = two_product(e[0], b);
  if (product.error != 0) out[written++] = product.error;
  double q = product.sum;
  for (std::size_t i = 1; i < e_size; ++i) {
    product = two_product(e[i], b);
    const SumAndError low = two_sum(q, product.error);
    if (low.error != 0) out[written++] = low.error;
    const SumAndError high = two_sum(product.sum, low.sum);
    if (high.error != 0) out[written++] = high.error;
    q = high.sum;
  }
  if (q != 0) out[written++] = q;
  return written;
}

thread_local std::uint64_t thread_fallbacks = 0;

}  // namespace

Expansion::Expansion(double value) noexcept {
  if (value != 0) in_place_[size_++] = value;
}

double* Expansion::reset(std::size_t capacity) {
  size_ = 0;
  if (capacity <= inline_capacity) {
    heap_.clear();
    heap_.shrink_to_fit();
    return in_place_;
  }
  heap_.resize(capacity);
  return heap_.data();
}

void Expansion::assign(const Expansion& other) {
  double* to = reset(other.size_);
  std::copy_n(other.data(), other.size_, to);
  size_ = other.size_;
}

void Expansion::take(Expansion& other) noexcept {
  heap_ = std::move(other.heap_);
  other.heap_.clear();
  if (heap_.empty()) std::copy_n(other.in_place_, other.size_, in_place_);
  size_ = other.size_;
  other.size_ = 0;
}

Expansion operator+(const Expansion& a, const Expansion& b) {
  if (a.size_ == 0) return b;
  if (b.size_ == 0) return a;
  Expansion result;
  double* out = result.reset(a.size_ + b.size_);
  result.size_ = add(a.data(), a.size_, b.data(), b.size_, out);
  return result;
}

Expansion Expansion::operator-() const {
  Expansion result = *this;
  double* components = result.data();
  for (std::size_t i = 0; i < result.size_; ++i) components[i] = -components[i];
  return result;
}

Expansion operator-(const Expansion& a, const Expansion& b) { return a + (-b); }

Expansion operator*(const Expansion& a, const Expansion& b) {
  const Expansion& longer = a.size() >= b.size() ? a : b;
  const Expansion& shorter = a.size() >= b.size() ? b : a;
  Expansion result, scaled, sum;
  for (std::size_t k = 0; k < shorter.size_; ++k) {
    double* out = scaled.reset(2 * longer.size_);
    scaled.size_ = scale(longer.data(), longer.size_, shorter.data()[k], out);
    if (result.size_ == 0) {
      std::swap(result, scaled);
      continue;
    }
    if (scaled.size_ == 0) continue;
    double* summed = sum.reset(result.size_ + scaled.size_);
    sum.size_ = add(result.data(), result.size_, scaled.data(), scaled.size_, summed);
    std::swap(result, sum);
  }
  return result;
}

int Expansion::sign() const noexcept {
  if (size_ == 0) return 0;
  return data()[size_ - 1] > 0 ? 1 : -1;
}

double Expansion::approximate() const noexcept {
  double sum = 0;
  for (std::size_t i = 0; i < size_; ++i) sum += data()[i];
  return sum;
}

std::uint64_t fallback_count() noexcept { return thread_fallbacks; }

void reset_fallback_count() noexcept { thread_fallbacks = 0; }

namespace detail {
void count_fallback() noexcept { ++thread_fallbacks; }
}  // namespace detail

}  // namespace trisect::exact
