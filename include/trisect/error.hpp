#pragma once
/// \file
/// The one base of every exception trisect throws for a failure it reports.

#include <stdexcept>

namespace trisect {

/// Base of trisect's exceptions: `InvalidInput` (a value the library cannot answer),
/// `MeshError` and `FileError` (a mesh file that cannot be read or used), `cli::QueryFileError`
/// (a bad query file), and the `trisect` command's own. `what()` says what failed and names the
/// value, file or option. A `std::runtime_error`, so `catch (const std::exception&)` catches
/// every one; catch `trisect::Error` to tell trisect's failures from others.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace trisect
