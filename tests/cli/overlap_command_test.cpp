// The `trisect overlap` contract (docs/contracts.md), case by case, run in-process.
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

Run overlap(const std::vector<std::string>& arguments) {
  std::vector<std::string> command = {"overlap"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  std::ostringstream out, err;
  const int status = run(command, out, err);
  return {status, out.str(), err.str()};
}

// A: triangle 0 in z = 0, triangle 1 in x = 0 (sharing an edge with 0), triangle 2 a segment
// from (2,0,0) to (3,0,0).
const char* const a_obj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 2 0 0\nv 3 0 0\n"
    "f 1 2 3\nf 1 3 4\nf 5 6 5\n";
// B: triangle 0 pierces A's triangle 0 (vertical, through (0.25, 0.25)), triangle 1 touches A's
// segment at its end (3,0,0) only, triangle 2 is far away.
const char* const b_obj =
    "v 0.25 0.25 -1\nv 0.25 0.25 1\nv 0.5 0.5 0\n"
    "v 3 0 0\nv 4 0 0\nv 4 1 0\n"
    "v 9 9 9\nv 10 9 9\nv 9 10 9\n"
    "f 1 2 3\nf 4 5 6\nf 7 8 9\n";
// Self: triangles 0 and 1 share the edge (1,0,0)-(0,1,0) and are folded flat onto each other;
// triangle 2 shares only vertex (0,0,0) with 0 and lies below it; triangle 3 (the same vertices
// as 0, reordered) always counts.
const char* const folded_obj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0.25 0.25 0\nv -1 0 -1\nv 0 -1 -1\n"
    "f 1 2 3\nf 2 3 4\nf 1 5 6\nf 3 1 2\n";

TEST_CASE("overlap A B prints every intersecting pair, ascending", "[cli][overlap]") {
  const testing::ScratchFolder folder;
  const std::string a = folder.write("a.obj", a_obj).string();
  const std::string b = folder.write("b.obj", b_obj).string();
  Run run = overlap({a, b});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out == "0 0\n2 1\n");
  run = overlap({a, b, "--count"});
  CHECK(run.out == "2\n");
  run = overlap({b, a});
  CHECK(run.out == "0 0\n1 2\n");
  // B moved by (-9, -9, -9): its far triangle 2 lands on A's shared vertex (0,0,0); the others
  // leave A.
  run = overlap(
      {a, b, "--transform", "1", "0", "0", "-9", "0", "1", "0", "-9.0", "-.0", "0", "1", "-9e0"});
  CHECK(run.status == 0);
  CHECK(run.out == "0 2\n1 2\n");
  run = overlap(
      {"--count", "--transform", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "1", "0", a, b});
  CHECK(run.out == "2\n");
}

TEST_CASE("overlap --transform rounds to float and maps in double without fused multiply-add",
          "[cli][overlap]") {
  const testing::ScratchFolder folder;
  // A: a triangle in the plane x = 0.1f. B: a triangle in x = 0 moved by T0 = "0.1": the
  // decimal rounds to the same float, so B lands exactly in A's plane and their edges cross.
  const std::string a =
      folder.write("a.obj", "v 0.1 -1 0\nv 0.1 1 0\nv 0.1 0 1\nf 1 2 3\n").string();
  const std::string b = folder.write("b.obj", "v 0 0 -1\nv 0 0 0.5\nv 0 1 0.5\nf 1 2 3\n").string();
  CHECK(overlap({a, b, "--transform", "1", "0", "0", "0.1", "0", "1", "0", "0", "0", "0", "1", "0"})
            .out == "0 0\n");
  CHECK(overlap({a, b, "--transform", "1", "0", "0", "0.1000001", "0", "1", "0", "0", "0", "0", "1",
                 "0"})
            .out.empty());
}

TEST_CASE("overlap --self reports contact outside the shared vertices", "[cli][overlap]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("folded.obj", folded_obj).string();
  Run run = overlap({mesh, "--self"});
  CHECK(run.status == 0);
  CHECK(run.out == "0 1\n0 3\n1 3\n");
  CHECK(overlap({"--self", "--count", mesh}).out == "3\n");
  // A plain mesh with shared edges only: nothing.
  const std::string a = folder.write("a.obj", a_obj).string();
  CHECK(overlap({a, "--self"}).out.empty());
  const std::string empty = folder.write("empty.obj", "v 0 0 0\n").string();
  run = overlap({empty, "--self", "--count"});
  CHECK(run.status == 0);
  CHECK(run.out == "0\n");
}

struct BadRun {
  std::vector<std::string> arguments;
  const char* message;
};

TEST_CASE("overlap errors: exit 2, nothing on stdout, the argument or file named",
          "[cli][overlap]") {
  const testing::ScratchFolder folder;
  const std::string a = folder.write("a.obj", a_obj).string();
  const std::string bad = folder.write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 x\nf 1 2 3\n").string();
  const std::string missing = (std::filesystem::path(a).parent_path() / "missing.obj").string();
  const std::vector<std::string> identity = {"1", "0", "0", "0", "0", "1",
                                             "0", "0", "0", "0", "1", "0"};
  auto with_transform = [&](std::vector<std::string> numbers) {
    std::vector<std::string> arguments = {a, a, "--transform"};
    arguments.insert(arguments.end(), numbers.begin(), numbers.end());
    return arguments;
  };
  std::vector<std::string> eleven(identity.begin(), identity.end() - 1);
  std::vector<std::string> not_number = identity, infinite = identity, nan = identity,
                           huge = identity;
  not_number[4] = "1x";
  infinite[3] = "inf";
  nan[0] = "nan";
  huge[0] = "3e38";
  std::vector<std::string> self_transform = {a, "--self", "--transform"};
  self_transform.insert(self_transform.end(), identity.begin(), identity.end());
  const BadRun cases[] = {
      {{a}, "overlap takes MESH_A and MESH_B"},
      {{a, a, a}, "MESH"},
      {{a, a, "--self"}, "overlap --self takes one MESH"},
      {{a, a, "--fast"}, "--fast"},
      {self_transform, "--self does not take --transform"},
      {with_transform(eleven), "--transform"},
      {with_transform(not_number), "--transform number 5 '1x' is not a number"},
      {with_transform(infinite), "--transform number 4 'inf' is not finite"},
      {with_transform(nan), "--transform number 1 'nan' is not finite"},
      {with_transform(huge), "to infinity"},
      {{a, bad}, "bad.obj:3:"},
      {{bad, "--self"}, "bad.obj:3:"},
      {{a, missing}, "missing.obj"},
  };
  for (const BadRun& bad_run : cases) {
    std::string line;
    for (const std::string& argument : bad_run.arguments) line += argument + ' ';
    INFO(line);
    const Run run = overlap(bad_run.arguments);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK(run.err.find(bad_run.message) != std::string::npos);
    CHECK(run.err.find("trisect") == 0);
  }
}

}  // namespace
}  // namespace trisect::cli
