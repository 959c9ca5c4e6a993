#pragma once
// Numpy arrays in and out: checked views of the caller's arrays (no copy when they already have
// the dtype and layout trisect reads) and arrays that take over a std::vector's storage.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <trisect/math/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace trisect::python {

namespace py = pybind11;

/// A C-contiguous float32 array.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

/// `object` as a C-contiguous float32 array of shape (k, `columns`): the very same array when it
/// already is one (no copy), otherwise converted (any numeric dtype, rounded to nearest). A
/// one-dimensional array of `columns` numbers is one row when `allow_single` (then `*single` is
/// set true). Throws `py::value_error` naming `name` for any other shape or a non-numeric input.
FloatArray float_rows(py::handle object, py::ssize_t columns, const char* name,
                      bool allow_single = false, bool* single = nullptr);

/// The rows of an (n, 3) float32 array as points, without copying.
[[nodiscard]] inline std::span<const Vec3> as_points(const FloatArray& rows) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float));
  return {reinterpret_cast<const Vec3*>(rows.data()), static_cast<std::size_t>(rows.shape(0))};
}

/// Row `i` of an array of rows, as `columns` floats.
[[nodiscard]] inline const float* row(const FloatArray& rows, std::size_t i) {
  return rows.data() + i * static_cast<std::size_t>(rows.shape(1));
}

/// Number of rows.
[[nodiscard]] inline std::size_t row_count(const py::array& rows) {
  return static_cast<std::size_t>(rows.shape(0));
}

/// A 1-d array of `count` values of `T` that takes over `values`' storage (no copy);
/// `shape` gives its dimensions (their product must be `values.size()`).
template <class T>
[[nodiscard]] py::array_t<T> to_numpy(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto owned = std::make_unique<std::vector<T>>(std::move(values));
  T* data = owned->data();
  py::capsule owner(owned.get(),
                    [](void* pointer) { delete static_cast<std::vector<T>*>(pointer); });
  owned.release();
  return py::array_t<T>(std::move(shape), data, owner);
}

/// A 1-d array holding `values`, without copying.
template <class T>
[[nodiscard]] py::array_t<T> to_numpy(std::vector<T>&& values) {
  const auto count = static_cast<py::ssize_t>(values.size());
  return to_numpy(std::move(values), {count});
}

/// Pairs of ids as a (k, 2) int64 array, in the order given.
template <class Pair, class First, class Second>
[[nodiscard]] py::array_t<std::int64_t> pairs_to_numpy(const std::vector<Pair>& pairs, First first,
                                                       Second second) {
  std::vector<std::int64_t> flat;
  flat.reserve(2 * pairs.size());
  for (const Pair& pair : pairs) {
    flat.push_back(static_cast<std::int64_t>(pair.*first));
    flat.push_back(static_cast<std::int64_t>(pair.*second));
  }
  return to_numpy(std::move(flat), {static_cast<py::ssize_t>(pairs.size()), 2});
}

}  // namespace trisect::python
