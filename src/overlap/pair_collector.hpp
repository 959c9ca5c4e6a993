#pragma once
// Every pair a pair-walk query finds, on the threads of the calling task arena, sorted: the
// subtree pairs of `pair_walk_tasks` shared among threads, each thread with a finder of its own
// (and so its own mapped boxes and leaf caches), the per-thread lists joined and sorted, so the
// answer depends neither on the thread count nor on the schedule. Internal to the overlap
// queries (overlap.cpp, clearance.cpp).
#include "bvh/pair_walk.hpp"
#include "trisect/overlap/overlap.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace trisect::detail {

/// The pairs of `Finder(args...)`s, sorted. A `Finder` is one thread's query: `walk()` its
/// `PairWalk`, `walk_all()` the whole walk, `found()` the pairs it found; not movable.
template <class Finder, class... Args>
std::vector<TrianglePair> collect_sorted_pairs(const Args&... args) {
  std::vector<TrianglePair> pairs;
  if (tbb::this_task_arena::max_concurrency() == 1) {
    Finder finder(args...);
    finder.walk_all();
    pairs = std::move(finder.found());
  } else {
    Finder planner(args...);
    const std::vector<SubtreePair> work = pair_walk_tasks(planner.walk(), 1024);
    tbb::enumerable_thread_specific<std::optional<Finder>> finders;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, work.size(), 1), [&](const auto& range) {
      std::optional<Finder>& finder = finders.local();
      if (!finder) finder.emplace(args...);
      for (std::size_t k = range.begin(); k != range.end(); ++k)
        finder->walk().depth_first(work[k]);
    });
    std::size_t total = 0;
    for (std::optional<Finder>& finder : finders) total += finder ? finder->found().size() : 0;
    pairs.reserve(total);
    for (std::optional<Finder>& finder : finders)
      if (finder) pairs.insert(pairs.end(), finder->found().begin(), finder->found().end());
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace trisect::detail
