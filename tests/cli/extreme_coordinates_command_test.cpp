// `trisect overlap` on meshes spanning the whole float range (vertices at exactly ±FLT_MAX),
// run in-process: issue 22, item 1.
#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace trisect::testing {
namespace {

CommandRun overlap(const std::vector<std::string>& arguments) {
  std::vector<std::string> command = {"overlap"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return run_in_process(command);
}

std::vector<std::string> with_transform(std::vector<std::string> arguments,
                                        const std::vector<std::string>& numbers) {
  arguments.push_back("--transform");
  arguments.insert(arguments.end(), numbers.begin(), numbers.end());
  return arguments;
}

const std::vector<std::string> mirror_x = {"-1", "0", "0", "0", "0", "1",
                                           "0",  "0", "0", "0", "1", "0"};
const std::vector<std::string> mirror_z = {"1", "0", "0", "0", "0",  "1",
                                           "0", "0", "0", "0", "-1", "0"};

TEST_CASE("overlap finds a triangle spanning the float range and its mirror image",
          "[cli][overlap]") {
  const ScratchFolder folder;
  // 3.40282347e38 rounds to FLT_MAX. Mirrored in x the triangle is itself with its first two
  // vertices swapped: the pair shares all three vertices.
  const std::string mesh =
      folder.write("m.obj", "v -3.40282347e38 0 0\nv 3.40282347e38 0 0\nv 0 1 0\nf 1 2 3\n")
          .string();
  CommandRun run = overlap(with_transform({mesh, mesh}, mirror_x));
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out == "0 0\n");
  CHECK(overlap(with_transform({mesh, mesh, "--count"}, mirror_x)).out == "1\n");
  CHECK(overlap({mesh, mesh}).out == "0 0\n");
  CHECK(overlap({mesh, "--self"}).out.empty());
  // The same with the third vertex at (0, -FLT_MAX, FLT_MAX): mirrored in x it is the same
  // triangle again; mirrored in z it shares the edge along the x axis. Both pairs were lost
  // when the mapped boxes reached infinity.
  const std::string wide =
      folder
          .write("wide.obj",
                 "v -3.40282347e38 0 0\nv 3.40282347e38 0 0\nv 0 -3.40282347e38 3.40282347e38\n"
                 "f 1 2 3\n")
          .string();
  run = overlap(with_transform({wide, wide}, mirror_x));
  CHECK(run.status == 0);
  CHECK(run.out == "0 0\n");
  run = overlap(with_transform({wide, wide}, mirror_z));
  CHECK(run.status == 0);
  CHECK(run.out == "0 0\n");
  // The mirrored mesh against the original, both as files: the answer does not depend on
  // whether the mirror image is computed or read.
  const std::string mirrored =
      folder
          .write("mirrored.obj",
                 "v 3.40282347e38 0 0\nv -3.40282347e38 0 0\nv 0 -3.40282347e38 3.40282347e38\n"
                 "f 1 2 3\n")
          .string();
  CHECK(overlap({wide, mirrored}).out == "0 0\n");
}

}  // namespace
}  // namespace trisect::testing
