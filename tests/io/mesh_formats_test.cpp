// Mesh files: the same triangles from every format, the triangulation rules of the contract,
// the real meshes, and a corpus of malformed files each with its expected error.
#include <trisect/io/load_mesh.hpp>

#include "scenes/mesh_folder.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace trisect {
namespace {

namespace fs = std::filesystem;

std::vector<Triangle> triangles_of(const Mesh& mesh) {
  std::vector<Triangle> triangles;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    triangles.push_back(mesh.soup().triangle(t));
  return triangles;
}

// A small soup with awkward floats (exactly representable, needing 9 digits), a degenerate
// triangle and a repeated vertex.
std::vector<Triangle> sample_triangles() {
  std::mt19937 random(5);
  std::uniform_real_distribution<float> coordinate(-1000, 1000);
  std::vector<Triangle> triangles;
  for (int i = 0; i < 50; ++i)
    triangles.push_back({{coordinate(random), coordinate(random), coordinate(random)},
                         {coordinate(random), coordinate(random), coordinate(random)},
                         {coordinate(random), 1e-30f, -3.0e30f}});
  triangles.push_back({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}});
  triangles.push_back({{5, 5, 5}, {5, 5, 5}, {5, 5, 5}});
  return triangles;
}

std::string float_text(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(value));
  return buffer;
}

std::string vertex_text(const Vec3& p) {
  return float_text(p.x) + " " + float_text(p.y) + " " + float_text(p.z);
}

std::string as_obj(const std::vector<Triangle>& triangles) {
  std::string out = "# sample\n";
  for (const Triangle& t : triangles)
    out += "v " + vertex_text(t.a) + "\nv " + vertex_text(t.b) + "\nv " + vertex_text(t.c) + "\n";
  for (std::size_t i = 0; i < triangles.size(); ++i)
    out += "f " + std::to_string(3 * i + 1) + " " + std::to_string(3 * i + 2) + "/7 " +
           std::to_string(3 * i + 3) + "//2\n";
  return out;
}

std::string ply_header(const char* format, std::size_t triangles) {
  return std::string("ply\r\nformat ") + format +
         " 1.0\ncomment made by the test\nelement vertex " + std::to_string(3 * triangles) +
         "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
         "element face " +
         std::to_string(triangles) +
         "\nproperty list uchar int vertex_indices\nproperty short flags\n"
         "element extra 1\nproperty list int double stuff\nend_header\n";
}

std::string as_ascii_ply(const std::vector<Triangle>& triangles) {
  std::string out = ply_header("ascii", triangles.size());
  for (const Triangle& t : triangles)
    for (const Vec3& p : {t.a, t.b, t.c}) out += vertex_text(p) + " 255\n";
  for (std::size_t i = 0; i < triangles.size(); ++i)
    out += "3 " + std::to_string(3 * i) + " " + std::to_string(3 * i + 1) + " " +
           std::to_string(3 * i + 2) + " -7\n";
  return out + "2 1.5 2.5\n";
}

template <class T>
void put(std::string& out, T value, bool big_endian) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (big_endian) std::reverse(bytes, bytes + sizeof(T));
  out.append(bytes, sizeof(T));
}

std::string as_binary_ply(const std::vector<Triangle>& triangles, bool big_endian) {
  std::string out =
      ply_header(big_endian ? "binary_big_endian" : "binary_little_endian", triangles.size());
  for (const Triangle& t : triangles)
    for (const Vec3& p : {t.a, t.b, t.c}) {
      put(out, p.x, big_endian);
      put(out, p.y, big_endian);
      put(out, p.z, big_endian);
      put(out, std::uint8_t{255}, big_endian);
    }
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    put(out, std::uint8_t{3}, big_endian);
    for (int k = 0; k < 3; ++k)
      put(out, static_cast<std::int32_t>(3 * i + std::size_t(k)), big_endian);
    put(out, std::int16_t{-7}, big_endian);
  }
  put(out, std::int32_t{2}, big_endian);
  put(out, 1.5, big_endian);
  put(out, 2.5, big_endian);
  return out;
}

std::string as_ascii_stl(const std::vector<Triangle>& triangles) {
  std::string out = "solid sample\n";
  for (const Triangle& t : triangles)
    out += "  facet normal 0 0 1\n    outer loop\n      vertex " + vertex_text(t.a) +
           "\n      vertex " + vertex_text(t.b) + "\n      vertex " + vertex_text(t.c) +
           "\n    endloop\n  endfacet\n";
  return out + "endsolid sample\n";
}

std::string as_binary_stl(const std::vector<Triangle>& triangles) {
  std::string out = "solid header that looks like ascii";
  out.resize(80, ' ');
  put(out, static_cast<std::uint32_t>(triangles.size()), false);
  for (const Triangle& t : triangles) {
    for (int k = 0; k < 3; ++k) put(out, 0.0f, false);
    for (const Vec3& p : {t.a, t.b, t.c}) {
      put(out, p.x, false);
      put(out, p.y, false);
      put(out, p.z, false);
    }
    put(out, std::uint16_t{0}, false);
  }
  return out;
}

using Scratch = testing::ScratchFolder;

TEST_CASE("every format gives the same triangles in the same order", "[io]") {
  const std::vector<Triangle> expected = sample_triangles();
  const Scratch scratch;
  const std::pair<const char*, std::string> files[] = {
      {"a.obj", as_obj(expected)},
      {"a.ply", as_ascii_ply(expected)},
      {"le.ply", as_binary_ply(expected, false)},
      {"be.ply", as_binary_ply(expected, true)},
      {"a.stl", as_ascii_stl(expected)},
      {"b.stl", as_binary_stl(expected)},
      {"binary_stl_without_extension", as_binary_stl(expected)},
      {"ply_named.obj", as_binary_ply(expected, false)},  // by content, not extension
  };
  for (const auto& [name, content] : files) {
    INFO(name);
    const Mesh mesh = load_mesh(scratch.write(name, content));
    CHECK(triangles_of(mesh) == expected);
    REQUIRE(mesh.source_faces.size() == expected.size());
    CHECK(mesh.source_faces.back() == expected.size() - 1);
  }
}

TEST_CASE("OBJ: polygons fan-triangulated, negative indices, lines and points ignored", "[io]") {
  const Mesh mesh = parse_mesh(
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0\nvt 0 0\nvn 0 0 1\n"
      "f 1/1/1 2/1/1 3/1/1 4/1/1 5/1/1\n"  // pentagon: (1,2,3) (1,3,4) (1,4,5)
      "l 1 2\np 3\n"
      "f -1 -2 -3\n"  // relative: (5,4,3)
      "g group\ns off\nusemtl m\nf 2//1 3//1 4//1 # trailing comment\n",
      MeshFormat::obj, "mem.obj");
  CHECK(mesh.indices == std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4, 4, 3, 2, 1, 2, 3});
  CHECK(mesh.source_faces == std::vector<std::uint32_t>{0, 0, 0, 1, 2});
}

TEST_CASE("PLY tristrips: windows alternate orientation, -1 restarts", "[io]") {
  const Mesh mesh = parse_mesh(
      "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\n"
      "property float z\nelement tristrips 1\nproperty list int int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 2 0\n1 2 0\n8 0 1 2 3 -1 3 4 5\n",
      MeshFormat::ply, "strips.ply");
  // window 2 of the first strip is (1, 2, 3) with its first two swapped: (2, 1, 3)
  CHECK(mesh.indices == std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 3, 4, 5});
  CHECK(mesh.triangle_count() == 3);
}

TEST_CASE("a file with no faces is an empty mesh", "[io]") {
  CHECK(parse_mesh("# nothing\nv 1 2 3\n", MeshFormat::obj, "e.obj").triangle_count() == 0);
  CHECK(parse_mesh("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\n"
                   "property float z\nelement face 0\nproperty list uchar int vertex_indices\n"
                   "end_header\n",
                   MeshFormat::ply, "e.ply")
            .triangle_count() == 0);
  CHECK(parse_mesh("solid empty\nendsolid empty\n", MeshFormat::stl, "e.stl").triangle_count() ==
        0);
  std::string binary(80, ' ');
  binary.append(4, '\0');
  CHECK(parse_mesh(binary, MeshFormat::stl, "e.stl").triangle_count() == 0);
}

TEST_CASE("a PLY face element without an index list is an error, not dropped faces", "[io]") {
  const std::string header =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face ";
  const std::string rest = "\nproperty list uchar int corners\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
  CHECK_THROWS_WITH(parse_mesh(header + "1" + rest + "3 0 1 2\n", MeshFormat::ply, "f.ply"),
                    "f.ply:7: element 'face' has no list property 'vertex_indices' or "
                    "'vertex_index'");
  CHECK(parse_mesh(header + "0" + rest, MeshFormat::ply, "f.ply").triangle_count() == 0);
}

fs::path data_folder() { return fs::path(TRISECT_TEST_DATA_DIR) / "malformed"; }

TEST_CASE("malformed files give errors naming the file, the place and the problem", "[io]") {
  const std::pair<const char*, const char*> cases[] = {
      {"index_beyond.obj", "index_beyond.obj:4: vertex index 4 is beyond the 3 vertices"},
      {"index_zero.obj", "index_zero.obj:4: face vertex index 0"},
      {"relative_before_start.obj", "relative_before_start.obj:3: relative vertex index -3"},
      {"two_vertex_face.obj", "two_vertex_face.obj:4: face has 2 vertices"},
      {"nan_vertex.obj", "nan_vertex.obj:2: vertex coordinate 'nan' is not finite"},
      {"inf_vertex.obj", "inf_vertex.obj:2: vertex coordinate 'inf' is not finite"},
      {"short_vertex.obj", "short_vertex.obj:2: vertex needs 3 coordinates"},
      {"bad_number.obj", "bad_number.obj:2: vertex coordinate 'x' is not a number"},
      {"bad_index.obj", "bad_index.obj:4: face vertex 'a' is not an index"},
      {"missing_end_header.ply", "missing_end_header.ply: PLY header has no 'end_header'"},
      {"unknown_format.ply", "unknown_format.ply:3: unknown PLY format"},
      {"face_index_out_of_range.ply", "face_index_out_of_range.ply:13: face 0 has vertex index 7"},
      {"too_few_vertices.ply", "too_few_vertices.ply: PLY data ends early"},
      {"huge_count.ply", "huge_count.ply:3: element 'vertex' declares 4000000000 items"},
      {"nan_vertex.ply", "nan_vertex.ply:12: vertex 2 has a coordinate that is not finite"},
      {"two_vertex_face.ply", "two_vertex_face.ply:13: face 0 has 2 vertices"},
      {"unknown_property_type.ply", "unknown_property_type.ply:4: unknown property type 'half'"},
      {"two_vertex_facet.stl", "two_vertex_facet.stl:6: expected 'vertex', found 'endloop'"},
      {"truncated_ascii.stl", "truncated_ascii.stl: ascii STL ends inside a facet"},
  };
  for (const auto& [file, message] : cases) {
    INFO(file);
    CHECK_THROWS_WITH(load_mesh(data_folder() / file), Catch::Contains(message));
  }
}

TEST_CASE("truncated and oversized binary files are rejected before allocating", "[io]") {
  const std::vector<Triangle> triangles = sample_triangles();
  std::string stl = as_binary_stl(triangles);
  stl.resize(stl.size() - 7);
  CHECK_THROWS_WITH(parse_mesh(stl, MeshFormat::stl, "t.stl"),
                    Catch::Contains("t.stl: byte 80: binary STL declares 52 facets"));
  std::string ply = as_binary_ply(triangles, false);
  ply.resize(ply.size() - 30);
  CHECK_THROWS_WITH(parse_mesh(ply, MeshFormat::ply, "t.ply"), Catch::Contains("t.ply: byte"));
  std::string huge = ply_header("binary_little_endian", 1);
  huge.replace(huge.find("element vertex 3"), 16, "element vertex 2000000000");
  CHECK_THROWS_WITH(parse_mesh(huge, MeshFormat::ply, "h.ply"),
                    Catch::Contains("element 'vertex' declares 2000000000 items"));
  std::string nan_stl = as_binary_stl({{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan_stl.data() + 84 + 12 + 4, &nan, 4);
  CHECK_THROWS_WITH(parse_mesh(nan_stl, MeshFormat::stl, "n.stl"),
                    Catch::Contains("n.stl: byte 96: vertex coordinate is not finite"));
  CHECK_THROWS_WITH(load_mesh("/nonexistent/x.obj"),
                    Catch::Contains("/nonexistent/x.obj: cannot open"));
}

TEST_CASE("the shared real meshes load with their known triangle counts", "[io]") {
  const fs::path folder = scenes::shared_mesh_folder();
  if (!fs::is_directory(folder)) {
    WARN("no shared meshes at " << folder << "; skipping (set TRISECT_MESH_DIR)");
    return;
  }
  const std::pair<const char*, std::size_t> meshes[] = {
      {"stanford-bunny.obj", 69451}, {"fandisk.obj", 12946}, {"spot.obj", 5856},
      {"teapot.obj", 6320},          {"suzanne.obj", 968},   {"cow.obj", 5804},
      {"beetle.obj", 2053}};
  for (const auto& [file, triangles] : meshes) {
    INFO(file);
    CHECK(load_mesh(folder / file).triangle_count() == triangles);
  }
}

}  // namespace
}  // namespace trisect
