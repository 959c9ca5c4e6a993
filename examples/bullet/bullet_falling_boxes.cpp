// Boxes falling onto a floor in a Bullet world (btDiscreteDynamicsWorld) whose broadphase is
// trisect's, through trisect::bullet::BroadphaseAdapter, or Bullet's own btDbvtBroadphase: how an
// engine built on Bullet drops trisect in. Prints the time per step and how the pile ended up.
//
//   bullet_falling_boxes [--broadphase trisect|bullet] [--boxes N] [--steps S] [--seed K]
//                        [--check]
//
// Defaults: trisect, 3000 boxes, 900 steps (15 s), seed 1 (of the boxes' jitter). With --check it
// checks itself and exits with status 1 on the first failure:
//   - after every step, the pair cache holds exactly the pairs that brute force finds over the
//     boxes Bullet last gave the broadphase (closed boxes, Bullet's filters, no static pair);
//     trisect only, as Bullet's own broadphase keeps a pair while the fat boxes overlap;
//   - at the end, every box is at rest (asleep, or slower than 0.05 m/s) and none has a corner
//     more than 0.05 below the floor's top;
//   - for trisect, the same scene run with btDbvtBroadphase ends at rest too, and the mean
//     heights of the two piles differ by less than a twentieth of Bullet's.
// Bad arguments: status 2.
#include "falling_boxes_scene.hpp"
#include "pair_oracle.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using trisect::bullet::BroadphaseKind;
using trisect::bullet::FallingBoxesScene;
using trisect::bullet::PileOutcome;

struct Arguments {
  BroadphaseKind kind = BroadphaseKind::trisect;
  int boxes = 3000;
  int steps = 900;
  int seed = 1;
  bool check = false;
};

// A positive count from `text`, or none.
std::optional<int> positive_count(const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0 || value > 1'000'000) return std::nullopt;
  return int(value);
}

std::optional<Arguments> parse_arguments(int argc, char** argv) {
  Arguments arguments;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--check") {
      arguments.check = true;
      continue;
    }
    if (i + 1 == argc) return std::nullopt;
    const char* value = argv[++i];
    if (flag == "--broadphase") {
      const auto kind = trisect::bullet::broadphase_named(value);
      if (!kind) return std::nullopt;
      arguments.kind = *kind;
    } else if (flag == "--boxes" || flag == "--steps" || flag == "--seed") {
      const auto count = positive_count(value);
      if (!count) return std::nullopt;
      (flag == "--boxes"   ? arguments.boxes
       : flag == "--steps" ? arguments.steps
                           : arguments.seed) = *count;
    } else {
      return std::nullopt;
    }
  }
  return arguments;
}

struct Run {
  PileOutcome outcome;
  std::vector<double> step_ms;  // wall clock of each step, sorted
  bool pairs_matched = true;    // every checked step's pair cache matched brute force
};

// Compares the pair cache with brute force after `step`; prints the first mismatch.
bool pairs_match(FallingBoxesScene& scene, int step) {
  const auto proxies = trisect::bullet::proxies_of(scene.world());
  const trisect::bullet::PairDifference difference = trisect::bullet::compare_with_brute_force(
      proxies, trisect::bullet::has_static_client, *scene.broadphase().getOverlappingPairCache());
  if (difference.none()) return true;
  std::printf("MISMATCH after step %d: the pair cache against brute force: %s\n", step + 1,
              trisect::bullet::describe(difference).c_str());
  return false;
}

Run simulate(BroadphaseKind kind, const Arguments& arguments, bool check_pairs) {
  FallingBoxesScene scene(kind, arguments.boxes, std::uint32_t(arguments.seed));
  Run run;
  for (int step = 0; step < arguments.steps; ++step) {
    const auto start = std::chrono::steady_clock::now();
    scene.step();
    run.step_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    if (check_pairs && !pairs_match(scene, step)) {
      run.pairs_matched = false;
      break;
    }
  }
  std::sort(run.step_ms.begin(), run.step_ms.end());
  run.outcome = scene.outcome();
  return run;
}

void print_run(BroadphaseKind kind, const Run& run) {
  double total = 0;
  for (const double ms : run.step_ms) total += ms;
  const PileOutcome& outcome = run.outcome;
  std::printf(
      "%-7s %d boxes, %zu steps: %.3f ms a step (median %.3f, worst %.3f); %d at rest (%d "
      "asleep), %d through the floor; top %.2f m, mean height %.3f m\n",
      trisect::bullet::name_of(kind), outcome.boxes, run.step_ms.size(),
      total / double(run.step_ms.size()), run.step_ms[run.step_ms.size() / 2], run.step_ms.back(),
      outcome.resting, outcome.asleep, outcome.below_floor, double(outcome.top),
      double(outcome.mean_height));
}

// Every box at rest and none through the floor; prints what is wrong.
bool settled(BroadphaseKind kind, const PileOutcome& outcome) {
  if (outcome.resting == outcome.boxes && outcome.below_floor == 0) return true;
  std::printf("FAILED (%s): %d of %d boxes still moving, %d through the floor\n",
              trisect::bullet::name_of(kind), outcome.boxes - outcome.resting, outcome.boxes,
              outcome.below_floor);
  return false;
}

// The two piles' mean heights differ by less than a twentieth of Bullet's (over 24 seeds of
// the 1000-box scene they differed by 1% at most); prints what is wrong.
bool alike(const PileOutcome& trisect, const PileOutcome& bullet) {
  const float difference = std::abs(trisect.mean_height - bullet.mean_height);
  if (difference < 0.05f * bullet.mean_height) return true;
  std::printf("FAILED: the piles' mean heights differ by %.3f m\n", double(difference));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Arguments> arguments = parse_arguments(argc, argv);
  if (!arguments) {
    std::fprintf(stderr,
                 "usage: bullet_falling_boxes [--broadphase trisect|bullet] [--boxes N] "
                 "[--steps S] [--seed K] [--check]\n");
    return 2;
  }
  const bool check_pairs = arguments->check && arguments->kind == BroadphaseKind::trisect;
  const Run run = simulate(arguments->kind, *arguments, check_pairs);
  print_run(arguments->kind, run);
  if (!arguments->check) return 0;
  if (!run.pairs_matched || !settled(arguments->kind, run.outcome)) return 1;
  if (check_pairs)
    std::printf("the pair cache held exactly the overlapping pairs after each of the %d steps\n",
                arguments->steps);
  if (arguments->kind == BroadphaseKind::bullet) return 0;
  const Run reference = simulate(BroadphaseKind::bullet, *arguments, false);
  print_run(BroadphaseKind::bullet, reference);
  if (!settled(BroadphaseKind::bullet, reference.outcome) || !alike(run.outcome, reference.outcome))
    return 1;
  std::printf("both piles settled alike\n");
  return 0;
}
