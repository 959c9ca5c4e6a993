#pragma once
// Running a query without the GIL, on a chosen number of TBB threads, and the `threads=`
// argument that chooses it.

#include <pybind11/pybind11.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <trisect/slice/slice.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace trisect::python {

/// A checked `threads=` argument: 0 (TBB's default, all the machine has) or 1 to
/// `max_slice_threads`, the library's limit that the command's `--threads` applies too.
struct ThreadCount {
  int value = 0;
};

/// TBB's default arena, and one thread.
inline constexpr ThreadCount all_threads{0}, one_thread{1};

/// Throws `py::value_error` naming `threads` and `given`, the text of a refused count.
[[noreturn]] inline void refuse_threads(const std::string& given) {
  throw pybind11::value_error("threads: expected 0 (all) or 1 to " +
                              std::to_string(max_slice_threads) + ", got " + given);
}

/// `value` as a `ThreadCount`; `refuse_threads` when it is outside 0 .. `max_slice_threads`.
[[nodiscard]] inline ThreadCount thread_count(long long value) {
  if (value < 0 || value > max_slice_threads) refuse_threads(std::to_string(value));
  return {static_cast<int>(value)};
}

/// Calls `work()` with the GIL released, inside a TBB arena of `threads` threads (0: the
/// default arena; never more than the machine runs at once), and returns its result. Other
/// Python threads run meanwhile; `work` must touch no Python object.
template <class Work>
auto run_released(ThreadCount threads, Work&& work) {
  pybind11::gil_scoped_release release;
  if (threads.value == 0) return work();
  tbb::task_arena arena(std::min(threads.value, tbb::info::default_concurrency()));
  return arena.execute(std::forward<Work>(work));
}

}  // namespace trisect::python

namespace pybind11::detail {

/// `threads=` arguments: any Python integer (an int or what has `__index__`; another type is a
/// `TypeError`), refused with `ValueError` by `thread_count`, however large it is.
template <>
struct type_caster<trisect::python::ThreadCount> {
  PYBIND11_TYPE_CASTER(trisect::python::ThreadCount, const_name("int"));

  bool load(handle source, bool) {
    if (!PyIndex_Check(source.ptr())) return false;
    const object number = reinterpret_steal<object>(PyNumber_Index(source.ptr()));
    if (!number) throw error_already_set();
    int overflow = 0;
    const long long given = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    if (overflow != 0) trisect::python::refuse_threads(std::string(str(number)));
    value = trisect::python::thread_count(given);
    return true;
  }

  static handle cast(trisect::python::ThreadCount threads, return_value_policy, handle) {
    return PyLong_FromLong(threads.value);
  }
};

}  // namespace pybind11::detail
