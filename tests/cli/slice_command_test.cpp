// The `trisect slice` contract (docs/contracts.md), case by case, run in-process.
#include <trisect/cli/run.hpp>

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace trisect::cli {
namespace {

struct Run {
  int status;
  std::string out, err;
};

Run slice_command(const std::vector<std::string>& arguments) {
  std::vector<std::string> command_line{"slice"};
  for (const std::string& argument : arguments) command_line.push_back(argument);
  std::ostringstream out, err;
  const int status = run(command_line, out, err);
  return {status, out.str(), err.str()};
}

// The unit cube, outward-facing.
const char* const cube_obj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
    "f 4 1 5\nf 4 5 8\n";

// The same cube as an ascii STL soup.
std::string cube_stl() {
  const float v[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                         {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int faces[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                            {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::ostringstream stl;
  stl << "solid cube\n";
  for (const auto& face : faces) {
    stl << "facet normal 0 0 0\nouter loop\n";
    for (int k : face) stl << "vertex " << v[k][0] << ' ' << v[k][1] << ' ' << v[k][2] << '\n';
    stl << "endloop\nendfacet\n";
  }
  stl << "endsolid cube\n";
  return stl.str();
}

TEST_CASE("slice command: a cube through its middle, top and bottom faces", "[cli]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const Run run = slice_command({mesh, "--axis", "z", "--at", "0.5", "1", "0", "-0.5"});
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out ==
        "plane 0.5 1\n"
        "closed 8 0.5 0 0.5 1 0 0.5 1 0.5 0.5 1 1 0.5 0.5 1 0.5 0 1 0.5 0 0.5 0.5 0 0 0.5\n"
        "plane 1 1\n"
        "closed 8 1 0 1 1 0 1 1 1 1 1 1 1 0 1 1 0 1 1 0 0 1 0 0 1\n"
        "plane 0 0\n"
        "plane -0.5 0\n");
}

TEST_CASE("slice command: JSON on stdout, and to a file beside the text", "[cli]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const Run run = slice_command({mesh, "--normal", "0", "0", "2", "--at", "1", "--json", "-"});
  REQUIRE(run.status == 0);
  const nlohmann::json json = nlohmann::json::parse(run.out);
  CHECK(json["normal"] == nlohmann::json{0.0, 0.0, 2.0});  // as given, not normalised
  REQUIRE(json["planes"].size() == 1);
  CHECK(json["planes"][0]["d"] == 1.0);
  const auto& contour = json["planes"][0]["contours"][0];
  CHECK(contour["closed"] == true);
  CHECK(contour["area"] == 1.0);
  CHECK(contour["length"] == 4.0);
  CHECK(contour["points"].size() == 8);
  CHECK(contour["triangles"] == nlohmann::json{4, 7, 6, 9, 8, 11, 10, 5});
  CHECK(contour["points"][0] == nlohmann::json{0.5, 0.0, 0.5});

  const std::string json_file = (folder.path() / "out.json").string();
  const std::string svg_file = (folder.path() / "out.svg").string();
  const Run both =
      slice_command({mesh, "--axis", "z", "--layers", "2", "--json", json_file, "--svg", svg_file});
  REQUIRE(both.status == 0);
  CHECK(both.out.starts_with("plane 0.25 1\nclosed 8 "));
  std::ifstream written(json_file);
  const nlohmann::json file_json = nlohmann::json::parse(written);
  CHECK(file_json["planes"].size() == 2);
  CHECK(file_json["planes"][1]["d"] == 0.75);
  std::ostringstream svg;
  svg << std::ifstream(svg_file).rdbuf();
  const std::string picture = svg.str();
  CHECK(picture.starts_with("<svg"));
  CHECK(picture.find("d = 0.75") != std::string::npos);
}

TEST_CASE("slice command: an STL soup gives the same contours as the indexed OBJ", "[cli]") {
  const testing::ScratchFolder folder;
  const std::string obj = folder.write("cube.obj", cube_obj).string();
  const std::string stl = folder.write("cube.stl", cube_stl()).string();
  for (const std::vector<std::string>& where :
       {std::vector<std::string>{"--axis", "x", "--step", "0.3"},
        std::vector<std::string>{"--normal", "1", "2", "3", "--layers", "7"}}) {
    std::vector<std::string> with_obj{obj}, with_stl{stl};
    with_obj.insert(with_obj.end(), where.begin(), where.end());
    with_stl.insert(with_stl.end(), where.begin(), where.end());
    const Run a = slice_command(with_obj), b = slice_command(with_stl);
    CHECK(a.status == 0);
    CHECK(a.out == b.out);
    CHECK(a.out.find("open") == std::string::npos);
  }
}

TEST_CASE("slice command: bad input exits 2 with nothing on stdout", "[cli]") {
  const testing::ScratchFolder folder;
  const std::string mesh = folder.write("cube.obj", cube_obj).string();
  const std::string broken = folder.write("broken.obj", "v 0 0 0\nv 1 0 0\nf 1 2 9\n").string();
  const std::string empty = folder.write("empty.obj", "v 0 0 0\n").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{mesh, "--normal", "0", "0", "0", "--at", "1"}, "normal is zero"},
      {{mesh, "--axis", "z", "--at", "nan"}, "--at: 'nan' is not finite"},
      {{mesh, "--axis", "z", "--at", "1", "inf"}, "'inf' is not finite"},
      {{mesh, "--axis", "z", "--at", "1x"}, "'1x' is not a number"},
      {{mesh, "--axis", "z", "--at"}, "--at"},
      {{mesh, "--normal", "0", "0", "--at", "1"}, "--normal"},
      {{mesh, "--axis", "z", "--normal", "0", "0", "1", "--at", "1"}, "--axis"},
      {{mesh, "--at", "1"}, "--axis"},
      {{mesh, "--axis", "q", "--at", "1"}, "--axis"},
      {{mesh, "--axis", "z"}, "--layers"},
      {{mesh, "--axis", "z", "--layers", "0"}, "--layers: '0'"},
      {{mesh, "--axis", "z", "--layers", "3", "--step", "1"}, "--step"},
      {{mesh, "--axis", "z", "--step", "-1"}, "--step"},
      {{mesh, "--axis", "z", "--step", "1e-30"}, "--step"},
      {{broken, "--axis", "z", "--at", "0"}, "broken.obj:3"},
      {{mesh + ".missing", "--axis", "z", "--at", "0"}, "cube.obj.missing"},
      {{mesh, "--axis", "z", "--at", "0", "--svg", (folder.path() / "no" / "x.svg").string()},
       "--svg"},
      {{mesh, "--axis", "z", "--at", "0", "--frobnicate"}, "--frobnicate"},
  };
  for (const auto& [arguments, message] : cases) {
    const Run run = slice_command(arguments);
    INFO(arguments.back());
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(message));
  }
  const Run none = slice_command({empty, "--axis", "z", "--at", "0", "1"});
  CHECK(none.status == 0);
  CHECK(none.out == "plane 0 0\nplane 1 0\n");
  CHECK(slice_command({empty, "--axis", "z", "--layers", "5"}).out.empty());
}

}  // namespace
}  // namespace trisect::cli
