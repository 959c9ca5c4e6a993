#pragma once
/// \file
/// Randomised comparison of a library predicate with its exact oracle over all regimes.

#include "support/random_cases.hpp"

#include <trisect/math/exact.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace trisect::testing {

/// Cases per property test: $TRISECT_PROPERTY_CASES when set to a positive integer (the
/// sanitizer run lowers it), else 1,000,000.
[[nodiscard]] std::uint64_t property_case_count();

/// True when `property_case_count()` is below its default (the sanitizer run): tests whose
/// oracle is slow on large meshes may then check fewer queries there.
[[nodiscard]] bool reduced_run();

/// Tallies of one property run, per regime (indexed by `Regime`).
struct PropertyResult {
  static constexpr std::size_t max_reported = 5;

  std::uint64_t disagreements = 0;
  std::vector<std::string> first_disagreements;  ///< Up to `max_reported`, in full precision.
  std::array<std::uint64_t, all_regimes.size()> cases{};
  std::array<std::uint64_t, all_regimes.size()> fallbacks{};  ///< Exact fallbacks taken.
  /// Oracle answers -1, 0, +1 (false = 0, true = 1) per regime.
  std::array<std::array<std::uint64_t, 3>, all_regimes.size()> outcomes{};
  double seconds = 0;

  [[nodiscard]] double fallbacks_per_million(Regime regime) const;
  /// How often the oracle answered `outcome` in `regime`, as a fraction of its cases.
  [[nodiscard]] double fraction(Regime regime, int outcome) const;
};

/// Runs `property_case_count() / divisor` cases (at least one per regime), spread round-robin
/// over the regimes; a divisor above 1 is for predicates whose oracle is slow (GMP over many
/// candidates). For each, `make(generator)` builds the input; `library(input)` and
/// `oracle(input)` answer (bool or an int-convertible enum), and only the library's exact
/// fallbacks are counted.
template <class Make, class Library, class Oracle, class Describe>
[[nodiscard]] PropertyResult compare_with_oracle(std::uint64_t seed, const Make& make,
                                                 const Library& library, const Oracle& oracle,
                                                 const Describe& describe_input,
                                                 std::uint64_t divisor = 1);

/// Prints one line (fallbacks per million per regime, run time) and requires zero
/// disagreements, listing the first few offending inputs.
void require_agreement(const char* predicate, const PropertyResult& result);

/// Requires that, in every regime with at least 1,000 cases, both answers of a yes/no predicate
/// are common (at least 5% each): the cases are neither trivially touching nor trivially apart.
void require_both_answers(const PropertyResult& result);

/// Seconds since the first call (a steady clock), for `PropertyResult::seconds`.
double seconds_since_start();

template <class Make, class Library, class Oracle, class Describe>
PropertyResult compare_with_oracle(std::uint64_t seed, const Make& make, const Library& library,
                                   const Oracle& oracle, const Describe& describe_input,
                                   std::uint64_t divisor) {
  PropertyResult result;
  CaseGenerator generator(seed);
  const double start = seconds_since_start();
  const std::uint64_t count =
      std::max<std::uint64_t>(property_case_count() / divisor, all_regimes.size());
  for (std::uint64_t k = 0; k < count; ++k) {
    const Regime regime = all_regimes[k % all_regimes.size()];
    const auto r = static_cast<std::size_t>(regime);
    generator.begin(regime);
    const auto input = make(generator);
    const std::uint64_t before = exact::fallback_count();
    const int got = static_cast<int>(library(input));
    result.fallbacks[r] += exact::fallback_count() - before;
    const int expected = static_cast<int>(oracle(input));
    ++result.cases[r];
    ++result.outcomes[r][static_cast<std::size_t>(expected + 1)];
    if (got == expected) continue;
    ++result.disagreements;
    if (result.first_disagreements.size() < PropertyResult::max_reported)
      result.first_disagreements.push_back(
          std::string(regime_name(regime)) + ": " + describe_input(input) + ": library " +
          std::to_string(got) + ", exact " + std::to_string(expected));
  }
  result.seconds = seconds_since_start() - start;
  return result;
}

}  // namespace trisect::testing
