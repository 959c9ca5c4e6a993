// The one atomic writer (src/io/atomic_file.hpp) that `save_bvh` and every output of the
// command share: its policy for new files, replaced files, symbolic links, special files and
// failures, tested here once, on the writer itself.
#include "io/atomic_file.hpp"
#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <future>
#include <iterator>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace trisect::testing {
namespace {

namespace fs = std::filesystem;

// The names in `folder` (hidden temporary files included).
std::size_t entry_count(const fs::path& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), {}));
}

void write_whole(const fs::path& path, const std::string& text) {
  io::AtomicFile file(path);
  file.stream() << text;
  file.publish();
}

TEST_CASE("atomic file: a new file appears whole on publish, with 0666 minus the umask",
          "[io][atomic]") {
  const ScratchFolder folder;
  const fs::path path = folder.path() / "new.txt";
  const mode_t old_mask = ::umask(022);
  {
    io::AtomicFile file(path);
    file.stream() << "hello";
    file.finish();
    CHECK_FALSE(fs::exists(path));  // not before publish
    CHECK(entry_count(folder.path()) == 1);
    file.publish();
  }
  ::umask(old_mask);
  CHECK(file_contents(path) == "hello");
  CHECK((fs::status(path).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
         fs::perms::others_read));
  CHECK(entry_count(folder.path()) == 1);
}

TEST_CASE("atomic file: an unpublished file leaves the old one and no temporary", "[io][atomic]") {
  const ScratchFolder folder;
  const fs::path path = folder.write("kept.txt", "old");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_write);
  {
    io::AtomicFile file(path);
    file.stream() << "new, never published";
  }
  CHECK(file_contents(path) == "old");
  CHECK(entry_count(folder.path()) == 1);
  write_whole(path, "replaced");  // a replaced file keeps its permission bits
  CHECK(file_contents(path) == "replaced");
  CHECK((fs::status(path).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_write));
}

TEST_CASE("atomic file: links are followed, chains and dangling ones too, and stay links",
          "[io][atomic]") {
  const ScratchFolder folder;
  fs::create_directory(folder.path() / "trees");
  fs::create_symlink("trees/out.txt", folder.path() / "dangling");
  fs::create_symlink("dangling", folder.path() / "chain");
  CHECK(io::write_target(folder.path() / "chain") == folder.path() / "trees/out.txt");
  write_whole(folder.path() / "chain", "through two links");
  CHECK(fs::is_symlink(fs::symlink_status(folder.path() / "chain")));
  CHECK(fs::is_symlink(fs::symlink_status(folder.path() / "dangling")));
  CHECK(fs::is_regular_file(fs::symlink_status(folder.path() / "trees/out.txt")));
  CHECK(file_contents(folder.path() / "trees/out.txt") == "through two links");

  fs::create_symlink("loop_b", folder.path() / "loop_a");
  fs::create_symlink("loop_a", folder.path() / "loop_b");
  try {
    (void)io::write_target(folder.path() / "loop_a");
    FAIL("a cycle of links was followed");
  } catch (const std::system_error& error) {
    CHECK(error.code() == std::errc::too_many_symbolic_link_levels);
  }
}

TEST_CASE("atomic file: special files are written in place, directories refused", "[io][atomic]") {
  const ScratchFolder folder;
  write_whole("/dev/null", "discarded");  // a device: nothing to rename, no error
  CHECK(fs::is_character_file("/dev/null"));

  const fs::path fifo = folder.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto reader = std::async(std::launch::async, [&] { return file_contents(fifo); });
  write_whole(fifo, "through the pipe");
  CHECK(reader.get() == "through the pipe");
  CHECK(fs::is_fifo(fifo));

  CHECK_THROWS_AS(io::AtomicFile(folder.path()), std::system_error);
}

TEST_CASE("atomic file: a full device is a write error, reported by finish", "[io][atomic]") {
  io::AtomicFile file("/dev/full");
  file.stream() << std::string(1 << 16, 'x');
  try {
    file.finish();
    FAIL("writing to /dev/full succeeded");
  } catch (const std::system_error& error) {
    CHECK(error.code() == std::errc::no_space_on_device);
    CHECK_THAT(error.what(), Catch::Contains("cannot write"));
  }
}

}  // namespace
}  // namespace trisect::testing
