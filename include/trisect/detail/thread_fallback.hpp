#pragma once
/// \file
/// Parallel work that falls back to one thread when TBB cannot start its worker threads.
///
/// oneTBB (2021.8, Debian 12's) starts its workers lazily, when work is first offered to them.
/// A failed pthread_create (no address space left for a stack under RLIMIT_AS, or a process
/// limit) becomes `std::runtime_error("pthread_create has failed: ...")`, thrown in the thread
/// that offered the work. Offered from inside a task (a parallel_for splitting its range), TBB
/// cancels the work and rethrows the error to the caller of the parallel algorithm or of
/// `task_arena::execute`, where `with_thread_fallback` catches it and runs the work again on
/// one thread, which needs no worker. (A worker that wakes further workers as it starts can
/// meet the same failure in its own thread; oneTBB then calls std::terminate, which no caller
/// can prevent. With its default limits, the first workers are started by the caller.)

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace trisect::detail {

/// True for the error TBB (or `std::thread`) throws when a thread cannot be started.
[[nodiscard]] inline bool is_thread_start_failure(const std::exception& error) noexcept {
  if (const auto* system = dynamic_cast<const std::system_error*>(&error))
    return system->code() == std::errc::resource_unavailable_try_again;
  return dynamic_cast<const std::runtime_error*>(&error) != nullptr &&
         std::string_view(error.what()).starts_with("pthread_create has failed");
}

/// Runs `work()` in a task arena of `threads` threads (0: in the calling one; never more than
/// the machine runs at once) and returns what it returns. When a worker thread cannot be started,
/// runs `work()` again in an arena of one thread, which starts none. `work` must give its whole
/// result when run again after a run that failed part way (it makes its results anew, or writes
/// each element whole).
template <class Work>
decltype(auto) with_thread_fallback(int threads, Work&& work) {
  try {
    if (threads == 0) return work();
    tbb::task_arena arena(std::min(threads, tbb::info::default_concurrency()));
    return arena.execute(work);
  } catch (const std::exception& error) {
    if (!is_thread_start_failure(error)) throw;
  }
  tbb::task_arena one_thread(1);
  return one_thread.execute(work);
}

}  // namespace trisect::detail
