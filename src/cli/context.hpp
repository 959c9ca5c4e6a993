#pragma once
// What the subcommands of `trisect` share: the streams they write to and how each one hands
// the command line its action.

#include <functional>
#include <iosfwd>
#include <map>

namespace CLI {
class App;
}

namespace trisect::cli {

/// The streams of one run of the command and the action of each registered subcommand.
struct Context {
  std::ostream& out;  ///< Answers (stdout): nothing is written here on error.
  std::ostream& err;  ///< Messages (stderr).
  /// The action of each subcommand, run once the whole command line has parsed without error;
  /// its result is the exit status.
  std::map<const CLI::App*, std::function<int()>> actions = {};
};

}  // namespace trisect::cli
