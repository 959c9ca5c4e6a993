#pragma once
/// \file
/// Runs the built `trisect` program as a user would, capturing what it prints.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace trisect::testing {

/// Every byte of the file at `path` (empty when it cannot be read).
[[nodiscard]] std::string file_contents(const std::filesystem::path& path);

/// What a run of the program printed and returned.
struct CommandRun {
  int status = -1;  ///< Exit status (-1 when it did not exit normally).
  std::string out;  ///< Everything written to stdout.
  std::string err;  ///< Everything written to stderr.
};

/// Runs the `trisect` program built with the tests with `arguments` (without the program
/// name) and waits for it.
[[nodiscard]] CommandRun run_trisect(const std::vector<std::string>& arguments);

/// The surroundings `run_trisect` gives the program, to see how it meets failures.
struct RunSetup {
  /// A file (such as /dev/full) opened for writing as its stdout; empty: stdout is captured.
  std::string standard_output = {};
  /// Its stdout is a pipe whose reading end is already closed (`| head -c 0`).
  bool closed_pipe = false;
  /// RLIMIT_FSIZE in bytes, as a full disk would stop writes (0: no limit).
  std::uint64_t file_size_limit = 0;
  /// RLIMIT_AS in bytes, so that memory runs out (0: no limit).
  std::uint64_t memory_limit = 0;
};

/// Runs the program as the other overload does, in the surroundings `setup` describes; `out`
/// is empty unless stdout is captured.
[[nodiscard]] CommandRun run_trisect(const std::vector<std::string>& arguments,
                                     const RunSetup& setup);

/// Runs the command in-process (`trisect::cli::run`) with `arguments` (without the program
/// name), capturing what it writes to its `out` and `err` streams.
[[nodiscard]] CommandRun run_in_process(const std::vector<std::string>& arguments);

/// The line of `text` that starts with `prefix`, or an empty string when there is none.
[[nodiscard]] std::string line_starting_with(const std::string& text, const std::string& prefix);

}  // namespace trisect::testing
