// Checked float32 views of the caller's arrays.

#include "array_views.hpp"

#include <string>

namespace trisect::python {

FloatArray float_rows(py::handle object, py::ssize_t columns, const char* name, bool allow_single,
                      bool* single) {
  FloatArray rows = FloatArray::ensure(object);
  if (!rows) {
    PyErr_Clear();
    throw py::value_error(std::string(name) + ": expected an array of numbers");
  }
  const std::string expected = "(k, " + std::to_string(columns) + ")";
  if (allow_single && rows.ndim() == 1 && rows.shape(0) == columns) {
    if (single != nullptr) *single = true;
    return FloatArray(rows.reshape({py::ssize_t{1}, columns}));
  }
  if (rows.ndim() != 2 || rows.shape(1) != columns) {
    std::string shape = "(";
    for (py::ssize_t axis = 0; axis < rows.ndim(); ++axis)
      shape += (axis > 0 ? ", " : "") + std::to_string(rows.shape(axis));
    throw py::value_error(std::string(name) + ": expected shape " + expected + ", got " + shape +
                          (rows.ndim() == 1 ? ",)" : ")"));
  }
  return rows;
}

}  // namespace trisect::python
