// The tree file format as documented (docs/contracts.md section 8, "Tree files"), not as the
// writer happens to write it: a file of three triangles written here byte by byte, at offsets
// worked out by hand from the documentation, loads and answers exactly, and the writer gives
// the same bytes back. A writer and reader that agree with each other but not with the
// documentation (another alignment, another field order) fail here.
#include "support/scratch_folder.hpp"
#include "support/tree_file_bytes.hpp"

#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/read_file.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace trisect::testing {
namespace {

using tree_file::put;

// The triangles by input id: 0 and 1 in one leaf (slots 0 and 1 hold ids 1 and 0), 2 alone in
// another (slot 2).
const Triangle triangles[3] = {
    {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
    {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
    {{2, 0, 0}, {3, 0, 0}, {2, 1, 1}},
};

// The file, 460 bytes: the header (0-127), the one wide node (128-255), 30 coordinates
// (256-375), zeros to 384, one leaf-start word (384-391), zeros to 448, three ids (448-459).
std::string handmade_file() {
  std::string bytes(460, '\0');
  bytes.replace(0, 8, "\x89TRBVH\r\n");
  put<std::uint32_t>(bytes, 8, 1);            // version
  put<std::uint32_t>(bytes, 12, 0x01020304);  // byte-order mark
  put<std::uint32_t>(bytes, 16, 128);         // header bytes
  put<std::uint32_t>(bytes, 20, 128);         // wide node bytes
  put<std::uint64_t>(bytes, 24, 3);           // triangles
  put<std::uint64_t>(bytes, 32, 1);           // wide nodes
  put<std::uint64_t>(bytes, 40, 9 * 3 + 3);   // coordinates: 9 per triangle, 3 zeros
  put<std::uint64_t>(bytes, 48, 3 / 64 + 1);  // leaf-start words
  const float root_box[6] = {0, 0, 0, 3, 1, 1};
  for (int i = 0; i < 6; ++i) put<float>(bytes, 56 + 4 * std::size_t(i), root_box[i]);
  put<double>(bytes, 80, 2.5);         // SAH cost as built
  put<std::uint64_t>(bytes, 88, 460);  // file size

  // The root: grid origin (0, 0, 0), steps 2^-6 on x (3 / 255 <= 2^-6) and 2^-7 on y and z.
  put<float>(bytes, 128, 0);
  put<float>(bytes, 132, 0);
  put<float>(bytes, 136, 0);
  put<std::uint8_t>(bytes, 140, 127 - 6);
  put<std::uint8_t>(bytes, 141, 127 - 7);
  put<std::uint8_t>(bytes, 142, 127 - 7);
  put<std::uint8_t>(bytes, 143, 0b11);  // lanes 0 and 1 used
  // Faces, 8 lanes a row: lower x, upper x, lower y, upper y, lower z, upper z.
  const std::uint8_t faces[6][2] = {{0, 128}, {64, 192}, {0, 0}, {128, 128}, {0, 0}, {128, 128}};
  for (int row = 0; row < 6; ++row)
    for (int lane = 0; lane < 2; ++lane)
      put<std::uint8_t>(bytes, 144 + 8 * std::size_t(row) + std::size_t(lane), faces[row][lane]);
  const std::uint32_t child[8] = {0x7fffffff, 0x7fffffff, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u};
  const std::uint32_t first[8] = {0, 2, 3, 3, 3, 3, 3, 3};
  for (int lane = 0; lane < 8; ++lane) {
    put<std::uint32_t>(bytes, 192 + 4 * std::size_t(lane), child[lane]);
    put<std::uint32_t>(bytes, 224 + 4 * std::size_t(lane), first[lane]);
  }

  // Slots 0-1, a group of two: coordinate j = 3 * vertex + axis of lane i at 2 j + i; lane 0
  // is triangle 1, lane 1 triangle 0. Slot 2, a group of one: triangle 2's 9 coordinates.
  const float coordinates[27] = {0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0,
                                 1, 1, 1, 0, 2, 0, 0, 3, 0, 0, 2, 1, 1};
  for (int i = 0; i < 27; ++i) put<float>(bytes, 256 + 4 * std::size_t(i), coordinates[i]);
  put<std::uint64_t>(bytes, 384, 0b1101);  // leaves start at slots 0 and 2; bit 3 = the end
  const std::uint32_t ids[3] = {1, 0, 2};
  for (int slot = 0; slot < 3; ++slot)
    put<std::uint32_t>(bytes, 448 + 4 * std::size_t(slot), ids[slot]);
  put<std::uint64_t>(bytes, 96, tree_file::checksum_of(bytes));
  return bytes;
}

std::vector<TriangleId> sorted(std::vector<TriangleId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST_CASE("a tree file written by hand from the documented format loads and answers exactly",
          "[io][bvh_file]") {
  const ScratchFolder folder;
  const std::string handmade = handmade_file();
  const auto path = folder.write("handmade.tsb", handmade);
  const Bvh bvh = load_bvh(path, {.verify_checksum = true, .validate_tree = true});
  std::vector<Vec3> corners;
  for (const Triangle& triangle : triangles)
    corners.insert(corners.end(), {triangle.a, triangle.b, triangle.c});
  const TriangleSoup soup{corners};
  validate(bvh, &soup);
  CHECK(bvh.size() == 3);
  CHECK(bvh.built_sah_cost == 2.5);
  CHECK(bvh.bounds() == Aabb{{0, 0, 0}, {3, 1, 1}});
  CHECK(std::vector<TriangleId>(bvh.ids.begin(), bvh.ids.end()) ==
        std::vector<TriangleId>{1, 0, 2});
  for (std::uint32_t slot = 0; slot < 3; ++slot)
    CHECK(bvh.triangles.triangle(slot) == triangles[bvh.ids[slot]]);
  CHECK(sorted(collect_touching(bvh, Aabb{{0, 0, 0}, {3, 1, 1}})) ==
        std::vector<TriangleId>{0, 1, 2});
  CHECK(collect_touching(bvh, Aabb{{0, 0, -1}, {1, 1, 0}}) == std::vector<TriangleId>{0});
  CHECK(collect_touching(bvh, Aabb{{3, 0, 0}, {4, 0, 0}}) == std::vector<TriangleId>{2});
  CHECK(collect_touching(bvh, Aabb{{1.5f, 0, 0}, {1.9f, 1, 1}}).empty());
  const auto hit = closest_hit(bvh, Ray{{0.25f, 0.25f, 5}, {0, 0, -1}});
  REQUIRE(hit);
  CHECK(hit->id == 1);
  CHECK(hit->t == 4);

  SECTION("the writer gives the same bytes") {
    save_bvh(bvh, folder.path() / "saved.tsb");
    CHECK(read_regular_file(folder.path() / "saved.tsb") == handmade);
  }
}

TEST_CASE("an empty tree's file is as documented", "[io][bvh_file]") {
  // 256 bytes: the header, 3 zero floats at 128, the leaf-start word 1 at 192, no ids.
  std::string handmade(256, '\0');
  handmade.replace(0, 8, "\x89TRBVH\r\n");
  put<std::uint32_t>(handmade, 8, 1);
  put<std::uint32_t>(handmade, 12, 0x01020304);
  put<std::uint32_t>(handmade, 16, 128);
  put<std::uint32_t>(handmade, 20, 128);
  put<std::uint64_t>(handmade, 40, 3);
  put<std::uint64_t>(handmade, 48, 1);
  const float inf = std::numeric_limits<float>::infinity();
  const float empty_box[6] = {inf, inf, inf, -inf, -inf, -inf};
  for (int i = 0; i < 6; ++i) put<float>(handmade, 56 + 4 * std::size_t(i), empty_box[i]);
  put<std::uint64_t>(handmade, 88, 256);
  put<std::uint64_t>(handmade, 192, 1);
  put<std::uint64_t>(handmade, 96, tree_file::checksum_of(handmade));
  const ScratchFolder folder;
  CHECK(load_bvh(folder.write("empty.tsb", handmade)).empty());
  save_bvh(Bvh{}, folder.path() / "saved.tsb");
  CHECK(read_regular_file(folder.path() / "saved.tsb") == handmade);
}

}  // namespace
}  // namespace trisect::testing
