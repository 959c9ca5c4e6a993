// What a careless or hostile input gets from the mesh readers (issue 10): numbers read as strtof
// reads them at any length, short quotations of huge tokens, only regular files read, out of
// memory reported, one polygon's size bounded.
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/read_file.hpp>
#include <trisect/io/text_token.hpp>

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

namespace trisect {
namespace {

// Tokens from_chars refuses or that exceed 64 characters, which the mesh readers once refused
// while query files (strtof) took them.
std::vector<std::string> long_number_tokens() {
  return {"+1." + std::string(70, '0'), "0." + std::string(5000, '0') + "1",
          "0x1." + std::string(64, '0') + "8p-3", "-" + std::string(80, '0') + "2.5e-1",
          "1" + std::string(60, '0') + "e-60"};
}

TEST_CASE("numbers of any length are read as strtof reads them", "[io]") {
  for (const std::string& token : long_number_tokens()) {
    INFO(token.substr(0, 20));
    const auto value = read_float(token);
    REQUIRE(value.has_value());
    CHECK(*value == std::strtof(token.c_str(), nullptr));
  }
  CHECK(read_float("+1." + std::string(70, '0')) == 1.0f);
  CHECK(read_float("0." + std::string(5000, '0') + "1") == 0.0f);  // 1e-5001 rounds to 0
  CHECK(read_float("0x1." + std::string(64, '0') + "8p-3") == 0.125f);
  CHECK_FALSE(read_float("1." + std::string(70, '0') + "x").has_value());
  CHECK_FALSE(read_float(" 1").has_value());
  CHECK_FALSE(read_float("").has_value());
}

TEST_CASE("mesh coordinates of any length load as query numbers do", "[io]") {
  const testing::ScratchFolder folder;
  for (const std::string& token : long_number_tokens()) {
    const auto path = folder.write("long.obj", "v " + token + " 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const Mesh mesh = load_mesh(path);
    REQUIRE(mesh.positions.size() == 3);
    CHECK(mesh.positions[0].x == std::strtof(token.c_str(), nullptr));
  }
}

TEST_CASE("a huge token is quoted by a short prefix in the error", "[io]") {
  const testing::ScratchFolder folder;
  const std::string huge(1'000'000, '7');
  const auto path = folder.write("huge.obj", "v 1 2 " + huge + "x\n");
  try {
    (void)load_mesh(path);
    FAIL("no error");
  } catch (const MeshError& error) {
    const std::string message = error.what();
    CHECK(message.size() < 200);
    CHECK_THAT(message, Catch::Contains("huge.obj:1: vertex coordinate '777") &&
                            Catch::Contains("...' (1000001 characters) is not a number"));
  }
  CHECK(quoted_excerpt("box") == "'box'");
  CHECK(quoted_excerpt(std::string(41, 'a')) ==
        "'" + std::string(40, 'a') + "...' (41 characters)");
}

TEST_CASE("only regular files are read: directories, FIFOs and devices are refused", "[io]") {
  const testing::ScratchFolder folder;
  const auto fifo = folder.write("placeholder", "").parent_path() / "mesh.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: opening it would block forever
  CHECK_THROWS_WITH(load_mesh(fifo),
                    Catch::Contains("mesh.fifo: is not a regular file (a FIFO, device or socket)"));
  CHECK_THROWS_WITH(load_mesh("/dev/zero"), Catch::Contains("/dev/zero: is not a regular file"));
  CHECK_THROWS_WITH(load_mesh(fifo.parent_path()), Catch::Contains(": is a directory"));
  CHECK_THROWS_AS(read_regular_file(fifo), FileError);
  CHECK_THROWS_WITH(load_mesh(fifo.parent_path() / "absent.obj"),
                    Catch::Contains("absent.obj: cannot open file"));
}

TEST_CASE("a mesh too large for memory is an error naming the file", "[io]") {
  if (!testing::huge_allocations_throw) {
    WARN("AddressSanitizer aborts on huge allocations: not tested here");
    return;
  }
  const testing::ScratchFolder folder;
  const auto path = folder.write("sparse.obj", "");
  std::filesystem::resize_file(path, std::uintmax_t(1) << 43);  // 8 TB, sparse: no disk used
  CHECK_THROWS_WITH(load_mesh(path), Catch::Contains("sparse.obj: out of memory"));
}

TEST_CASE("one polygon has at most max_polygon_vertices vertices", "[io]") {
  const testing::ScratchFolder folder;
  const auto face = [](std::size_t corners) {
    std::string line = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf";
    for (std::size_t i = 0; i < corners; ++i) line += i % 3 == 0 ? " 1" : i % 3 == 1 ? " 2" : " 3";
    return line + "\n";
  };
  CHECK(load_mesh(folder.write("largest.obj", face(max_polygon_vertices))).triangle_count() ==
        max_polygon_vertices - 2);
  CHECK_THROWS_WITH(load_mesh(folder.write("larger.obj", face(max_polygon_vertices + 1))),
                    Catch::Contains("larger.obj:4: face has more than 1048576 vertices"));
}

}  // namespace
}  // namespace trisect
