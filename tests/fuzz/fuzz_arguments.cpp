// libFuzzer target for the command lines of `trisect slice`, `trisect overlap` and `trisect
// clearance`: the input is one argument per line, the first `slice`, `overlap` or `clearance`; the
// words MESH and MESH2 stand for a small closed mesh and a mesh of two crossing triangles. Every
// command line must end in exit status 0, 1 (an output that cannot be written, such as /dev/full),
// or 2 with nothing on stdout and a message on stderr that starts with "trisect" and quotes no
// token longer than 40 characters in full (but for a file named by the error it is about); nothing
// may crash. Outputs the command line names are written in a scratch folder, the working folder of
// the run; command lines with a slash in any argument are skipped, so that no other file is
// written.
#include <trisect/cli/run.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A folder of its own, with the two meshes, made the working folder.
struct Scratch {
  Scratch() {
    const auto folder = std::filesystem::temp_directory_path() / "trisect_fuzz_arguments";
    std::filesystem::create_directories(folder);
    std::filesystem::current_path(folder);
    std::ofstream("mesh.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                 "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n";
    std::ofstream("mesh2.obj") << "v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0.5 0.5 -1\nv 0.5 0.5 1\n"
                                  "v 1.5 -0.5 0\nf 1 2 3\nf 4 5 6\n";
  }
};

std::vector<std::string> arguments_of(std::string_view data) {
  std::vector<std::string> arguments;
  std::size_t start = 0;
  while (start <= data.size()) {
    const std::size_t end = std::min(data.find('\n', start), data.size());
    std::string word(data.substr(start, end - start));
    if (word == "MESH") word = "mesh.obj";
    if (word == "MESH2") word = "mesh2.obj";
    arguments.push_back(std::move(word));
    start = end + 1;
  }
  return arguments;
}

// More planes than this are slow, not interesting: such command lines are skipped.
bool asks_for_many_planes(const std::vector<std::string>& arguments) {
  for (std::size_t i = 0; i + 1 < arguments.size(); ++i) {
    const double value = std::strtod(arguments[i + 1].c_str(), nullptr);
    if (arguments[i] == "--layers" && !(value <= 1000)) return true;
    if (arguments[i] == "--step" && !(value >= 0.01)) return true;
  }
  return false;
}

// True when `message` holds an argument longer than 40 characters in full other than as the
// file an error is about ("PATH: problem", "PATH:LINE: problem"), which is named in full.
// Arguments with a space are left out: the fuzzer learns the messages' own words and hands
// them back as arguments ("Run 'trisect --help' or ...").
bool quotes_a_long_token(const std::string& message, const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments) {
    if (argument.size() <= 40 || argument.find(' ') != std::string::npos) continue;
    for (std::size_t at = message.find(argument); at != std::string::npos;
         at = message.find(argument, at + 1)) {
      // The cut form is the first 40 characters and "...": an argument whose 41st character
      // is a dot seems whole in it.
      const bool cut = message.compare(at + 40, 3, "...") == 0;
      if (!cut && message[at + argument.size()] != ':') return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch scratch;
  const std::vector<std::string> arguments =
      arguments_of(std::string_view(reinterpret_cast<const char*>(data), size));
  if (arguments[0] != "slice" && arguments[0] != "overlap" && arguments[0] != "clearance") return 0;
  if (asks_for_many_planes(arguments)) return 0;
  // Outputs stay in the scratch folder: a path with a slash could name any file (CI runs as
  // root).
  for (const std::string& argument : arguments)
    if (argument.find('/') != std::string::npos) return 0;
  std::ostringstream out, err;
  const int status = trisect::cli::run(arguments, out, err);
  const std::string message = err.str();
  if (status != 0 && status != trisect::cli::exit_bad_input &&
      status != trisect::cli::exit_write_failed)
    std::abort();
  if (status == trisect::cli::exit_bad_input &&
      (!out.str().empty() || message.rfind("trisect", 0) != 0))
    std::abort();
  if (quotes_a_long_token(message, arguments)) std::abort();
  return 0;
}
