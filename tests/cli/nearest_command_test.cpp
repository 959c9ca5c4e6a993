// The nearest-query contract of the command (docs/contracts.md, "Nearest queries"), case by
// case, run in-process: `closest` and `inside` lines of `trisect query`, and
// `trisect distance`.
#include <trisect/cli/run.hpp>

#include "support/inside_trap.hpp"
#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <sstream>

namespace trisect::cli {
namespace {

using Run = testing::CommandRun;

Run command(const std::vector<std::string>& arguments) {
  return testing::run_in_process(arguments);
}

// The unit cube as six outward quads: triangles 0-1 bottom (z = 0), 2-3 top, 4-5 y = 0,
// 6-7 x = 1, 8-9 y = 1, 10-11 x = 0.
const char* const cube_obj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

// The cube without its top quad: the first open edge in triangle order is triangle 3's
// (1 0 1)-(0 0 1).
const char* const open_box_obj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 4 3 2\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

TEST_CASE("closest lines: D ID P, ties to the smallest id, RMAX inclusive", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const std::string queries = folder
                                  .write("q.txt",
                                         "closest 0.5 0.5 0.5\n"  // six faces at 0.5: id 0
                                         "closest 2 2 2\n"        // vertex (1 1 1): first in 2
                                         "closest 0.5 0.5 3 1\n"  // the top at 2 > RMAX
                                         "closest 0.5 0.5 3 2\n"  // at exactly RMAX: counts
                                         "closest 0.25 0.5 -1 inf\n"
                                         "closest 1 1 1\n"  // on the surface: exactly 0
                                         "closest 1.5 0.25 0.75\n")
                                  .string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 0);
  CHECK(run.out ==
        "0.5 0 0.5 0.5 0\n"
        "1.73205081 2 1 1 1\n"
        "none\n"
        "2 2 0.5 0.5 1\n"
        "1 0 0.25 0.5 0\n"
        "0 2 1 1 1\n"
        "0.5 7 1 0.25 0.75\n");
}

TEST_CASE("nearest lines: D ID pairs by distance, ties by id, RMAX inclusive", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const std::string queries = folder
                                  .write("q.txt",
                                         "nearest 3 0.5 0.5 0.5\n"   // all twelve at 0.5
                                         "nearest 20 0.5 0.5 0.5\n"  // K beyond the mesh
                                         "nearest 1 2 2 2\n"         // closest's D and ID
                                         "nearest 3 0.5 0.5 3 2\n"   // the top at exactly 2
                                         "nearest 4 0.5 0.5 3 1\n"   // nothing within 1
                                         "nearest 2 1.5 0.25 0.75\n")
                                  .string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out ==
        "0.5 0 0.5 1 0.5 2\n"
        "0.5 0 0.5 1 0.5 2 0.5 3 0.5 4 0.5 5 0.5 6 0.5 7 0.5 8 0.5 9 0.5 10 0.5 11\n"
        "1.73205081 2\n"
        "2 2 2 3\n"
        "none\n"
        "0.5 7 0.559016994 2\n");  // 2 and 4 tie at sqrt(0.3125)
}

TEST_CASE("closest on an empty mesh answers none", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("empty.obj", "v 0 0 0\n").string();
  const std::string queries = folder.write("q.txt", "closest 1 2 3\ninside 1 2 3\n").string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 0);
  CHECK(run.out == "none\noutside\n");
}

TEST_CASE("inside lines: surface, inside, outside on a closed mesh", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const std::string queries = folder
                                  .write("q.txt",
                                         "inside 0.5 0.5 0.5\n"
                                         "inside 2 0.5 0.5\n"
                                         "inside 1 0.5 0.5\n"  // on a face
                                         "inside 1 1 1\n"      // on a vertex
                                         "inside 0.5 0 1\n"    // on an edge
                                         "inside 0.5 0.5 1.00000012\n"
                                         "inside 0.5 0.5 0.99999994\n"
                                         "inside 2 2 1\n")  // in the top face's plane
                                  .string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 0);
  CHECK(run.out == "inside\noutside\nsurface\nsurface\nsurface\noutside\ninside\noutside\n");
}

TEST_CASE("inside on an open mesh is an error naming the mesh, an edge and the line",
          "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("open.obj", open_box_obj).string();
  const std::string queries =
      folder.write("q.txt", "closest 0 0 0\n# comment\ninside 0.5 0.5 0.5\n").string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(queries + ":3:") && Catch::Contains("open.obj") &&
                          Catch::Contains("(1 0 1)-(0 0 1)") &&
                          Catch::Contains("1 triangle of non-zero area"));
  // Without an inside line the open mesh is fine.
  const std::string closest_only = folder.write("c.txt", "closest 0 0 2\n").string();
  CHECK(command({"query", mesh, closest_only}).out == "1 3 0 0 1\n");
}

TEST_CASE("inside on a tetrahedron with a duplicated face is an error: edges of three triangles",
          "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder
                               .write("doubled.obj",
                                      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                      "f 1 2 3\nf 1 4 2\nf 2 4 3\nf 3 4 1\nf 1 2 3\n")
                               .string();
  const std::string queries = folder.write("q.txt", "inside 0.1 0.1 0.1\n").string();
  const Run run = command({"query", mesh, queries});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains(queries + ":1:") && Catch::Contains("doubled.obj") &&
                          Catch::Contains("(0 0 0)-(1 0 0)") &&
                          Catch::Contains("3 triangles of non-zero area"));
}

TEST_CASE("inside on the mesh with a vertex on each ray the old retries cast", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string queries =
      folder.write("q.txt", "inside 0 0 3\ninside 9 0 0\ninside 0 0 0\ninside 8 0 0\n").string();
  for (const bool nested : {false, true}) {
    const std::string mesh =
        folder
            .write("trap.obj",
                   testing::obj_text(testing::merged_shells(testing::inside_trap(nested), "trap")))
            .string();
    const Run run = command({"query", mesh, queries});
    CHECK(run.status == 0);
    CHECK(run.err.empty());
    CHECK(run.out ==
          (nested ? "inside\noutside\noutside\nsurface\n" : "inside\noutside\ninside\nsurface\n"));
  }
}

TEST_CASE("closest, nearest and inside lines are checked like the others", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const auto error_of = [&](const std::string& line) {
    const std::string queries = folder.write("bad.txt", "closest 0 0 0\n" + line + "\n").string();
    const Run run = command({"query", mesh, queries});
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    return run.err;
  };
  CHECK_THAT(error_of("closest 0 0 0 -1"), Catch::Contains("bad.txt:2: RMAX is negative"));
  CHECK_THAT(error_of("closest 0 0 0 nan"), Catch::Contains("bad.txt:2: RMAX is NaN"));
  CHECK_THAT(error_of("closest inf 0 0"), Catch::Contains("bad.txt:2: closest point"));
  CHECK_THAT(error_of("closest 0 0"), Catch::Contains("3 or 4 numbers"));
  CHECK_THAT(error_of("closest 0 0 0 1 2"), Catch::Contains("3 or 4 numbers"));
  CHECK_THAT(error_of("nearest 0 0 0 0"), Catch::Contains("bad.txt:2: K is 0"));
  CHECK_THAT(error_of("nearest 1.5 0 0 0"), Catch::Contains("bad.txt:2: K '1.5' is not a whole"));
  CHECK_THAT(error_of("nearest -1 0 0 0"), Catch::Contains("bad.txt:2: K '-1' is not a whole"));
  CHECK_THAT(error_of("nearest 4294967296 0 0 0"),
             Catch::Contains("bad.txt:2: K '4294967296' is too large"));
  CHECK_THAT(error_of("nearest 2 0 0"), Catch::Contains("'nearest' takes 4 or 5 numbers"));
  CHECK_THAT(error_of("nearest 2 0 0 0 1 2"), Catch::Contains("4 or 5 numbers"));
  CHECK_THAT(error_of("nearest 2 0 0 0 -1"), Catch::Contains("bad.txt:2: RMAX is negative"));
  CHECK_THAT(error_of("nearest 2 nan 0 0"), Catch::Contains("bad.txt:2: nearest point is NaN"));
  CHECK_THAT(error_of("nearest 2 0 inf 0"), Catch::Contains("bad.txt:2: nearest point"));
  CHECK_THAT(error_of("inside 0 0 0 1"), Catch::Contains("bad.txt:2: 'inside' takes 3 numbers"));
  CHECK_THAT(error_of("inside 0 nan 0"), Catch::Contains("bad.txt:2: inside point is NaN"));
}

TEST_CASE("distance prints D I J, the smallest pair at the smallest distance", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string cube = folder.write("cube.obj", cube_obj).string();
  const std::string empty = folder.write("empty.obj", "v 0 0 0\n").string();
  CHECK(command({"distance", cube, cube}).out == "0 0 0\n");
  // Moved by (3, 0.5, 0.25): A's x = 1 side faces B's x = 0 side two apart; the smallest pair
  // is A's top triangle 2 (its corner (1 1 1)) with B's triangle 5 (its edge at x = 3).
  CHECK(command({"distance", cube, cube, "--transform", "1", "0", "0", "3", "0", "1", "0", "0.5",
                 "0", "0", "1", "0.25"})
            .out == "2 2 5\n");
  // Corner to corner along the diagonal.
  CHECK(command({"distance", cube, cube, "--transform", "1", "0", "0", "3", "0", "1", "0", "3", "0",
                 "0", "1", "3"})
            .out == "3.46410162 2 0\n");
  CHECK(command({"distance", cube, empty}).out == "none\n");
  CHECK(command({"distance", empty, cube}).out == "none\n");
}

TEST_CASE("distance errors as overlap's", "[cli][nearest]") {
  const testing::ScratchFolder folder;
  const std::string cube = folder.write("cube.obj", cube_obj).string();
  const std::string junk = folder.write("junk.obj", "v 0 0\n").string();
  Run run = command({"distance", cube, cube, "--transform", "1", "0", "0", "nan", "0", "1", "0",
                     "0", "0", "0", "1", "0"});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("--transform number 4 'nan' is not finite"));
  run = command({"distance", cube, cube, "--transform", "1e38", "0", "0", "0", "0", "1", "0", "0",
                 "0", "0", "1", "0"});
  CHECK(run.status == 0);  // 1e38 times at most 1 stays finite
  run = command({"distance", cube, cube, "--transform", "1e38", "0", "0", "3e38", "0", "1", "0",
                 "0", "0", "0", "1", "0"});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("to infinity"));
  run = command({"distance", cube, junk});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("junk.obj:1"));
  run = command({"distance", cube});
  CHECK(run.status == 2);
}

}  // namespace
}  // namespace trisect::cli
