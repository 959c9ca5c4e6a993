#pragma once
// The failures of a `trisect` command that are not input files' own errors (those are
// `MeshError`, `FileError`, `QueryFileError` and `InvalidInput`): a bad command line, and
// answers that could not be written. `CommandRun` (command_run.hpp) turns each into its exit
// status.

#include <trisect/error.hpp>

#include <string>

namespace trisect::cli {

/// A bad command line: an option value out of range, a missing or malformed argument, an output
/// path that cannot be used. what() names the option; exit status 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

/// An output that could not be written (a full disk, a closed pipe, a folder without write
/// permission). what() names the output; `is_closed_pipe()` is true when the reader of standard
/// output went away, which needs no message. Exit status 1.
class WriteError : public Error {
 public:
  WriteError(const std::string& message, bool closed_pipe)
      : Error(message), closed_pipe_(closed_pipe) {}

  [[nodiscard]] bool is_closed_pipe() const noexcept { return closed_pipe_; }

 private:
  bool closed_pipe_;
};

}  // namespace trisect::cli
