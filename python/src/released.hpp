#pragma once
// Running a query without the GIL, on a chosen number of TBB threads.

#include <pybind11/pybind11.h>
#include <tbb/task_arena.h>

#include <string>
#include <utility>

namespace trisect::python {

/// Checks a `threads` argument: 0 (TBB's default, all the machine has) or a positive count.
/// Throws `py::value_error` otherwise.
inline void check_threads(int threads) {
  if (threads < 0)
    throw pybind11::value_error("threads: expected 0 (all) or a positive count, got " +
                                std::to_string(threads));
}

/// Calls `work()` with the GIL released, inside a TBB arena of `threads` threads (0: the
/// default arena), and returns its result. Other Python threads run meanwhile; `work` must
/// touch no Python object.
template <class Work>
auto run_released(int threads, Work&& work) {
  check_threads(threads);
  pybind11::gil_scoped_release release;
  if (threads == 0) return work();
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<Work>(work));
}

}  // namespace trisect::python
