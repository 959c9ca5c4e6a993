// The command line of `trisect` (src/cli/run.cpp): generated help per subcommand, usage errors
// named, exit status 2 and nothing on stdout for them.
#include <trisect/cli/query_file.hpp>
#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/read_file.hpp>
#include <trisect/math/validate.hpp>

#include "cli/errors.hpp"
#include "support/run_command.hpp"

#include <catch2/catch.hpp>

#include <type_traits>

namespace trisect::cli {
namespace {

using testing::CommandRun;

// One family: the command maps every trisect::Error it does not name to exit status 2.
static_assert(std::is_base_of_v<Error, UsageError> && std::is_base_of_v<Error, WriteError> &&
              std::is_base_of_v<Error, QueryFileError> && std::is_base_of_v<Error, MeshError> &&
              std::is_base_of_v<Error, FileError> && std::is_base_of_v<Error, InvalidInput>);

TEST_CASE("help is generated for the command and for each subcommand", "[cli]") {
  struct Help {
    std::vector<std::string> arguments;
    std::vector<const char*> lines;
  };
  const Help cases[] = {
      {{"--help"}, {"Usage: trisect [OPTIONS] SUBCOMMAND", "query", "info", "demo"}},
      {{"-h"}, {"Usage: trisect [OPTIONS] SUBCOMMAND"}},
      {{"query", "--help"},
       {"Usage: trisect query [OPTIONS] MESH QUERYFILE", "sphere CX CY CZ R", "ray OX OY OZ"}},
      {{"query", "mesh.obj", "-h"}, {"Usage: trisect query [OPTIONS] MESH QUERYFILE"}},
      {{"info", "--help"}, {"Usage: trisect info [OPTIONS] MESH", "closed", "manifold"}},
      {{"demo", "--help"}, {"Usage: trisect demo [OPTIONS]", "--svg FILE"}},
  };
  for (const Help& help : cases) {
    INFO(help.arguments[0] << ' ' << help.arguments.back());
    const CommandRun run = testing::run_in_process(help.arguments);
    CHECK(run.status == 0);
    CHECK(run.err.empty());
    for (const char* line : help.lines) CHECK_THAT(run.out, Catch::Contains(line));
  }
}

TEST_CASE("usage errors name the argument, exit 2, print nothing on stdout", "[cli]") {
  struct Usage {
    std::vector<std::string> arguments;
    const char* message;
  };
  const Usage cases[] = {
      {{}, "A subcommand is required"},
      {{"frobnicate"},
       "unknown command 'frobnicate' (expected a command: query, slice, info, overlap, clearance, "
       "distance, build, demo"},
      {{"--frobnicate"}, "unknown option '--frobnicate'"},
      {{"query", "mesh.obj"}, "QUERYFILE is required"},
      {{"query"}, "MESH is required"},
      {{"query", "mesh.obj", "q.txt", "extra"}, "not expected: extra"},
      {{"query", "--bogus", "mesh.obj", "q.txt"}, "not expected: --bogus"},
      {{"info"}, "MESH is required"},
      {{"info", "a.obj", "b.obj"}, "not expected: b.obj"},
      {{"demo", "--svg"}, "trisect demo: --svg: expects a value, got none"},
      {{"demo", "--colour", "red"}, "--colour"},
      {{"demo", "--svg", "a.svg", "--svg", "b.svg"}, "--svg"},
  };
  for (const Usage& usage : cases) {
    const CommandRun run = testing::run_in_process(usage.arguments);
    INFO(run.err);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("trisect") && Catch::Contains(usage.message));
  }
}

}  // namespace
}  // namespace trisect::cli
