#pragma once
// Numpy arrays in and out: checked views of the caller's arrays (no copy when they already have
// the dtype and layout trisect reads) and arrays that take over a std::vector's storage.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <trisect/math/oriented_box.hpp>
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

/// A C-contiguous int64 array.
using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

/// `object` (a number, a sequence, an array of any shape) as a C-contiguous float32 array: the
/// very same array when it already is one (no copy), otherwise converted from a bool, integer
/// or floating-point dtype (rounded to nearest). Throws `py::value_error` naming `name` and the
/// dtype for any other: complex numbers are refused, not stripped of their imaginary part.
FloatArray float_array(py::handle object, const char* name);

/// `float_array(object, name)` of at most one dimension: a number or a (k,) array. Throws
/// `py::value_error` naming `name` for more dimensions.
FloatArray float_values(py::handle object, const char* name);

/// `float_array(object, name)` of shape (k, `columns`). A one-dimensional array of `columns`
/// numbers is one row when `allow_single` (then `*single` is set true). Throws
/// `py::value_error` naming `name` and the shape given for any other shape.
FloatArray float_rows(py::handle object, py::ssize_t columns, const char* name,
                      bool allow_single = false, bool* single = nullptr);

/// `object` as a C-contiguous float32 array of exactly `shape`, or of shape (n,) for the same n
/// numbers (the row-major order of `shape`), converted as `float_array` converts. Throws
/// `py::value_error` naming `name` and the shape given for any other shape or dtype: a normal is
/// three numbers, never the first row of a matrix or fewer numbers than that.
FloatArray float_numbers(py::handle object, const std::vector<py::ssize_t>& shape,
                         const char* name);

/// `object` as a C-contiguous int64 array of the same shape holding exactly its values. Throws
/// `py::value_error` naming `name`, the first value and `what` it should be ("a vertex index")
/// for a dtype that is not an integer one (a float is refused, never truncated) and for an
/// unsigned value above 2^63 - 1 ("faces[3, 1] = 18446744073709551615 is not a vertex index").
Int64Array exact_integers(py::handle object, const char* name, const char* what);

/// The rows of an (n, 3) float32 array as points, without copying.
[[nodiscard]] inline std::span<const Vec3> as_points(const FloatArray& rows) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float));
  return {reinterpret_cast<const Vec3*>(rows.data()), static_cast<std::size_t>(rows.shape(0))};
}

/// Row `i` of an array of rows, as `columns` floats.
[[nodiscard]] inline const float* row(const FloatArray& rows, std::size_t i) {
  return rows.data() + i * static_cast<std::size_t>(rows.shape(1));
}

/// An oriented box from a row of 15 floats: centre, three axes, three half extents.
[[nodiscard]] inline OrientedBox oriented_box_row(const float* r) {
  return {Vec3(r[0], r[1], r[2]),
          {Vec3(r[3], r[4], r[5]), Vec3(r[6], r[7], r[8]), Vec3(r[9], r[10], r[11])},
          Vec3(r[12], r[13], r[14])};
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
