// `trisect query` against careless and hostile input (issue 10): every input gets the exact
// answer or a clear error, and answers stream out in bounded memory.
#include <trisect/cli/query_file.hpp>
#include <trisect/cli/run.hpp>

#include "support/run_command.hpp"

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <sstream>
#include <streambuf>

namespace trisect::cli {
namespace {

using testing::CommandRun;

const char* const one_triangle_obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

// An output that accepts `capacity` bytes and then fails, like a full disk, and counts the
// bytes it was offered.
class FullOutput : public std::streambuf {
 public:
  explicit FullOutput(std::size_t capacity) : capacity_(capacity) {}
  std::size_t offered = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize count) override {
    offered += std::size_t(count);
    const std::size_t taken = std::min(std::size_t(count), capacity_);
    capacity_ -= taken;
    return std::streamsize(taken);
  }
  int_type overflow(int_type character) override {
    if (traits_type::eq_int_type(character, traits_type::eof())) return 0;
    ++offered;
    if (capacity_ == 0) return traits_type::eof();
    --capacity_;
    return character;
  }

 private:
  std::size_t capacity_;
};

TEST_CASE("a failed write of the answers is an error, and answers stream out", "[cli]") {
  const testing::ScratchFolder folder;
  const auto mesh = folder.write("mesh.obj", one_triangle_obj).string();
  std::string queries;
  for (int i = 0; i < 1000; ++i) queries += "box -inf -inf -inf inf inf inf\n";  // "0\n" each
  const auto query_file = folder.write("q.txt", queries).string();
  FullOutput full(10);
  std::ostream out(&full);
  std::ostringstream err;
  CHECK(run({"query", mesh, query_file}, out, err) == exit_write_failed);
  CHECK_THAT(err.str(), Catch::Equals("trisect query: cannot write standard output\n"));
  // Streamed: writing stopped at the first failure, long before the 2000 bytes of answers.
  CHECK(full.offered <= 12);
}

TEST_CASE("a directory, a FIFO or a device as QUERYFILE or MESH is an error", "[cli]") {
  const testing::ScratchFolder folder;
  const auto mesh = folder.write("mesh.obj", one_triangle_obj).string();
  const auto queries = folder.write("q.txt", "box 0 0 0 1 1 1\n").string();
  const std::filesystem::path directory = std::filesystem::path(mesh).parent_path();
  const std::string fifo = (directory / "q.fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: opening it would block forever
  struct Case {
    std::string mesh, queries, message;
  };
  const Case cases[] = {
      {mesh, directory.string(), directory.string() + ": is a directory"},
      {mesh, fifo, "q.fifo: is not a regular file"},
      {mesh, "/dev/zero", "/dev/zero: is not a regular file"},
      {fifo, queries, "q.fifo: is not a regular file"},
      {"/dev/null", queries, "/dev/null: is not a regular file"},
  };
  for (const Case& bad : cases) {
    const CommandRun run = testing::run_in_process({"query", bad.mesh, bad.queries});
    INFO(run.err);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(bad.message));
  }
  const CommandRun info = testing::run_in_process({"info", fifo});
  CHECK(info.status == exit_bad_input);
  CHECK_THAT(info.err, Catch::Contains("q.fifo: is not a regular file"));
}

TEST_CASE("files too large for memory are errors naming the file, exit 2", "[cli]") {
  if (!testing::huge_allocations_throw) {
    WARN("AddressSanitizer aborts on huge allocations: not tested here");
    return;
  }
  const testing::ScratchFolder folder;
  const auto mesh = folder.write("mesh.obj", one_triangle_obj).string();
  const auto queries = folder.write("q.txt", "box 0 0 0 1 1 1\n").string();
  const auto huge = folder.write("huge.obj", "").string();
  std::filesystem::resize_file(huge, std::uintmax_t(1) << 43);  // 8 TB, sparse
  for (const auto& arguments :
       {std::vector<std::string>{"query", mesh, huge},
        std::vector<std::string>{"query", huge, queries}, std::vector<std::string>{"info", huge}}) {
    const CommandRun run = testing::run_in_process(arguments);
    INFO(run.err);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("huge.obj: out of memory"));
  }
}

TEST_CASE("a huge query token is quoted by a short prefix, long numbers read as strtof", "[cli]") {
  const testing::ScratchFolder folder;
  const auto mesh = folder.write("mesh.obj", one_triangle_obj).string();
  const std::string huge(1'000'000, '9');
  CommandRun run = testing::run_in_process(
      {"query", mesh, folder.write("q.txt", "box 0 0 0 1 1 " + huge + "x\n")});
  CHECK(run.status == exit_bad_input);
  CHECK(run.err.size() < 256);
  CHECK_THAT(run.err, Catch::Contains("q.txt:1: box corner '999") &&
                          Catch::Contains("(1000001 characters) is not a number"));
  run = testing::run_in_process({"query", mesh, folder.write("unknown.txt", huge + "\n")});
  CHECK(run.err.size() < 256);
  CHECK_THAT(run.err, Catch::Contains("unknown.txt:1: unknown query '999"));
  // The same long tokens a mesh takes: +1.000..., 0.000...1 (rounds to 0), a long hex float.
  run = testing::run_in_process(
      {"query", mesh,
       folder.write("long.txt", "sphere 0 0 0 +1." + std::string(70, '0') + "\nsphere 0 0 -1 0." +
                                    std::string(5000, '0') + "1\nsphere 0 0 -0.125 0x1." +
                                    std::string(64, '0') + "8p-3\n")});
  CHECK(run.status == 0);
  CHECK(run.out == "0\n\n0\n");
}

TEST_CASE("binary data as a mesh or a query file is an error naming the file, line and byte",
          "[cli]") {
  using namespace std::string_literals;
  const std::string rule = " is binary, not text; text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F";
  // A NUL in a comment of an otherwise valid query file; a byte order mark and CRLF are text.
  CHECK_THROWS_WITH(parse_query_file("box 0 0 0 1 1 1\n# \0\nbox 0 0 0 1 1 1\n"s, "q.txt"),
                    "q.txt:2: byte 18 (0x00)" + rule);
  CHECK(parse_query_file("\xEF\xBB\xBF# utf-8 \xC3\xA9\r\nbox 0 0 0 1 1 1\r\n", "b.txt").size() ==
        1);
  const testing::ScratchFolder folder;
  const auto mesh = folder.write("mesh.obj", one_triangle_obj).string();
  const std::string png = "\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x01"s;
  const auto photo = folder.write("photo.obj", png).string();
  const auto photo_queries = folder.write("photo.txt", png).string();
  const auto good_queries = folder.write("good.txt", "box 0 0 0 1 1 1\n").string();
  const auto queries = folder.write("q.txt", "box 0 0 0 1 1 1\n# \0\n"s).string();
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const Case cases[] = {
      {{"info", photo}, photo + ":2: byte 6 (0x1A)" + rule},
      {{"overlap", mesh, photo}, photo + ":2: byte 6 (0x1A)" + rule},
      {{"query", photo, good_queries}, photo + ":2: byte 6 (0x1A)" + rule},
      {{"query", mesh, photo_queries}, photo_queries + ":2: byte 6 (0x1A)" + rule},
      {{"query", mesh, queries}, queries + ":2: byte 18 (0x00)" + rule},
  };
  for (const Case& bad : cases) {
    const CommandRun run = testing::run_in_process(bad.arguments);
    INFO(bad.arguments[0] << " " << bad.arguments.back() << ": " << run.err);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(bad.message));
  }
}

}  // namespace
}  // namespace trisect::cli
