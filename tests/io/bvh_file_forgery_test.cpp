// Forged tree files: a file anyone can write with a valid checksum (XXH3 is a checksum, not a
// signature) whose tree would send a query out of its arrays, round in circles or compute with
// NaN. Every load refuses it, checksum verified or not, naming the file and the fault.
#include "support/scenes.hpp"
#include "support/scratch_folder.hpp"
#include "support/tree_file_bytes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/read_file.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace trisect::testing {
namespace {

using namespace tree_file;

constexpr float nan = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();

// The file of a small tree, as `save_bvh` writes it, with what the forgeries edit.
struct SavedTree {
  Bvh bvh = build(noisy_sphere(10, 12, 5).soup());
  std::string bytes;
  Layout at;
  std::uint32_t triangles = static_cast<std::uint32_t>(bvh.size());

  SavedTree() : bytes(bytes_of(bvh)), at(bytes) { REQUIRE(bvh.wide.size() > 1); }

  static std::string bytes_of(const Bvh& bvh) {
    std::ostringstream out(std::ios::binary);
    write_bvh(bvh, out);
    return out.str();
  }
  // The slot where the second leaf starts: float 9 s of the coordinates is its triangle's first
  // vertex's x (lane 0 of the leaf's first group).
  [[nodiscard]] std::uint32_t second_leaf_start() const {
    const auto word = get<std::uint64_t>(bytes, at.leaf_starts);
    return static_cast<std::uint32_t>(std::countr_zero(word & (word - 1)));
  }
  // The first lane of the root that holds a wide node.
  [[nodiscard]] int inner_lane_of_root() const {
    for (int lane = 0; lane < WideNode::width; ++lane)
      if (bvh.wide[0].child[lane] < bvh.wide.size()) return lane;
    FAIL("the root has no wide node child");
    return -1;
  }
};

// What `load_bvh(path, options)` throws as a FileError, or how it failed otherwise.
std::string load_error(const std::filesystem::path& path, const BvhLoadOptions& options) {
  try {
    (void)load_bvh(path, options);
  } catch (const FileError& error) {
    return error.what();
  } catch (const std::exception& error) {
    return std::string("not a FileError: ") + error.what();
  }
  return "loaded";
}

// `forged` with its checksum recomputed is refused by every load, with a message that names
// the file and contains `problem`.
void check_refused(const std::string& forged, const std::string& problem) {
  const ScratchFolder folder;
  const auto path = folder.write("forged.tsb", rechecksummed(forged));
  for (const BvhLoadOptions options :
       {BvhLoadOptions{}, BvhLoadOptions{.verify_checksum = false},
        BvhLoadOptions{.verify_checksum = true, .validate_tree = true}}) {
    INFO("verify_checksum " << options.verify_checksum << ", validate_tree "
                            << options.validate_tree);
    CHECK_THAT(load_error(path, options),
               Catch::StartsWith(path.string() + ": ") && Catch::Contains(problem));
  }
}

TEST_CASE("a forged tree file with a triangle id out of range is refused", "[io][bvh_file]") {
  SavedTree tree;
  put<std::uint32_t>(tree.bytes, tree.at.ids + 4 * 3, tree.triangles + 5);
  check_refused(tree.bytes, "bvh: slot 3 holds id " + std::to_string(tree.triangles + 5) +
                                ", out of range for " + std::to_string(tree.triangles) +
                                " triangles");
}

TEST_CASE("a forged tree file with a triangle id used twice is refused", "[io][bvh_file]") {
  SavedTree tree;
  const auto id = get<std::uint32_t>(tree.bytes, tree.at.ids + 4 * 7);
  put<std::uint32_t>(tree.bytes, tree.at.ids + 4 * 8, id);
  check_refused(tree.bytes, "bvh: id " + std::to_string(id) + " is in two slots");
}

TEST_CASE("a forged tree file with a child index out of range is refused", "[io][bvh_file]") {
  SavedTree tree;
  const int lane = tree.inner_lane_of_root();
  put<std::uint32_t>(tree.bytes, tree.at.node(0, child_at + 4 * std::size_t(lane)), 99999);
  check_refused(tree.bytes, "bvh: wide node 0 child " + std::to_string(lane) +
                                " is wide node 99999, out of range for " +
                                std::to_string(tree.bvh.wide.size()) + " wide nodes");
}

TEST_CASE("a forged tree file whose child is its ancestor or itself is refused", "[io][bvh_file]") {
  SavedTree tree;
  const int lane = tree.inner_lane_of_root();
  const std::uint32_t child = tree.bvh.wide[0].child[lane];
  SECTION("the root's child is the root") {
    put<std::uint32_t>(tree.bytes, tree.at.node(0, child_at + 4 * std::size_t(lane)), 0);
    check_refused(tree.bytes, "bvh: wide node 0 child " + std::to_string(lane) +
                                  " is wide node 0, reached twice");
  }
  SECTION("a node's child is its parent") {
    put<std::uint32_t>(tree.bytes, tree.at.node(child, child_at), 0);
    check_refused(tree.bytes, "bvh: wide node " + std::to_string(child) +
                                  " child 0 is wide node 0, reached twice");
  }
}

TEST_CASE("a forged tree file with a triangle coordinate that is not finite is refused",
          "[io][bvh_file]") {
  SavedTree tree;
  for (const float bad : {nan, infinity, -infinity}) {
    INFO(bad);
    std::string forged = tree.bytes;
    const std::uint32_t slot = tree.second_leaf_start();
    put<float>(forged, tree.at.coordinates + 4 * 9 * std::size_t{slot}, bad);
    check_refused(forged, "bvh: triangle in slot " + std::to_string(slot) +
                              " has a coordinate that is not finite");
  }
}

TEST_CASE("a forged tree file with a triangle outside the root box is refused", "[io][bvh_file]") {
  SavedTree tree;
  const std::uint32_t slot = tree.second_leaf_start();
  put<float>(tree.bytes, tree.at.coordinates + 4 * 9 * std::size_t{slot}, 1e30f);
  check_refused(tree.bytes,
                "bvh: triangle in slot " + std::to_string(slot) + " is outside the root box");
}

TEST_CASE("a forged tree file with a grid origin that is not finite is refused", "[io][bvh_file]") {
  SavedTree tree;
  put<float>(tree.bytes, tree.at.node(1, origin_at + 4), nan);
  check_refused(tree.bytes, "bvh: wide node 1 has a grid origin that is not finite");
}

TEST_CASE("a forged tree file with a grid exponent out of range is refused", "[io][bvh_file]") {
  SavedTree tree;
  for (const std::uint8_t bad : {std::uint8_t{0}, std::uint8_t{255}}) {
    std::string forged = tree.bytes;
    put<std::uint8_t>(forged, tree.at.node(1, exponent_at + 2), bad);
    check_refused(forged, "bvh: wide node 1 has grid exponent " + std::to_string(bad) +
                              " on axis 2, outside 1 to 254");
  }
}

TEST_CASE("a forged tree file with a slot range out of order is refused", "[io][bvh_file]") {
  SavedTree tree;
  const std::uint32_t first1 = tree.bvh.wide[0].first[1], first2 = tree.bvh.wide[0].first[2];
  put<std::uint32_t>(tree.bytes, tree.at.node(0, first_at + 4 * 1), first2);
  put<std::uint32_t>(tree.bytes, tree.at.node(0, first_at + 4 * 2), first1);
  check_refused(tree.bytes, "bvh: wide node 0 child 1 has a bad slot range");
}

TEST_CASE("a forged tree file whose leaf starts split a leaf is refused", "[io][bvh_file]") {
  SavedTree tree;
  // Bit s of the leaf starts marks a leaf starting at slot s: set the first clear bit, inside a
  // leaf.
  const auto word = get<std::uint64_t>(tree.bytes, tree.at.leaf_starts);
  REQUIRE(~word != 0);
  const int slot = std::countr_zero(~word);
  put<std::uint64_t>(tree.bytes, tree.at.leaf_starts, word | std::uint64_t{1} << slot);
  check_refused(tree.bytes,
                "bvh: the leaf starts mark slot " + std::to_string(slot) + ", inside a leaf");
}

TEST_CASE("a forged tree file with a misplaced unused lane or used mask is refused",
          "[io][bvh_file]") {
  SavedTree tree;
  std::size_t node = 0;
  while (node < tree.bvh.wide.size() && tree.bvh.wide[node].used == 0xff) ++node;
  REQUIRE(node < tree.bvh.wide.size());
  const int lane = std::countr_one(tree.bvh.wide[node].used);
  const std::string name = "bvh: wide node " + std::to_string(node);
  SECTION("an unused lane with a face") {
    put<std::uint8_t>(tree.bytes, tree.at.node(node, faces_at + 8 * 1 + std::size_t(lane)), 1);
    check_refused(tree.bytes, name + " has a misplaced unused lane");
  }
  SECTION("an unused lane marked used") {
    put<std::uint8_t>(tree.bytes, tree.at.node(node, used_at), tree.bvh.wide[node].used | 0x80);
    check_refused(tree.bytes, name + " has a wrong used mask");
  }
}

TEST_CASE("a forged tree file with a root box or SAH cost that is not finite is refused",
          "[io][bvh_file]") {
  SavedTree tree;
  SECTION("root box") {
    put<float>(tree.bytes, root_bounds_at + 4, nan);
    check_refused(tree.bytes, "bvh: the root box is not finite");
  }
  SECTION("SAH cost") {
    put<double>(tree.bytes, sah_cost_at, std::numeric_limits<double>::quiet_NaN());
    check_refused(tree.bytes, "bvh: the SAH cost as built is not a finite number of 0 or more");
  }
}

TEST_CASE("a forged tree file with coordinates after the last triangle is refused",
          "[io][bvh_file]") {
  SavedTree tree;
  put<float>(tree.bytes, tree.at.coordinates + 4 * 9 * std::size_t{tree.triangles} + 4, nan);
  check_refused(tree.bytes, "bvh: the coordinates after the last triangle are not zero");
}

TEST_CASE("a forged tree file whose node count wraps the offsets around is refused",
          "[io][bvh_file]") {
  // 2^58 more nodes of 128 bytes each are 2^65 more bytes: the same offsets modulo 2^64.
  SavedTree tree;
  put<std::uint64_t>(tree.bytes, nodes_at, tree.bvh.wide.size() + (std::uint64_t{1} << 58));
  REQUIRE(Layout(tree.bytes).end == tree.bytes.size());
  check_refused(tree.bytes, "inconsistent counts in the header (" + std::to_string(tree.triangles) +
                                " triangles, " +
                                std::to_string(tree.bvh.wide.size() + (std::uint64_t{1} << 58)) +
                                " nodes)");
}

}  // namespace
}  // namespace trisect::testing
