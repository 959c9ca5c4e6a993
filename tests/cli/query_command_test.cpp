// The `trisect query` contract (docs/contracts.md), case by case, run in-process.
#include <trisect/cli/run.hpp>

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace trisect::cli {
namespace {

namespace fs = std::filesystem;

struct Run {
  int status;
  std::string out, err;
};

// A scratch folder whose write() gives the path as a string, as the command takes it.
class Scratch {
 public:
  std::string write(const std::string& name, const std::string& content) const {
    return folder_.write(name, content).string();
  }

 private:
  testing::ScratchFolder folder_;
};

Run query(const std::string& mesh, const std::string& queries) {
  std::ostringstream out, err;
  const int status = run({"query", mesh, queries}, out, err);
  return {status, out.str(), err.str()};
}

// Two unit right triangles: 0 in the plane z = 0, 1 in the plane x = 0; and a degenerate
// triangle 2 (a segment from (2,0,0) to (3,0,0)).
const char* const two_triangles_obj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 2 0 0\nv 3 0 0\n"
    "f 1 2 3\nf 1 3 4\nf 5 6 5\n";

Run query_on_two_triangles(const std::string& queries) {
  const Scratch scratch;
  return query(scratch.write("mesh.obj", two_triangles_obj), scratch.write("q.txt", queries));
}

TEST_CASE("query answers each kind, one line per query, in order", "[cli]") {
  const Run run = query_on_two_triangles(
      "box 0.25 0.25 -1 0.5 0.5 1\n"           // inside triangle 0 only
      "box 0 0 0 0 0 0\n"                      // the shared vertex: both
      "box 2.5 -1 -1 2.6 1 1\n"                // crosses the degenerate segment
      "box 5 5 5 6 6 6\n"                      // nothing: empty line
      "plane 0 0 1 0\n"                        // z = 0: triangle 0 (face), 1 (edge), 2 (segment)
      "plane 0 0 1 1\n"                        // z = 1 touches triangle 1 at its vertex
      "sphere 0 0 2 1\n"                       // tangent to triangle 1 at (0,0,1)
      "sphere 0.3 0.3 0.5 0.29\n"              // 0.3 from triangle 1, 0.5 from 0: none
      "ray 0.25 0.25 5 0 0 -1\n"               // hits triangle 0 at t = 5
      "ray 0.25 0.25 5 0 0 -1 0 4\n"           // TMAX too small: miss
      "ray 0.25 0.25 5 0 0 -1 6 4\n"           // TMIN > TMAX: miss
      "ray -1 0.25 0.25 1 0 0\n"               // hits triangle 1 (x = 0) at t = 1
      "ray -1 0.25 0 1 0 0\n"                  // in the plane of triangle 0: hits triangle 1 only
      "ray 1.5 0 0 1 0 0\n"                    // along the degenerate segment: rays never hit it
      "capsule 0.25 0.25 1 0.25 0.25 2 1\n"    // 1 above triangle 0 (tangent); 0.31 from 1
      "capsule 0.25 0.25 1.5 0.25 0.25 3 1\n"  // 1.5 above 0; 0.61 from 1's vertex (0,0,1)
      "capsule 1.5 0 0 2 0 0 0\n"              // a segment ending on the degenerate segment
      "capsule 1.5 0 0 1.75 0 0 0.25\n"        // exactly 0.25 short of it: touching
      "obb 0.25 0.25 1 1 0 0 0 1 0 0 0 1 0.1 0.1 1\n"    // down to z = 0: triangle 0
      "obb 3.5 0 0 1 1 0 -1 1 0 0 0 1 0.25 0.25 0.25\n"  // a corner on the segment's end
      "obb 3.5 0 0 1 1 0 -1 1 0 0 0 1 0.24 0.25 0.25\n"  // 0.01 short of it: none
      "obb 0 0.5 0.5 0 1 0 0 0 1 1 0 0 0.2 0.2 0\n"      // flat, in x = 0: triangle 1
      // x + y + z <= 0 in a big box: the shared vertex (0, 0, 0) of triangles 0 and 1 only
      "frustum 1 1 1 0 1 0 0 9 0 1 0 9 0 0 1 9 -1 0 0 9 0 -1 0 9\n"
      // x + y + z <= -2^-20: nothing
      "frustum 1 1 1 -0x1p-20 1 0 0 9 0 1 0 9 0 0 1 9 -1 0 0 9 0 -1 0 9\n"
      // 2.5 <= x <= 2.5: the plane crossing the degenerate segment (triangle 2)
      "frustum 1 0 0 2.5 -1 0 0 -2.5 0 1 0 9 0 -1 0 9 0 0 1 9 0 0 -1 9\n"
      // A box whose bottom is 1.5 above triangle 0 moving down by 3: t = 0.5
      "cast 0.25 0.25 2 1 0 0 0 1 0 0 0 1 0.1 0.1 0.5 0 0 -3\n"
      // onto the degenerate segment at t = 0.9 (printed as the nearest float)
      "cast 2.5 0 1 1 0 0 0 1 0 0 0 1 0.1 0.1 0.1 0 0 -1\n"
      // moving away: none
      "cast 5 5 5 1 0 0 0 1 0 0 0 1 1 1 1 1 1 1\n"
      // a point box on the shared vertex, not moving: triangles 0 and 1 at t = 0
      "cast 0 0 0 1 0 0 0 1 0 0 0 1 0 0 0 0 0 0\n");
  CHECK(run.status == 0);
  CHECK(run.err.empty());
  CHECK(run.out ==
        "0\n0 1\n2\n\n0 1 2\n1\n1\n\n5 0\nmiss\nmiss\n1 1\n1 1\nmiss\n0 1\n1\n2\n2\n0\n2\n\n1\n0 "
        "1\n\n2\n0.5 0\n0.899999976 2\nnone\n0 0\n");
}

TEST_CASE("comments, blank lines, tabs and CRLF are accepted", "[cli]") {
  const Run run = query_on_two_triangles(
      "# a comment\r\n\r\n   \t\r\n  # indented comment\r\nplane\t0 0\t1   0\r\n"
      "box 0 0 0 0 0 0");  // last line without a newline
  CHECK(run.status == 0);
  CHECK(run.out == "0 1 2\n0 1\n");
}

TEST_CASE("numbers are read as strtof reads them, inf where a bound makes sense", "[cli]") {
  const Run run = query_on_two_triangles(
      "box -inf -inf -inf inf inf inf\n"  // everything
      "box -inf -inf 0.5 inf inf inf\n"   // z >= 0.5: triangle 1 only
      "box 1e40 0 0 2e40 1 1\n"           // beyond float range: rounds to inf, touches nothing
      "sphere 0 0 0 inf\n"                // all of space
      "ray 0.25 0.25 5 0 0 -1 -inf inf\n"
      "plane 0x1p0 0 0 0.0e0\n"  // hexadecimal float: x = 0
      "box +1 0 0 1.0 0 0\n");
  CHECK(run.status == 0);
  CHECK(run.out == "0 1 2\n1\n\n0 1 2\n5 0\n0 1\n0\n");
}

TEST_CASE("ray t is printed with 9 significant digits", "[cli]") {
  // t = float(0.1) / 3 exactly (0.0333333338300...), not rounded to float (0.0333333351).
  const Run run = query_on_two_triangles("ray 0.25 0.25 0.1 0 0 -3\nray 0.25 0.25 1e6 0 0 -1\n");
  CHECK(run.status == 0);
  CHECK(run.out == "0.0333333338 0\n1000000 0\n");
}

TEST_CASE("a ray starting on a triangle prints t as 0 from either side and never -0", "[cli]") {
  const Run run = query_on_two_triangles("ray 0.25 0.25 0 0 0 1\nray 0.25 0.25 0 0 0 -1\n");
  CHECK(run.status == 0);
  CHECK(run.out == "0 0\n0 0\n");
}

TEST_CASE("a mesh with no faces answers every query with nothing", "[cli]") {
  const Scratch scratch;
  const Run run =
      query(scratch.write("empty.obj", "# no faces\nv 0 0 0\n"),
            scratch.write("q.txt", "box -1 -1 -1 1 1 1\nplane 0 0 1 0\nray 0 0 1 0 0 -1\n"));
  CHECK(run.status == 0);
  CHECK(run.out == "\n\nmiss\n");
}

struct BadQuery {
  const char* content;
  const char* message;
};

TEST_CASE("bad query lines: exit 2, nothing on stdout, file and line on stderr", "[cli]") {
  const BadQuery cases[] = {
      {"box 0 0 0 1 1 1\ncube 0 0 0 1 1 1\n", "q.txt:2: unknown query 'cube'"},
      {"\n\nbox 0 0 0 1 1\n", "q.txt:3: 'box' takes 6 numbers"},
      {"plane 0 0 1 0 7\n", "q.txt:1: 'plane' takes 4 numbers"},
      {"plane 0 0 0 1\n", "q.txt:1: plane normal is zero"},
      {"plane 0 0 inf 1\n", "q.txt:1: plane normal 'inf' is infinite"},
      {"plane 0 0 1 nan\n", "q.txt:1: plane offset D is NaN"},
      {"sphere 0 0 0 -1\n", "q.txt:1: radius R is negative"},
      {"sphere 0 inf 0 1\n", "q.txt:1: sphere centre 'inf' is infinite"},
      {"capsule 0 0 0 1 1 1 -1\n", "q.txt:1: radius R is negative"},
      {"capsule 0 0 0 1 1 1 inf\n", "q.txt:1: radius R 'inf' is infinite"},
      {"capsule 0 0 0 1 1 1\n", "q.txt:1: 'capsule' takes 7 numbers"},
      {"capsule 0 nan 0 1 1 1 1\n", "q.txt:1: capsule end is NaN"},
      {"obb 0 0 0 1 0 0 0 1 0 1 1 0 1 1 1\n", "q.txt:1: obb: axes are linearly dependent"},
      {"obb 0 0 0 1 0 0 0 0 0 0 0 1 1 1 1\n", "q.txt:1: obb: axis 1 is zero"},
      {"obb 0 0 0 1 0 0 0 1 0 0 0 1 1 -1 1\n", "q.txt:1: obb: half extent 1 is negative"},
      {"obb 0 0 0 1 0 0 0 1 0 0 0 1 1 1\n", "q.txt:1: 'obb' takes 15 numbers"},
      {"obb 0 0 0 1 0 0 0 1 0 0 0 inf 1 1 1\n", "q.txt:1: obb axis 'inf' is infinite"},
      {"frustum 1 0 0 1 1 0 0 1 1 0 0 1 1 0 0 1 1 0 0 1 0 0 0 1\n",
       "q.txt:1: frustum plane 5 normal is zero"},
      {"frustum 1 0 0 1\n", "q.txt:1: 'frustum' takes 24 numbers"},
      {"frustum 1 0 0 inf 1 0 0 1 1 0 0 1 1 0 0 1 1 0 0 1 1 0 0 1\n",
       "q.txt:1: frustum plane offset D 'inf' is infinite"},
      {"cast 0 0 0 1 0 0 0 1 0 0 0 1 1 1 1 0 0\n", "q.txt:1: 'cast' takes 18 numbers"},
      {"cast 0 0 0 1 0 0 0 1 0 0 0 1 1 1 1 0 nan 0\n", "q.txt:1: cast motion is NaN"},
      {"cast 0 0 0 1 0 0 1 0 0 0 0 1 1 1 1 0 0 1\n", "q.txt:1: obb: axes are linearly dependent"},
      {"ray 0 0 0 0 0 0\n", "q.txt:1: ray direction is zero"},
      {"ray 0 0 0 0 0 1 0 1 2\n", "q.txt:1: 'ray' takes 6 to 8 numbers"},
      {"ray 0 0 0 0 0 1 nan\n", "q.txt:1: TMIN is NaN"},
      {"box 0 0 0 1 1 1x\n", "q.txt:1: box corner '1x' is not a number"},
      {"box 0 0 0 1 1 1 # comment\n", "q.txt:1: 'box' takes 6 numbers"},
      {"# fine\r\nbox 0,0 0 0 1 1 1\r\n", "q.txt:2: box corner '0,0' is not a number"},
  };
  for (const BadQuery& bad : cases) {
    INFO(bad.content);
    const Run run = query_on_two_triangles(bad.content);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(bad.message));
  }
}

TEST_CASE("bad files and arguments: exit 2 with the file named", "[cli]") {
  const Scratch scratch;
  const std::string mesh = scratch.write("mesh.obj", two_triangles_obj);
  const std::string queries = scratch.write("q.txt", "plane 0 0 1 0\n");
  Run run = query(mesh, scratch.write("missing_dir_sibling.txt", "") + ".absent");
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains(".absent"));
  run = query(scratch.write("bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 9\n"), queries);
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, Catch::Contains("bad.obj:3"));
}

}  // namespace
}  // namespace trisect::cli
