// trisect's exceptions as Python exceptions.

#include "errors.hpp"

#include <trisect/io/load_mesh.hpp>
#include <trisect/io/read_file.hpp>
#include <trisect/math/validate.hpp>

#include <exception>

namespace trisect::python {

void register_errors() {
  pybind11::register_exception_translator([](std::exception_ptr error) {
    if (!error) return;
    try {
      std::rethrow_exception(error);
    } catch (const InvalidInput& invalid) {
      PyErr_SetString(PyExc_ValueError, invalid.what());
    } catch (const MeshError& mesh) {
      PyErr_SetString(PyExc_OSError, mesh.what());
    } catch (const FileError& file) {
      PyErr_SetString(PyExc_OSError, file.what());
    }
  });
}

}  // namespace trisect::python
