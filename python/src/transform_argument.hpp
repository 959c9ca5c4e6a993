#pragma once
// A `transform` argument: None (identity) or 12 numbers, a (3, 4) matrix [R | T].

#include "array_views.hpp"

#include <trisect/math/transform.hpp>

namespace trisect::python {

/// The transform x -> R.x + T given as None (the identity), as a (3, 4) [R | T] matrix or as its
/// 12 numbers row by row (shape (12,), the order of `trisect overlap --transform`), rounded to
/// float32. Throws `py::value_error` for another shape or dtype (`float_numbers`) and
/// `InvalidInput` for a number that is not finite.
Transform transform_argument(py::handle transform);

}  // namespace trisect::python
