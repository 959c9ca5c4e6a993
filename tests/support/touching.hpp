#pragma once
/// \file
/// Shared checks of the library's touching predicates `intersects(a, b)` against the oracles.

#include "support/describe.hpp"
#include "support/exact_oracle.hpp"
#include "support/property.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>

namespace trisect::testing {

/// The library's answer for `intersects(a, b)`, checked to equal `intersects(b, a)` and the
/// exact oracle `oracle::touches(a, b)`. The library's overloads are found by argument-dependent
/// lookup, so the calling test includes the predicate's header.
template <class A, class B>
bool touches_checked(const A& a, const B& b) {
  INFO(describe(a) << " " << describe(b));
  const bool answer = intersects(a, b);
  CHECK(intersects(b, a) == answer);
  CHECK(oracle::touches(a, b) == answer);
  return answer;
}

/// Property test of `intersects(a, b)` against `oracle::touches(a, b)`: `make(generator)`
/// returns the pair {a, b}. Prints the fallback line, requires zero disagreements and both
/// answers common in every regime. `divisor` divides the case count (`compare_with_oracle`).
template <class Make>
void require_touching_agrees(const char* predicate, std::uint64_t seed, const Make& make,
                             std::uint64_t divisor = 1) {
  using Input = decltype(make(std::declval<CaseGenerator&>()));
  const PropertyResult result = compare_with_oracle(
      seed, make, [](const Input& in) { return intersects(in.first, in.second); },
      [](const Input& in) { return oracle::touches(in.first, in.second); },
      [](const Input& in) { return describe(in.first) + " " + describe(in.second); }, divisor);
  require_agreement(predicate, result);
  require_both_answers(result);
}

}  // namespace trisect::testing
