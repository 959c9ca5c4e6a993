#pragma once
/// \file
/// Runs the built `trisect` program as a user would, capturing what it prints.

#include <string>
#include <vector>

namespace trisect::testing {

/// What a run of the program printed and returned.
struct CommandRun {
  int status = -1;  ///< Exit status (-1 when it did not exit normally).
  std::string out;  ///< Everything written to stdout.
  std::string err;  ///< Everything written to stderr.
};

/// Runs the `trisect` program built with the tests with `arguments` (without the program
/// name) and waits for it.
[[nodiscard]] CommandRun run_trisect(const std::vector<std::string>& arguments);

/// Runs the command in-process (`trisect::cli::run`) with `arguments` (without the program
/// name), capturing what it writes to its `out` and `err` streams.
[[nodiscard]] CommandRun run_in_process(const std::vector<std::string>& arguments);

/// The line of `text` that starts with `prefix`, or an empty string when there is none.
[[nodiscard]] std::string line_starting_with(const std::string& text, const std::string& prefix);

}  // namespace trisect::testing
