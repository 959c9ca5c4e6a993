// A `transform` argument.

#include "transform_argument.hpp"

#include <algorithm>

namespace trisect::python {

Transform transform_argument(py::handle transform) {
  if (transform.is_none()) return Transform::identity();
  const FloatArray numbers = FloatArray::ensure(transform);
  if (!numbers || numbers.size() != 12) {
    PyErr_Clear();
    throw py::value_error("transform: expected None or 12 numbers, a (3, 4) matrix [R | T]");
  }
  Transform result;
  std::copy(numbers.data(), numbers.data() + 12, result.rows.begin());
  validate(result);
  return result;
}

}  // namespace trisect::python
