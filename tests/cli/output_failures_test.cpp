// The contract's "Output, files and failures" for every command: a write that fails is exit 1
// (quietly for a closed pipe), bad usage and exhausted memory exit 2 with nothing on stdout,
// output files are written whole or not at all and never over an input (issue 22, items 2-6
// and 8). The program runs as a separate process where the surroundings matter (/dev/full, a
// closed pipe, a file size limit, a memory limit), in-process otherwise.
#include <trisect/cli/run.hpp>

#include "support/run_command.hpp"
#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <cfloat>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace trisect::cli {
namespace {

using testing::CommandRun;
using testing::RunSetup;
using testing::ScratchFolder;

const char* const cube_obj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
    "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
    "f 4 1 5\nf 4 5 8\n";

// Two triangles that cross: one self-intersecting pair, "0 1".
const char* const crossing_obj =
    "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0.5 0.5 -1\nv 0.5 0.5 1\nv 1.5 -0.5 0\nf 1 2 3\nf 4 5 6\n";

// A grid of n x n vertices: 2 (n-1)^2 triangles.
std::string grid_obj(int n) {
  std::ostringstream obj;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) obj << "v " << i << ' ' << j << ' ' << (i * j) % 7 << '\n';
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      const int a = i * n + j + 1;
      obj << "f " << a << ' ' << a + 1 << ' ' << a + n + 1 << "\nf " << a << ' ' << a + n + 1 << ' '
          << a + n << '\n';
    }
  return obj.str();
}

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names of the files in `folder`, sorted.
std::vector<std::string> files_in(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A scratch folder with the meshes the cases use and a query file.
struct Inputs {
  ScratchFolder folder;
  std::string cube = folder.write("cube.obj", cube_obj).string();
  std::string crossing = folder.write("crossing.obj", crossing_obj).string();
  std::string queries =
      folder.write("q.txt", "box -1 -1 -1 2 2 2\nray 0.5 0.5 5 0 0 -1\n").string();
};

// Every command with an answer to print, as a user would run it.
std::vector<std::vector<std::string>> commands_with_answers(const Inputs& in) {
  const std::string svg = (in.folder.path() / "section.svg").string();
  return {{"query", in.cube, in.queries},
          {"slice", in.cube, "--axis", "z", "--at", "0.5"},
          {"slice", in.cube, "--axis", "z", "--at", "0.5", "--json", "-"},
          {"slice", in.cube, "--axis", "z", "--at", "0.5", "--svg", "-"},
          {"overlap", in.cube, in.cube},
          {"overlap", in.cube, in.cube, "--count"},
          {"overlap", in.crossing, "--self"},
          {"overlap", in.crossing, "--self", "--count"},
          {"info", in.cube},
          {"demo", "--svg", svg},
          {"--help"},
          {"slice", "--help"}};
}

// `text` without its lines that report a time (`info`'s "bvh build: 101.5 ms").
std::string without_timings(const std::string& text) {
  std::istringstream lines(text);
  std::string kept;
  for (std::string line; std::getline(lines, line);)
    if (!line.ends_with(" ms")) kept += line + '\n';
  return kept;
}

std::string joined(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) line += word + ' ';
  return line;
}

TEST_CASE("every command exits 1 when stdout is full, 0 when it is not", "[cli][output]") {
  const Inputs in;
  for (const auto& arguments : commands_with_answers(in)) {
    INFO(joined(arguments));
    const CommandRun fine = testing::run_trisect(arguments);
    CHECK(fine.status == 0);
    CHECK_FALSE(fine.out.empty());
    const CommandRun full = testing::run_trisect(arguments, {.standard_output = "/dev/full"});
    INFO(full.err);
    CHECK(full.status == exit_write_failed);
    if (arguments[0] != "--help" && arguments.back() != "--help")
      CHECK_THAT(full.err,
                 Catch::Contains("cannot write standard output: No space left on device"));
  }
}

TEST_CASE("a closed pipe on stdout is exit 1 without a message, not SIGPIPE", "[cli][output]") {
  const Inputs in;
  for (const auto& arguments : commands_with_answers(in)) {
    INFO(joined(arguments));
    const CommandRun closed = testing::run_trisect(arguments, {.closed_pipe = true});
    CHECK(closed.status == exit_write_failed);
    // The demo's notes on stderr are not answers; the others say nothing.
    if (arguments[0] != "demo") CHECK(closed.err.empty());
  }
}

TEST_CASE("an output file that cannot be written whole leaves nothing behind", "[cli][output]") {
  const Inputs in;
  const std::string old_svg = in.folder.write("old.svg", "an older picture\n").string();
  const std::string grid = in.folder.write("grid.obj", grid_obj(60)).string();
  const std::vector<std::string> before = files_in(in.folder.path());
  const std::string new_json = (in.folder.path() / "new.json").string();
  const std::vector<std::vector<std::string>> cases = {
      {"slice", grid, "--axis", "x", "--layers", "20", "--svg", old_svg},
      {"slice", grid, "--axis", "x", "--layers", "20", "--json", new_json},
      {"slice", grid, "--axis", "x", "--layers", "20", "--json", new_json, "--svg", old_svg},
      {"demo", "--svg", old_svg}};
  for (const auto& arguments : cases) {
    INFO(joined(arguments));
    // A file size limit stops writes as a full disk does.
    const CommandRun run = testing::run_trisect(arguments, {.file_size_limit = 16384});
    INFO(run.err);
    CHECK(run.status == exit_write_failed);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains("cannot write --") && Catch::Contains("File too large"));
    CHECK(contents(old_svg) == "an older picture\n");
    CHECK(files_in(in.folder.path()) == before);  // no temporary file, no partial new.json
  }
  for (const char* option : {"--svg", "--json"}) {
    const CommandRun run =
        testing::run_trisect({"slice", in.cube, "--axis", "z", "--at", "0.5", option, "/dev/full"});
    CHECK(run.status == exit_write_failed);
    CHECK(run.out.empty());
    CHECK(run.err == std::string("trisect slice: cannot write ") + option +
                         " '/dev/full': No space left on device\n");
  }
  const CommandRun demo = testing::run_trisect({"demo", "--svg", "/dev/full"});
  CHECK(demo.status == exit_write_failed);
  CHECK(demo.out.empty());
}

TEST_CASE("a written output file replaces the old one whole, with its permissions",
          "[cli][output]") {
  const Inputs in;
  const std::filesystem::path json = in.folder.write("out.json", "old");
  std::filesystem::permissions(json, std::filesystem::perms(0640));
  const CommandRun run =
      testing::run_trisect({"slice", in.cube, "--axis", "z", "--at", "0.5", "--json", json});
  CHECK(run.status == 0);
  const CommandRun to_stdout =
      testing::run_trisect({"slice", in.cube, "--axis", "z", "--at", "0.5", "--json", "-"});
  CHECK(contents(json) == to_stdout.out);
  CHECK(std::filesystem::status(json).permissions() == std::filesystem::perms(0640));
  CHECK(files_in(in.folder.path()) ==
        std::vector<std::string>{"crossing.obj", "cube.obj", "out.json", "q.txt"});
}

// Contract 5: a symbolic link is followed, through a chain of links and to a file that does not
// exist yet, and the link stays (issue 35, item 6: a dangling link used to be replaced by a
// regular file and its target never written).
TEST_CASE("an output path that is a symbolic link writes the file it leads to", "[cli][output]") {
  namespace fs = std::filesystem;
  const Inputs in;
  const fs::path& folder = in.folder.path();
  fs::create_directory(folder / "out");
  const std::vector<std::string> slice{"slice", in.cube, "--axis", "z", "--at", "0.5"};
  for (const char* option : {"-o", "--json", "--svg"}) {
    std::vector<std::string> base =
        option == std::string("-o") ? std::vector<std::string>{"build", in.cube} : slice;
    base.push_back(option);
    std::vector<std::string> to_stdout = base;
    to_stdout.push_back("-");
    const CommandRun expected = testing::run_in_process(to_stdout);
    REQUIRE(expected.status == 0);
    const std::string name = std::string("file") + option;
    const fs::path target = folder / "out" / name;
    // A dangling link (relative, read from the link's folder), then a link to that link.
    fs::create_symlink("out/" + name, folder / ("dangling" + name));
    fs::create_symlink("dangling" + name, folder / ("chain" + name));
    for (const std::string& link : {"dangling" + name, "chain" + name}) {
      fs::remove(target);
      std::vector<std::string> arguments = base;
      arguments.push_back((folder / link).string());
      INFO(joined(arguments));
      const CommandRun run = testing::run_in_process(arguments);
      INFO(run.err);
      CHECK(run.status == 0);
      CHECK(fs::is_symlink(fs::symlink_status(folder / link)));
      CHECK(fs::is_regular_file(fs::symlink_status(target)));
      CHECK(contents(target) == expected.out);
      for (const std::string& file : files_in(folder / "out"))
        CHECK_FALSE(file.starts_with('.'));  // no temporary file
    }
    CHECK(fs::read_symlink(folder / ("dangling" + name)) == "out/" + name);
    CHECK(fs::read_symlink(folder / ("chain" + name)) == "dangling" + name);
  }
}

// Contract 5's order: files are renamed into place only once standard output is written too
// (issue 35, item 10: renamed as soon as written, they were replaced by a run that failed).
TEST_CASE("a run whose standard output fails replaces no output file", "[cli][output]") {
  const Inputs in;
  const std::string svg = in.folder.write("f.svg", "an older picture\n").string();
  const std::string json = in.folder.write("f.json", "older numbers\n").string();
  const std::vector<std::string> before = files_in(in.folder.path());
  const std::vector<std::string> slice{"slice", in.cube, "--axis", "z", "--at", "0.5"};
  const std::vector<std::vector<std::string>> options = {
      {"--svg", svg}, {"--json", json}, {"--svg", svg, "--json", json}};
  for (const auto& more : options) {
    std::vector<std::string> arguments = slice;
    arguments.insert(arguments.end(), more.begin(), more.end());
    INFO(joined(arguments));
    const CommandRun run = testing::run_trisect(arguments, {.standard_output = "/dev/full"});
    CHECK(run.status == exit_write_failed);
    CHECK(run.err == "trisect slice: cannot write standard output: No space left on device\n");
    CHECK(contents(svg) == "an older picture\n");
    CHECK(contents(json) == "older numbers\n");
    CHECK(files_in(in.folder.path()) == before);  // no temporary file left behind
  }
}

TEST_CASE("output paths: empty, a directory, an input or each other are usage errors",
          "[cli][output]") {
  const Inputs in;
  const std::filesystem::path& folder = in.folder.path();
  std::filesystem::create_symlink(in.cube, folder / "link.obj");
  const std::string same_cube = (folder / ".." / folder.filename() / "cube.obj").string();
  const std::string svg = (folder / "a.svg").string();
  struct Case {
    std::vector<std::string> options;
    std::string message;
  };
  const Case cases[] = {
      {{"--svg", ""}, "--svg: the path is empty"},
      {{"--json", std::string("a\0b", 3)}, "--json: the path holds a NUL byte"},
      {{"--json", ""}, "--json: the path is empty"},
      {{"--svg", in.cube}, "--svg '" + in.cube.substr(0, 40)},
      {{"--json", same_cube}, "names the input file"},
      {{"--svg", (folder / "link.obj").string()}, "names the input file"},
      {{"--json", svg, "--svg", svg}, "--json and --svg name the same output"},
      {{"--json", "new.out", "--svg", std::filesystem::absolute("new.out").string()},
       "--json and --svg name the same output"},
      {{"--json", "new.out", "--svg", "./new.out"}, "--json and --svg name the same output"},
      {{"--json", "-", "--svg", "-"}, "--json and --svg name the same output '-'"},
      {{"--svg", folder.string()}, "is a directory"},
      {{"--svg", (folder / "no" / "a.svg").string()}, "does not exist"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> arguments{"slice", in.cube, "--axis", "z", "--at", "0.5"};
    arguments.insert(arguments.end(), c.options.begin(), c.options.end());
    INFO(joined(arguments));
    const CommandRun run = testing::run_in_process(arguments);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("trisect slice: --") && Catch::Contains(c.message));
  }
  CHECK(contents(in.cube) == cube_obj);
  CHECK(files_in(folder) ==
        std::vector<std::string>{"crossing.obj", "cube.obj", "link.obj", "q.txt"});
  for (const std::string& path : {std::string(), folder.string()}) {
    const CommandRun demo = testing::run_in_process({"demo", "--svg", path});
    CHECK(demo.status == exit_bad_input);
    CHECK(demo.out.empty());
    CHECK_THAT(demo.err, Catch::StartsWith("trisect demo: --svg"));
  }
}

TEST_CASE("a dash is stdout for --svg as for --json, instead of the text", "[cli][output]") {
  const Inputs in;
  const CommandRun svg =
      testing::run_in_process({"slice", in.cube, "--axis", "z", "--at", "0.5", "--svg", "-"});
  CHECK(svg.status == 0);
  CHECK_THAT(svg.out, Catch::StartsWith("<svg ") && Catch::EndsWith("</svg>\n"));
  CHECK_FALSE(std::filesystem::exists("-"));
  const CommandRun demo = testing::run_in_process({"demo", "--svg", "-"});
  CHECK(demo.status == 0);
  CHECK_THAT(demo.out, Catch::StartsWith("<svg ") && Catch::EndsWith("</svg>\n"));
  CHECK_THAT(demo.err, Catch::Contains("drawn to standard output"));
}

TEST_CASE("slice takes 1 to 4096 --threads, and names anything else, never crashing",
          "[cli][output]") {
  const Inputs in;
  const std::vector<std::string> base{"slice", in.cube, "--axis", "z", "--at", "0.5"};
  const CommandRun reference = testing::run_in_process(base);
  for (const char* threads : {"1", "2", "4096"}) {
    std::vector<std::string> arguments = base;
    arguments.insert(arguments.end(), {"--threads", threads});
    const CommandRun run = testing::run_trisect(arguments);
    CHECK(run.status == 0);
    CHECK(run.out == reference.out);
    CHECK(run.err.empty());  // no warning from TBB about more workers than the machine has
  }
  for (const char* threads : {"0", "4097", "65537", "2147483648", "4294967296", "-1", "1x", "",
                              "99999999999999999999999999999999999999999999999999"}) {
    std::vector<std::string> arguments = base;
    arguments.insert(arguments.end(), {"--threads", threads});
    INFO(threads);
    const CommandRun run = testing::run_trisect(arguments);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::StartsWith("trisect") && Catch::Contains("--threads"));
    CHECK(run.err.size() < 200);
  }
}

TEST_CASE("out of memory is exit 2 naming the file, in every command", "[cli][output]") {
  if (!testing::huge_allocations_throw) return;  // AddressSanitizer cannot run in 100 MB
  const Inputs in;
  const std::string big = in.folder.write("big.obj", grid_obj(300)).string();
  const std::vector<std::vector<std::string>> cases = {
      {"info", big},
      {"overlap", big, big, "--count"},
      {"overlap", big, "--self", "--count"},
      {"slice", big, "--axis", "z", "--layers", "3"}};
  for (const auto& arguments : cases) {
    INFO(joined(arguments));
    const CommandRun run = testing::run_trisect(arguments, {.memory_limit = 100'000'000});
    INFO(run.err);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::EndsWith(big + ": out of memory\n"));
  }
}

// Issue 35, item 2: TBB starts its worker threads when work is first shared, after the mesh is
// read; a memory limit that leaves no room for a thread's stack then made TBB throw
// "pthread_create has failed" and the command abort (status 134). Each limit from where the
// command succeeds down to where reading the mesh fails, in steps smaller than a stack (TBB's
// are 4 MB), must give the whole answer (on fewer threads) or status 2 naming the file.
TEST_CASE("a thread that cannot start is the answer or exit 2 naming the file, never a crash",
          "[cli][output][threads]") {
  if (!testing::huge_allocations_throw) return;  // AddressSanitizer cannot run in 100 MB
  const Inputs in;
  const std::string big = in.folder.write("grid.obj", grid_obj(201)).string();  // 80k triangles
  const std::string queries = in.folder
                                  .write("grid.txt",
                                         "box 0 0 0 10 10 3\nclosest 100.5 100.5 50\n"
                                         "ray 50.5 50.5 50 0 0 -1\n")
                                  .string();
  const std::vector<std::vector<std::string>> cases = {
      {"query", big, queries},
      {"info", big},
      {"slice", big, "--axis", "z", "--layers", "3"},
      {"overlap", big, "--self", "--count"},
      {"distance", big, big, "--transform", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "1",
       "10"},
      {"build", big, "-o", "-"}};
  constexpr std::uint64_t megabyte = 1 << 20;
  for (const auto& arguments : cases) {
    INFO(joined(arguments));
    const CommandRun reference = testing::run_trisect(arguments);
    REQUIRE(reference.status == 0);
    // Runs under `limit`: the whole answer, or status 2 naming the mesh. True on success.
    bool mesh_read = true;
    const auto succeeds = [&](std::uint64_t limit) {
      const CommandRun run = testing::run_trisect(arguments, {.memory_limit = limit});
      INFO("limit " << limit / megabyte << " MB: " << run.err);
      REQUIRE((run.status == 0 || run.status == exit_bad_input));
      if (run.status == 0) {
        CHECK(without_timings(run.out) == without_timings(reference.out));
        return true;
      }
      CHECK(run.out.empty());
      CHECK_THAT(run.err, Catch::EndsWith(big + ": out of memory\n") ||
                              Catch::EndsWith(big + ": out of memory reading the mesh\n"));
      mesh_read = run.err.find("reading the mesh") == std::string::npos;
      return false;
    };
    // The lowest limit that succeeds, to a megabyte (halved until one fails, then bisected)...
    std::uint64_t fails = 512 * megabyte;
    while (fails > 16 * megabyte && succeeds(fails)) fails /= 2;
    std::uint64_t works = 2 * fails;
    while (works - fails > megabyte) {
      const std::uint64_t middle = fails + (works - fails) / 2;
      (succeeds(middle) ? works : fails) = middle;
    }
    // ... then each megabyte below it, until even the mesh cannot be read.
    mesh_read = true;
    for (std::uint64_t limit = works; mesh_read && limit > 16 * megabyte; limit -= megabyte)
      succeeds(limit);
  }
}

TEST_CASE("messages quote at most 40 characters of any token", "[cli][output]") {
  const Inputs in;
  const std::string huge_number = "1" + std::string(100'000, '0');
  const std::string huge_word(100'000, 'w');
  std::vector<std::string> transform{"overlap", in.cube, in.cube, "--transform"};
  for (int k = 0; k < 12; ++k) transform.push_back(k == 5 ? huge_number : "0");
  std::vector<std::string> transform_word = transform;
  transform_word[4 + 5] = huge_word;
  const std::vector<std::vector<std::string>> cases = {
      transform,
      transform_word,
      {"slice", in.cube, "--axis", huge_word, "--at", "1"},
      {"slice", in.cube, "--axis", "z", "--at", "1", "--threads", huge_number},
      {"slice", in.cube, "--axis", "z", "--at", huge_word},
      {"slice", in.cube, "--axis", "z", "--layers", huge_number},
      {"slice", in.cube, "--axis", "z", "--at", "1", "--json", huge_word + "/a.json"},
      {"info", in.cube, huge_word},
      {"query", in.cube, in.queries, huge_word},
      {huge_word},
      {"--" + huge_word},
      {"slice", in.cube, "--" + huge_word}};
  for (const auto& arguments : cases) {
    const CommandRun run = testing::run_in_process(arguments);
    INFO(run.err.substr(0, 300));
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK(run.err.size() < 300);
    CHECK_THAT(run.err, Catch::StartsWith("trisect"));
  }
}

TEST_CASE("usage messages name the option at fault", "[cli][output]") {
  const Inputs in;
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  std::vector<std::string> thirteen{"overlap", in.cube, in.cube, "--transform"};
  for (int k = 0; k < 13; ++k) thirteen.push_back("1");
  std::vector<std::string> eleven(thirteen.begin(), thirteen.end() - 2);
  eleven.push_back("--count");
  const Case cases[] = {
      {thirteen, "trisect overlap: --transform takes 12 numbers, got 13\n"},
      {eleven, "trisect overlap: --transform takes 12 numbers, got 11\n"},
      {{"slice", in.cube, "--at", "--axis", "z"},
       "trisect slice: --at: expects a value, got none\n"},
      {{"slice", in.cube, "--axis", "z", "--layers"},
       "trisect slice: --layers: expects a value, got none\n"},
      {{"slice", in.cube, "--normal", "0", "0", "--at", "1"},
       "trisect slice: --normal takes 3 numbers, got 2\n"},
      {{"slice", in.cube, "--normal", "0", "x", "1", "--at", "1"},
       "trisect slice: --normal number 2 'x' is not a number\n"},
      {{"slice", in.cube, "--axis", "z", "--layers", ""},
       "trisect slice: --layers: '' is not a whole number from 1 to 10000000\n"},
      {{"slice", in.cube, "--axis", "w", "--at", "1"},
       "trisect slice: --axis: 'w' is not x, y or z\n"},
      // CLI11 looped forever on these (found by tests/fuzz/fuzz_arguments.cpp).
      {{"slice", in.cube, "", "--at", "1", "--axis", "z"}, "trisect slice: argument 3 is empty\n"},
      {{"slice", in.cube, "--axis", "z", "", "--json", "-"},
       "trisect slice: argument 5 is empty\n"},
      {{"overlap", in.cube, in.cube, "", "--count"}, "trisect overlap: argument 4 is empty\n"},
      {{"slice", "--", "--at", "", "-x"}, "trisect slice: argument 4 is empty\n"},
  };
  for (const Case& c : cases) {
    INFO(joined(c.arguments));
    const CommandRun run = testing::run_in_process(c.arguments);
    CHECK(run.status == exit_bad_input);
    CHECK(run.out.empty());
    CHECK(run.err == c.message);
  }
}

TEST_CASE("slicing by layers a mesh whose extent along n overflows float works", "[cli][output]") {
  // Along (1, 1, 1) the vertices reach -+3 FLT_MAX: the layer centres of 3 layers are -2, 0 and
  // 2 FLT_MAX, the outer two beyond float, where the planes stop at -+FLT_MAX.
  const ScratchFolder folder;
  const std::string mesh = folder
                               .write("huge.obj",
                                      "v -3.40282347e38 -3.40282347e38 -3.40282347e38\n"
                                      "v 3.40282347e38 3.40282347e38 3.40282347e38\n"
                                      "v 3.40282347e38 -3.40282347e38 0\nf 1 2 3\n")
                               .string();
  const CommandRun one = testing::run_in_process(
      {"slice", mesh, "--normal", "1", "1", "1", "--layers", "1", "--json", "-"});
  INFO(one.err);
  CHECK(one.status == 0);
  CHECK_THAT(one.out, Catch::Contains("{\"d\":0.0,"));
  const CommandRun three =
      testing::run_in_process({"slice", mesh, "--normal", "1", "1", "1", "--layers", "3"});
  INFO(three.err);
  CHECK(three.status == 0);
  std::vector<std::string> planes;
  std::istringstream lines(three.out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("plane ")) planes.push_back(line.substr(0, line.rfind(' ')));
  CHECK(planes ==
        std::vector<std::string>{"plane -3.40282347e+38", "plane 0", "plane 3.40282347e+38"});
}

}  // namespace
}  // namespace trisect::cli
