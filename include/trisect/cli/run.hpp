#pragma once
// The `trisect` command, callable in-process so that tests can run it. Not installed: the
// command is a program, not a library; this header is what its tests see of it.

#include <iosfwd>
#include <string>
#include <vector>

namespace trisect::cli {

/// Exit status for bad input: bad arguments, a malformed, unreadable or too large mesh or query
/// file, memory exhausted while reading or answering.
inline constexpr int exit_bad_input = 2;

/// Exit status when the answers could not be written (a full disk, a closed pipe).
inline constexpr int exit_write_failed = 1;

/// Runs the whole command line (`arguments` excludes the program name): parses it with the
/// subcommands `query`, `slice`, `info`, `overlap` and `demo` and runs the one given. `--help`
/// (also after a subcommand) prints generated help on `out` and returns 0. A usage error (no or an
/// unknown subcommand, an unknown or malformed option, a missing or extra argument) writes nothing
/// on `out`, names the offending argument on `err` and returns `exit_bad_input`. Otherwise returns
/// the subcommand's exit status.
int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

}  // namespace trisect::cli
