// A `transform` argument.

#include "transform_argument.hpp"

#include <algorithm>

namespace trisect::python {

Transform transform_argument(py::handle transform) {
  if (transform.is_none()) return Transform::identity();
  const FloatArray numbers = float_numbers(transform, {3, 4}, "transform");
  Transform result;
  std::copy(numbers.data(), numbers.data() + 12, result.rows.begin());
  validate(result);
  return result;
}

}  // namespace trisect::python
