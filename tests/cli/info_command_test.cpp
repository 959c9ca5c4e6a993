// `trisect info MESH`, run as a user runs it, on small meshes whose counts are known by hand.
#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace trisect::testing {
namespace {

// A closed tetrahedron (vertices 1-4) and a fin (2, 3, 5) on its edge 2-3, which three
// triangles then share; the fin's two other edges are boundary edges.
const char* const tetrahedron_with_fin_obj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 2 1.5 -0.5\n"
    "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 2 3 5\n";

// Each expected line of the output, found by its label.
void check_lines(const std::string& out,
                 const std::vector<std::pair<std::string, std::string>>& expected_values) {
  for (const auto& [label, value] : expected_values) {
    INFO(out);
    CHECK(line_starting_with(out, label) == label + value);
  }
}

TEST_CASE("info counts triangles, vertices, bounds and edges of a small mesh", "[cli]") {
  const ScratchFolder folder;
  const auto mesh = folder.write("fin.obj", tetrahedron_with_fin_obj);
  const CommandRun run = run_trisect({"info", mesh.string()});
  INFO(run.err);
  REQUIRE(run.status == 0);
  check_lines(run.out, {{"triangles:", "     5"},
                        {"vertices:", "      5"},
                        {"degenerate:", "    0 (zero area; 0 with a repeated vertex)"},
                        {"bounds:", "        (0, 0, -0.5) .. (2, 1.5, 1)"},
                        {"closed:",
                         "        no (3 edges used by an odd number of triangles of "
                         "non-zero area)"},
                        {"manifold:",
                         "      no (5 edges shared by two triangles, 2 boundary, "
                         "1 non-manifold)"},
                        {"welded:", "        5 distinct vertex positions, 8 edges"}});
}

TEST_CASE("info calls a closed tetrahedron closed and manifold and names a missing file", "[cli]") {
  const ScratchFolder folder;
  const std::string tetrahedron =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
      "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  const CommandRun run = run_trisect({"info", folder.write("closed.obj", tetrahedron).string()});
  REQUIRE(run.status == 0);
  check_lines(
      run.out,
      {{"triangles:", "     4"},
       {"closed:", "        yes (0 edges used by an odd number of triangles of non-zero area)"},
       {"manifold:", "      yes (6 edges shared by two triangles, 0 boundary, 0 non-manifold)"},
       {"welded:", "        4 distinct vertex positions, 6 edges"},
       {"oriented:", "      yes (0 edges walked the same way by both triangles)"}});
  const CommandRun missing = run_trisect({"info", "no-such-mesh.obj"});
  CHECK(missing.status == 2);
  CHECK(missing.out.empty());
  CHECK_THAT(missing.err, Catch::Contains("no-such-mesh.obj"));
}

TEST_CASE("info never calls collapsed triangles manifold (issue 10 item 7)", "[cli]") {
  const ScratchFolder folder;
  // One triangle whose three corners are one vertex, then one with a repeated corner.
  const CommandRun point =
      run_trisect({"info", folder.write("point.obj", "v 0 0 0\nf 1 1 1\n").string()});
  REQUIRE(point.status == 0);
  check_lines(point.out, {{"degenerate:", "    1 (zero area; 1 with a repeated vertex)"},
                          {"closed:",
                           "        yes (0 edges used by an odd number of triangles "
                           "of non-zero area)"},
                          {"manifold:",
                           "      no (0 edges shared by two triangles, 0 boundary, "
                           "0 non-manifold)"},
                          {"welded:", "        1 distinct vertex positions, 0 edges"}});
  const CommandRun sliver =
      run_trisect({"info", folder.write("sliver.obj", "v 0 0 0\nv 1 0 0\nf 1 2 1\n").string()});
  REQUIRE(sliver.status == 0);
  check_lines(sliver.out, {{"degenerate:", "    1 (zero area; 1 with a repeated vertex)"},
                           {"manifold:",
                            "      no (1 edges shared by two triangles, 0 boundary, "
                            "0 non-manifold)"},
                           {"welded:", "        2 distinct vertex positions, 1 edges"}});
}

TEST_CASE("info and inside agree on closed: two tetrahedra sharing an edge (issue 37)", "[cli]") {
  // Four triangles on the edge 1-2: not manifold, but closed by the one rule, so `inside`
  // answers (it used to be "watertight: no" here while inside accepted the mesh).
  const ScratchFolder folder;
  const std::string pair =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0.5 1\nv 0 -1 0\nv 0 -0.5 -1\n"
      "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 2 5\nf 1 6 2\nf 1 5 6\nf 2 6 5\n";
  const auto mesh = folder.write("pair.obj", pair);
  const CommandRun info = run_trisect({"info", mesh.string()});
  REQUIRE(info.status == 0);
  check_lines(
      info.out,
      {{"closed:", "        yes (0 edges used by an odd number of triangles of non-zero area)"},
       {"manifold:", "      no (10 edges shared by two triangles, 0 boundary, 1 non-manifold)"}});
  const auto queries =
      folder.write("q.txt", "inside 0.1 0.2 0.2\ninside 0.1 -0.2 -0.2\ninside 5 5 5\n");
  const CommandRun inside = run_trisect({"query", mesh.string(), queries.string()});
  INFO(inside.err);
  REQUIRE(inside.status == 0);
  CHECK(inside.out == "inside\ninside\noutside\n");
}

}  // namespace
}  // namespace trisect::testing
