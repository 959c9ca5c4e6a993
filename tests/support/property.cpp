#include "support/property.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace trisect::testing {

namespace {
constexpr std::uint64_t default_count = 1'000'000;
}  // namespace

std::uint64_t property_case_count() {
  const char* text = std::getenv("TRISECT_PROPERTY_CASES");
  if (text == nullptr || *text == '\0') return default_count;
  char* end = nullptr;
  const unsigned long long count = std::strtoull(text, &end, 10);
  return *end == '\0' && count > 0 ? count : default_count;
}

bool reduced_run() { return property_case_count() < default_count; }

double PropertyResult::fallbacks_per_million(Regime regime) const {
  const auto r = static_cast<std::size_t>(regime);
  return cases[r] == 0 ? 0.0
                       : 1e6 * static_cast<double>(fallbacks[r]) / static_cast<double>(cases[r]);
}

double PropertyResult::fraction(Regime regime, int outcome) const {
  const auto r = static_cast<std::size_t>(regime);
  return cases[r] == 0 ? 0.0
                       : static_cast<double>(outcomes[r][static_cast<std::size_t>(outcome + 1)]) /
                             static_cast<double>(cases[r]);
}

void require_agreement(const char* predicate, const PropertyResult& result) {
  std::uint64_t total = 0;
  for (std::uint64_t n : result.cases) total += n;
  std::printf("%-16s %llu cases, %.1f s; exact fallbacks per million:", predicate,
              static_cast<unsigned long long>(total), result.seconds);
  for (Regime regime : all_regimes)
    std::printf(" %s %.1f", regime_name(regime), result.fallbacks_per_million(regime));
  std::printf("\n");
  std::fflush(stdout);
  std::string failures;
  for (const std::string& failure : result.first_disagreements) failures += "\n  " + failure;
  INFO(predicate << ": " << result.disagreements
                 << " disagreements with the exact oracle, first:" << failures);
  REQUIRE(result.disagreements == 0);
}

void require_both_answers(const PropertyResult& result) {
  for (Regime regime : all_regimes) {
    if (result.cases[static_cast<std::size_t>(regime)] < 1'000) continue;
    INFO("regime " << regime_name(regime));
    CHECK(result.fraction(regime, 0) >= 0.05);
    CHECK(result.fraction(regime, 1) >= 0.05);
  }
}

double seconds_since_start() {
  using clock = std::chrono::steady_clock;
  static const clock::time_point start = clock::now();
  return std::chrono::duration<double>(clock::now() - start).count();
}

}  // namespace trisect::testing
