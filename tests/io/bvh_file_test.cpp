// Tree files: a saved tree loads back bit for bit and answers every query; every damaged,
// foreign or unreadable file is refused with a message naming it; a failed save loses nothing.
#include "support/every_query_check.hpp"
#include "support/same_tree.hpp"
#include "support/scenes.hpp"
#include "support/scratch_folder.hpp"
#include "support/tree_file_bytes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/refit.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/read_file.hpp>

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <sstream>
#include <string>

namespace trisect::testing {
namespace {

using namespace tree_file;

std::string bytes_of(const Bvh& bvh) {
  std::ostringstream out(std::ios::binary);
  write_bvh(bvh, out);
  return out.str();
}

TEST_CASE("a saved tree loads back bit for bit and answers every query", "[io][bvh_file]") {
  const ScratchFolder folder;
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    Bvh built = build(scene.soup());
    built.built_sah_cost = 12.5;
    const auto path = folder.path() / "tree.bvh";
    save_bvh(built, path);
    CHECK(is_bvh_file(path));
    CHECK(read_regular_file(path) == bytes_of(built));
    const Bvh loaded = load_bvh(path, {.verify_checksum = true, .validate_tree = true});
    CHECK(same_tree(loaded, built));
    CHECK(loaded.built_sah_cost == 12.5);
    const TriangleSoup soup = scene.soup();
    validate(loaded, &soup);
    check_every_query(loaded, scene, 20);
  }
}

TEST_CASE("the rays' views are not saved, and a loaded tree makes them again and answers the same",
          "[io][bvh_file]") {
  const ScratchFolder folder;
  const Scene scene = noisy_sphere(30, 40, 6);
  const Bvh plain = build(scene.soup());
  const Bvh with_views = build(scene.soup(), {.ray_nodes = true, .ray_leaves = true});
  REQUIRE(with_views.has_ray_leaves());
  const auto path = folder.path() / "views.bvh";
  save_bvh(with_views, path);
  CHECK(read_regular_file(path) == bytes_of(plain));
  Bvh loaded = load_bvh(path, {.verify_checksum = true, .validate_tree = true});
  CHECK(!loaded.has_ray_nodes());
  CHECK(!loaded.has_ray_leaves());
  refresh_ray_nodes(loaded);
  refresh_ray_leaves(loaded);
  REQUIRE(loaded.has_ray_leaves());
  const EdgeGroup made = loaded.ray_leaves.group(0, 4), built = with_views.ray_leaves.group(0, 4);
  REQUIRE(loaded.ray_leaves.bytes() == with_views.ray_leaves.bytes());
  CHECK(std::equal(made.values, made.values + loaded.ray_leaves.bytes() / sizeof(float),
                   built.values));
  check_every_query(loaded, scene, 40);
}

TEST_CASE("an empty tree saves and loads as an empty tree", "[io][bvh_file]") {
  const ScratchFolder folder;
  save_bvh(Bvh{}, folder.path() / "empty.bvh");
  const Bvh loaded = load_bvh(folder.path() / "empty.bvh");
  CHECK(loaded.empty());
  CHECK(loaded.size() == 0);
  CHECK(loaded.bounds().is_empty());
}

TEST_CASE("a loaded tree is refitted in memory, never in its file", "[io][bvh_file]") {
  const ScratchFolder folder;
  const Scene scene = noisy_sphere(30, 40, 4);
  const auto path = folder.path() / "sphere.bvh";
  save_bvh(build(scene.soup()), path);
  const std::string before = read_regular_file(path);
  Bvh loaded = load_bvh(path);
  Scene moved = scene;
  for (Vec3& p : moved.positions) p = 2.0f * p + Vec3(1, 0, 0);
  refit(loaded, moved.soup());
  const TriangleSoup moved_soup = moved.soup();
  validate(loaded, &moved_soup);
  CHECK(read_regular_file(path) == before);
  const Bvh copy = loaded;  // a deep copy outlives nothing it needs
  CHECK(same_tree(copy, loaded));
}

TEST_CASE("damaged, foreign and unreadable tree files are refused, naming the file",
          "[io][bvh_file]") {
  const ScratchFolder folder;
  const std::string good = bytes_of(build(noisy_sphere(10, 12, 5).soup()));
  const auto refused = [&](const std::string& bytes, const std::string& problem) {
    const auto path = folder.write("t.bvh", bytes);
    INFO(problem);
    CHECK_THROWS_WITH(load_bvh(path),
                      Catch::StartsWith(path.string() + ": ") && Catch::Contains(problem));
  };
  for (const std::size_t length : {std::size_t{0}, std::size_t{10}, std::size_t{127}})
    refused(good.substr(0, length), "truncated: " + std::to_string(length) + " bytes, fewer");
  for (const std::size_t length : {std::size_t{128}, good.size() / 2, good.size() - 1})
    refused(good.substr(0, length),
            "truncated: " + std::to_string(length) + " bytes of " + std::to_string(good.size()));
  refused(good + '\0', "trailing bytes");
  std::string bad = good;
  bad[0] = 'x';
  refused(bad, "not a trisect tree file");
  refused("solid cube\nendsolid cube\n" + std::string(200, ' '), "not a trisect tree file");
  bad = good;
  put<std::uint32_t>(bad, byte_order_at, 0x04030201u);
  refused(bad, "other byte order");
  bad = good;
  put<std::uint32_t>(bad, version_at, 2);
  refused(bad, "tree file version 2, but this trisect reads version 1");
  bad = good;
  put<std::uint32_t>(bad, node_bytes_at, 64);
  refused(bad, "another layout");
  bad = good;
  put<std::uint64_t>(bad, triangles_at, std::uint64_t{1} << 62);
  refused(bad, "inconsistent counts");
  for (const std::size_t at :
       {std::size_t{100}, std::size_t{128}, good.size() / 2, good.size() - 1}) {
    bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    refused(bad, "checksum mismatch");
  }
  CHECK_THROWS_WITH(load_bvh(folder.path()), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(load_bvh(folder.path() / "missing.bvh"), Catch::Contains("cannot open file"));
  CHECK_THROWS_WITH(load_bvh("/dev/zero"), Catch::Contains("is not a regular file"));
  CHECK_FALSE(is_bvh_file(folder.path()));
  CHECK_FALSE(is_bvh_file(folder.path() / "missing.bvh"));
  CHECK_FALSE(is_bvh_file(folder.write("cube.obj", "v 0 0 0\n")));
}

TEST_CASE("a tree that is broken but checksummed is refused on every load", "[io][bvh_file]") {
  const ScratchFolder folder;
  Bvh broken = build(noisy_sphere(10, 12, 6).soup());
  broken.wide[0].child[0] = 999999;  // a child out of range
  save_bvh(broken, folder.path() / "broken.bvh");
  for (const bool verify_checksum : {true, false})
    for (const bool validate_tree : {true, false})
      CHECK_THROWS_WITH(load_bvh(folder.path() / "broken.bvh", {.verify_checksum = verify_checksum,
                                                                .validate_tree = validate_tree}),
                        Catch::Contains("broken.bvh: bvh: wide node 0 child 0 is wide node 999999, "
                                        "out of range"));
}

TEST_CASE("a save that cannot finish leaves the old file and no other", "[io][bvh_file]") {
  const ScratchFolder folder;
  const auto path = folder.path() / "kept.bvh";
  save_bvh(build(noisy_sphere(4, 5, 7).soup()), path);
  const std::string old = read_regular_file(path);
  const Bvh large = build(noisy_sphere(100, 100, 8).soup());
  // A file size limit makes writes fail as a full disk does; in a child process, which then
  // reports by its exit status whether save_bvh threw the expected error.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      save_bvh(large, path);
    } catch (const FileError& error) {
      const bool named =
          std::string(error.what()).find("kept.bvh: cannot write: ") != std::string::npos;
      ::_exit(named ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(read_regular_file(path) == old);
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder.path()))
    ++files;
  CHECK(files == 1);
  CHECK_THROWS_WITH(save_bvh(large, folder.path() / "no" / "such" / "folder.bvh"),
                    Catch::Contains("folder.bvh: cannot create file"));
  // A device cannot be replaced: it is written in place (contract 5's rule), and fails.
  CHECK_THROWS_WITH(save_bvh(large, "/dev/full"),
                    Catch::Contains("/dev/full: cannot write: No space left on device"));
}

// Contract 5's rule for links, which save_bvh shares with the command (issue 35, item 6): a
// link is followed, through a chain and to a file that does not exist yet, and stays a link.
TEST_CASE("save_bvh through a symbolic link writes the file it leads to", "[io][bvh_file]") {
  namespace fs = std::filesystem;
  const ScratchFolder folder;
  const Bvh bvh = build(noisy_sphere(6, 7, 3).soup());
  fs::create_directory(folder.path() / "trees");
  const fs::path target = folder.path() / "trees" / "tree.bvh";
  // A dangling link (relative, read from the link's folder), then a link to that link.
  fs::create_symlink("trees/tree.bvh", folder.path() / "dangling.bvh");
  fs::create_symlink("dangling.bvh", folder.path() / "chain.bvh");
  for (const char* name : {"dangling.bvh", "chain.bvh"}) {
    INFO(name);
    fs::remove(target);
    const fs::path link = folder.path() / name;
    save_bvh(bvh, link);
    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(fs::is_regular_file(fs::symlink_status(target)));
    CHECK(read_regular_file(target) == bytes_of(bvh));
    CHECK(same_tree(load_bvh(link), bvh));
    int files = 0;  // no temporary file left beside the target
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(target.parent_path())) ++files;
    CHECK(files == 1);
  }
  CHECK(fs::read_symlink(folder.path() / "dangling.bvh") == "trees/tree.bvh");
  CHECK(fs::read_symlink(folder.path() / "chain.bvh") == "dangling.bvh");
}

}  // namespace
}  // namespace trisect::testing
