// `trisect build` and tree files in place of MESH (docs/contracts.md, "Saved trees"): every
// command answers the same from the tree file as from the mesh; bad files and arguments are
// named; a failed write leaves nothing behind.
#include <trisect/cli/run.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/read_file.hpp>

#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"
#include "support/tree_file_bytes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace trisect::cli {
namespace {

using Run = testing::CommandRun;

Run command(const std::vector<std::string>& arguments) {
  return testing::run_in_process(arguments);
}

// The unit cube as six outward quads, and a second cube beside it that overlaps it.
const char* const cubes_obj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n"
    "v 0.5 0.5 0.5\nv 1.5 0.5 0.5\nv 1.5 1.5 0.5\nv 0.5 1.5 0.5\n"
    "v 0.5 0.5 1.5\nv 1.5 0.5 1.5\nv 1.5 1.5 1.5\nv 0.5 1.5 1.5\n"
    "f 9 12 11 10\nf 13 14 15 16\nf 9 10 14 13\nf 10 11 15 14\nf 11 12 16 15\nf 12 9 13 16\n";

TEST_CASE("every command answers the same from a tree file as from its mesh", "[cli][build]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cubes.obj", cubes_obj).string();
  const std::string tree = (folder.path() / "cubes.bvh").string();
  for (const std::string method : {"sah", "ploc", "morton"}) {
    INFO(method);
    const Run built = command({"build", mesh, "-o", tree, "--method", method, "--threads", "2"});
    CHECK(built.status == 0);
    CHECK_THAT(built.out, Catch::StartsWith(tree + ": 24 triangles, "));
    CHECK(built.err.empty());
    CHECK(is_bvh_file(tree));
    const std::string queries = folder
                                    .write("q.txt",
                                           "box 0.9 0.9 0.9 1.1 1.1 1.1\n"
                                           "plane 0 0 1 0.5\n"
                                           "sphere 1 1 1 0.25\n"
                                           "ray 0.25 0.75 5 0 0 -1\n"
                                           "closest 3 3 3\n"
                                           "inside 0.25 0.25 0.25\n")
                                    .string();
    const std::vector<std::vector<std::string>> commands{
        {"query", "MESH", queries},
        {"slice", "MESH", "--axis", "z", "--layers", "4"},
        {"overlap", "MESH", "--self"},
        {"overlap", "MESH", mesh},
        {"distance", "MESH", mesh, "--transform", "1", "0", "0", "3", "0", "1", "0", "0", "0", "0",
         "1", "0"},
        {"info", "MESH"}};
    for (std::vector<std::string> arguments : commands) {
      std::replace(arguments.begin(), arguments.end(), std::string("MESH"), mesh);
      const Run from_mesh = command(arguments);
      std::replace(arguments.begin(), arguments.end(), mesh, tree);
      if (arguments[0] == "overlap" && arguments.size() == 3 && arguments[2] == tree)
        arguments[2] = mesh;  // tree with mesh
      const Run from_tree = command(arguments);
      INFO(arguments[0]);
      CHECK(from_mesh.status == 0);
      CHECK(from_tree.status == 0);
      if (arguments[0] == "info") {
        // The tree file's mesh is its triangles' corners and its tree is not rebuilt.
        CHECK_THAT(from_tree.out, Catch::Contains("triangles:     24\n") &&
                                      Catch::Contains("vertices:      72\n") &&
                                      Catch::Contains("loaded from the tree file"));
        CHECK_THAT(from_mesh.out, Catch::Contains("welded:        16 distinct vertex positions"));
        CHECK_THAT(from_tree.out, Catch::Contains("welded:        16 distinct vertex positions"));
      } else {
        CHECK(from_tree.out == from_mesh.out);
      }
    }
  }
}

TEST_CASE("a tree file written to standard output is the file written to a path", "[cli][build]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cubes.obj", cubes_obj).string();
  const std::string tree = (folder.path() / "cubes.bvh").string();
  REQUIRE(command({"build", mesh, "-o", tree}).status == 0);
  const Run piped = command({"build", mesh, "-o", "-"});
  CHECK(piped.status == 0);
  CHECK(piped.out == read_regular_file(tree));
  // Built again from its own tree file: the same tree.
  const std::string again = (folder.path() / "again.bvh").string();
  REQUIRE(command({"build", tree, "-o", again}).status == 0);
  CHECK(read_regular_file(again) == read_regular_file(tree));
}

TEST_CASE("build refuses bad arguments and bad tree files, naming them", "[cli][build]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cubes.obj", cubes_obj).string();
  const std::string tree = (folder.path() / "cubes.bvh").string();
  REQUIRE(command({"build", mesh, "-o", tree}).status == 0);
  const std::string good = read_regular_file(tree);
  const std::string truncated = folder.write("cut.bvh", good.substr(0, good.size() - 8)).string();
  std::string flipped = good;
  flipped[200] = static_cast<char>(flipped[200] ^ 1);
  const std::string corrupted = folder.write("bad.bvh", flipped).string();
  const std::string queries = folder.write("q.txt", "box 0 0 0 1 1 1\n").string();
  const struct {
    std::vector<std::string> arguments;
    std::string message;
  } cases[] = {
      {{"build", mesh}, "--output is required"},
      {{"build", mesh, "-o", tree, "--method", "fast"},
       "--method: 'fast' is not sah, ploc or morton"},
      {{"build", mesh, "-o", tree, "--threads", "0"},
       "--threads: '0' is not a whole number from 1 to 4096"},
      {{"build", mesh, "-o", mesh}, "names the input file"},
      {{"build", mesh, "-o", folder.path().string()}, "is a directory"},
      {{"query", truncated, queries}, "cut.bvh: truncated: "},
      {{"slice", corrupted, "--axis", "z", "--at", "0.5"},
       "bad.bvh: checksum mismatch: the file is corrupted"},
      {{"overlap", mesh, corrupted}, "bad.bvh: checksum mismatch"},
  };
  for (const auto& bad : cases) {
    INFO(bad.arguments[0] << ' ' << bad.message);
    const Run run = command(bad.arguments);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(bad.message));
  }
  CHECK(read_regular_file(tree) == good);
}

TEST_CASE("a forged tree file is a status-2 error naming it, with nothing on standard output",
          "[cli][build]") {
  // Checksummed as a writer would: only the checks of the tree behind the checksum refuse
  // these. Run as a program, so that a crash shows as a status.
  using namespace testing::tree_file;
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cubes.obj", cubes_obj).string();
  const std::string tree = (folder.path() / "cubes.bvh").string();
  REQUIRE(command({"build", mesh, "-o", tree}).status == 0);
  const std::string good = read_regular_file(tree);
  const Layout at(good);
  const std::string queries =
      folder.write("q.txt", "box 0 0 0 1 1 1\nclosest 3 3 3\nray 0.25 0.75 5 0 0 -1\n").string();
  const struct {
    std::string name;
    std::size_t at;
    std::uint32_t bits;
    std::string problem;
  } forgeries[] = {
      {"id.bvh", at.ids + 4, 1000000, "slot 1 holds id 1000000, out of range"},
      {"child.bvh", at.node(0, child_at), 99999, "wide node 0 child 0 is wide node 99999"},
      {"nan.bvh", at.coordinates + 4 * 10, 0x7fc00000u, "has a coordinate that is not finite"},
  };
  for (const auto& forgery : forgeries) {
    std::string forged = good;
    put<std::uint32_t>(forged, forgery.at, forgery.bits);
    const std::string path = folder.write(forgery.name, rechecksummed(forged)).string();
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{"info", path},
          std::vector<std::string>{"query", path, queries}}) {
      INFO(arguments[0] << ' ' << forgery.name);
      const Run run = testing::run_trisect(arguments);
      CHECK(run.status == 2);
      CHECK(run.out.empty());
      CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
      CHECK_THAT(run.err, Catch::StartsWith("trisect " + arguments[0] + ": " + path + ": bvh: ") &&
                              Catch::Contains(forgery.problem) && Catch::EndsWith("\n"));
    }
  }
}

TEST_CASE("a tree file that cannot be written whole leaves no file", "[cli][build]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cubes.obj", cubes_obj).string();
  const std::string tree = (folder.path() / "cubes.bvh").string();
  const testing::CommandRun full = testing::run_trisect({"build", mesh, "-o", "/dev/full"});
  CHECK(full.status == 1);
  CHECK(full.err == "trisect build: cannot write -o '/dev/full': No space left on device\n");
  const testing::CommandRun limited =
      testing::run_trisect({"build", mesh, "-o", tree}, {.file_size_limit = 1000});
  CHECK(limited.status == 1);
  CHECK_THAT(limited.err, Catch::StartsWith("trisect build: cannot write -o '"));
  CHECK_FALSE(std::filesystem::exists(tree));
  int files = 0;  // cubes.obj alone
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder.path()))
    ++files;
  CHECK(files == 1);
}

}  // namespace
}  // namespace trisect::cli
