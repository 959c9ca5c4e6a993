// The `trisect clearance` contract (docs/contracts.md), case by case, run in-process.
#include <trisect/cli/run.hpp>

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

namespace trisect::cli {
namespace {

struct Run {
  int status;
  std::string out, err;
};

Run clearance(const std::vector<std::string>& arguments) {
  std::vector<std::string> command = {"clearance"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  std::ostringstream out, err;
  const int status = run(command, out, err);
  return {status, out.str(), err.str()};
}

// A: triangle 0 in z = 0.
const char* const a_obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
// B: triangle 0 the same 0.5 above, triangle 1 far away, triangle 2 standing on A's
// triangle at (0.25, 0.25, 0).
const char* const b_obj =
    "v 0 0 0.5\nv 1 0 0.5\nv 0 1 0.5\n"
    "v 9 9 9\nv 10 9 9\nv 9 10 9\n"
    "v 0.25 0.25 0\nv 0.25 0.5 2\nv 0.5 0.25 2\n"
    "f 1 2 3\nf 4 5 6\nf 7 8 9\n";
// Self: triangles 0 and 1 share an edge (neighbours, left out); triangle 2 lies 0.25 above
// triangle 0 and shares no vertex with either.
const char* const self_obj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 0.25\nv 0.5 0 0.25\nv 0 0.5 0.25\n"
    "f 1 2 3\nf 2 4 3\nf 5 6 7\n";

TEST_CASE("clearance A B D prints every pair within D, ascending", "[cli][clearance]") {
  const testing::ScratchFolder folder;
  const std::string a = folder.write("a.obj", a_obj).string();
  const std::string b = folder.write("b.obj", b_obj).string();
  Run run = clearance({a, b, "0.5"});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out == "0 0\n0 2\n");
  CHECK(clearance({a, b, "0.49999997"}).out == "0 2\n");  // the float just below 0.5
  CHECK(clearance({a, b, "0"}).out == "0 2\n");
  CHECK(clearance({a, b, "-0"}).out == "0 2\n");
  CHECK(clearance({a, b, "-1e-50"}).out == "0 2\n");  // rounds to -0: counts as 0
  CHECK(clearance({a, b, "100", "--count"}).out == "3\n");
  CHECK(clearance({b, a, "0.5"}).out == "0 0\n2 0\n");
  // B lowered by 0.25: its triangle 0 is 0.25 above A, its triangle 2 reaches below A's plane.
  run = clearance({a, b, "0.25", "--transform", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0",
                   "1", "-0.25"});
  CHECK(run.status == 0);
  CHECK(run.out == "0 0\n0 2\n");
}

TEST_CASE("clearance --self leaves neighbours out", "[cli][clearance]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("self.obj", self_obj).string();
  CHECK(clearance({mesh, "--self", "0.25"}).out == "0 2\n");
  CHECK(clearance({mesh, "--self", "0.2"}).out.empty());
  CHECK(clearance({"--self", "--count", mesh, "1"}).out == "2\n");  // 1 2 reaches too
}

struct BadRun {
  std::vector<std::string> arguments;
  const char* message;
};

TEST_CASE("clearance errors: exit 2, nothing on stdout, the argument or file named",
          "[cli][clearance]") {
  const testing::ScratchFolder folder;
  const std::string a = folder.write("a.obj", a_obj).string();
  const std::string bad = folder.write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 x\nf 1 2 3\n").string();
  const std::string missing = (std::filesystem::path(a).parent_path() / "missing.obj").string();
  const BadRun cases[] = {
      {{a, a}, "clearance takes MESH_A MESH_B D"},
      {{a, a, "1", "--self"}, "clearance --self takes MESH D"},
      {{a, a, "x"}, "distance D 'x' is not a number"},
      {{a, a, "inf"}, "distance D 'inf' is not finite"},
      {{a, a, "1e39"}, "distance D '1e39' is not finite"},
      {{a, a, "nan"}, "distance D 'nan' is not finite"},
      {{a, a, "-1"}, "distance D '-1' is negative"},
      {{a, "--self", "0.5", "--transform", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "1",
        "0"},
       "--self does not take --transform"},
      {{a, a, "1", "--transform", "1", "0", "0", "0"}, "--transform"},
      {{a, bad, "1"}, "bad.obj:3:"},
      {{bad, "--self", "1"}, "bad.obj:3:"},
      {{a, missing, "1"}, "missing.obj"},
  };
  for (const BadRun& bad_run : cases) {
    std::string line;
    for (const std::string& argument : bad_run.arguments) line += argument + ' ';
    INFO(line);
    const Run run = clearance(bad_run.arguments);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK(run.err.find(bad_run.message) != std::string::npos);
    CHECK(run.err.find("trisect") == 0);
  }
}

}  // namespace
}  // namespace trisect::cli
