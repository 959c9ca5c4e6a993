// Checked float32 and int64 views of the caller's arrays.

#include "array_views.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

namespace trisect::python {
namespace {

// `object` as a numpy array, without converting it. Throws naming `name` when it cannot be one.
py::array any_array(py::handle object, const char* name) {
  py::array array = py::array::ensure(object);
  if (!array) {
    PyErr_Clear();
    throw py::value_error(std::string(name) + ": expected an array of numbers");
  }
  return array;
}

// The dtype of `array` as numpy names it ("float64", "complex128").
std::string dtype_text(const py::array& array) { return py::str(array.dtype()); }

// The kind of `array`'s dtype, as numpy's one-letter code: 'i' for signed integers, 'u'
// unsigned, 'f' floating point, 'b' bool, 'c' complex, 'O' objects...
char dtype_kind(const py::array& array) {
  return std::string(py::str(array.dtype().attr("kind"))).front();
}

// The shape of `array` as Python prints it: "(2, 3)", "(3,)", "()".
std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string text = "(";
  for (std::size_t axis = 0; axis < shape.size(); ++axis)
    text += (axis > 0 ? ", " : "") + std::to_string(shape[axis]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string shape_text(const py::array& array) {
  return shape_text(std::vector<py::ssize_t>(array.shape(), array.shape() + array.ndim()));
}

// "name[i, j] = value": where element `flat` (row-major) of `array` is and what it holds.
std::string element_text(const py::array& array, py::ssize_t flat, const char* name) {
  std::string index;
  for (py::ssize_t axis = array.ndim() - 1, rest = flat; axis >= 0; --axis) {
    index = std::to_string(rest % array.shape(axis)) + (index.empty() ? "" : ", ") + index;
    rest /= array.shape(axis);
  }
  const std::string where = array.ndim() == 0 ? name : std::string(name) + "[" + index + "]";
  return where + " = " + std::string(py::str(array.attr("item")(flat)));
}

// Index of the first unsigned 64-bit value of `array` that int64 cannot hold, or its size.
py::ssize_t first_above_int64(const py::array& array) {
  const auto values =
      py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  if (!values) throw py::error_already_set();
  const std::uint64_t* begin = values.data();
  const std::uint64_t* end = begin + values.size();
  return std::find_if(begin, end,
                      [](std::uint64_t value) {
                        return value > std::uint64_t(std::numeric_limits<std::int64_t>::max());
                      }) -
         begin;
}

}  // namespace

FloatArray float_array(py::handle object, const char* name) {
  const py::array array = any_array(object, name);
  const char kind = dtype_kind(array);
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f')
    throw py::value_error(std::string(name) + ": expected real numbers, got dtype " +
                          dtype_text(array));
  return FloatArray::ensure(array);
}

FloatArray float_values(py::handle object, const char* name) {
  FloatArray values = float_array(object, name);
  if (values.ndim() > 1)
    throw py::value_error(std::string(name) + ": expected a number or a (k,) array, got shape " +
                          shape_text(values));
  return values;
}

FloatArray float_rows(py::handle object, py::ssize_t columns, const char* name, bool allow_single,
                      bool* single) {
  FloatArray rows = float_array(object, name);
  if (allow_single && rows.ndim() == 1 && rows.shape(0) == columns) {
    if (single != nullptr) *single = true;
    return FloatArray(rows.reshape({py::ssize_t{1}, columns}));
  }
  if (rows.ndim() != 2 || rows.shape(1) != columns)
    throw py::value_error(std::string(name) + ": expected shape (k, " + std::to_string(columns) +
                          "), got " + shape_text(rows));
  return rows;
}

FloatArray float_numbers(py::handle object, const std::vector<py::ssize_t>& shape,
                         const char* name) {
  const FloatArray numbers = float_array(object, name);
  const py::ssize_t count =
      std::accumulate(shape.begin(), shape.end(), py::ssize_t{1}, std::multiplies<>());
  const bool flat = numbers.ndim() == 1 && numbers.shape(0) == count;
  if (flat ||
      std::equal(shape.begin(), shape.end(), numbers.shape(), numbers.shape() + numbers.ndim()))
    return numbers;
  std::string expected = shape_text(shape);
  if (shape.size() != 1) expected += " or " + shape_text({count});
  throw py::value_error(std::string(name) + ": expected shape " + expected + ", got " +
                        shape_text(numbers));
}

Int64Array exact_integers(py::handle object, const char* name, const char* what) {
  const py::array array = any_array(object, name);
  const char kind = dtype_kind(array);
  if (array.size() > 0 && kind != 'i' && kind != 'u')
    throw py::value_error(std::string(name) + ": expected integers, got dtype " +
                          dtype_text(array) + ": " + element_text(array, 0, name) + " is not " +
                          what);
  if (kind == 'u' && array.itemsize() == 8) {
    const py::ssize_t above = first_above_int64(array);
    if (above < array.size())
      throw py::value_error(element_text(array, above, name) + " is not " + what);
  }
  return Int64Array::ensure(array);
}

}  // namespace trisect::python
