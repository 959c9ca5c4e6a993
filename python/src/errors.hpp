#pragma once
// trisect's exceptions as Python exceptions.

#include <pybind11/pybind11.h>

namespace trisect::python {

/// Registers the translation of trisect's C++ exceptions, each keeping its message:
/// `InvalidInput` becomes `ValueError`; `MeshError` and `FileError` (a file that cannot be read
/// or parsed) become `OSError`; any other `trisect::Error` becomes `RuntimeError`.
void register_errors();

}  // namespace trisect::python
