#include "support/run_command.hpp"

#include "support/scratch_folder.hpp"

#include <trisect/cli/run.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace trisect::testing {

std::string file_contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CommandRun run_in_process(const std::vector<std::string>& arguments) {
  std::ostringstream out, err;
  const int status = cli::run(arguments, out, err);
  return {status, out.str(), err.str()};
}

CommandRun run_trisect(const std::vector<std::string>& arguments) {
  return run_trisect(arguments, RunSetup{});
}

namespace {

// In the child between fork and exec: only calls that are safe there.
[[noreturn]] void become_trisect(char** argv, int out, int err, const RunSetup& setup) {
  ::dup2(out, 1);
  ::dup2(err, 2);
  if (setup.file_size_limit > 0) {
    const rlimit limit{setup.file_size_limit, setup.file_size_limit};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  if (setup.memory_limit > 0) {
    const rlimit limit{setup.memory_limit, setup.memory_limit};
    ::setrlimit(RLIMIT_AS, &limit);
  }
  ::execv(argv[0], argv);
  ::_exit(127);
}

// The descriptor the child's stdout goes to (the parent closes it after the fork).
int standard_output_for(const RunSetup& setup, const std::string& capture) {
  if (setup.closed_pipe) {
    int ends[2];
    if (::pipe(ends) != 0) throw std::runtime_error("cannot make a pipe");
    ::close(ends[0]);
    return ends[1];
  }
  const std::string& path = setup.standard_output.empty() ? capture : setup.standard_output;
  return ::open(path.c_str(), O_WRONLY | O_TRUNC);
}

}  // namespace

CommandRun run_trisect(const std::vector<std::string>& arguments, const RunSetup& setup) {
  const ScratchFolder folder;
  const std::string out_path = folder.write("stdout", ""), err_path = folder.write("stderr", "");
  std::vector<std::string> words{TRISECT_COMMAND};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const int out = standard_output_for(setup, out_path);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_TRUNC);
  if (out < 0 || err < 0) throw std::runtime_error("cannot open the output files");
  const pid_t child = ::fork();
  if (child == 0) become_trisect(argv.data(), out, err, setup);
  ::close(out);
  ::close(err);
  if (child < 0) throw std::runtime_error(std::string("cannot run ") + TRISECT_COMMAND);
  int status = 0;
  ::waitpid(child, &status, 0);
  const bool captured = setup.standard_output.empty() && !setup.closed_pipe;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, captured ? file_contents(out_path) : "",
          file_contents(err_path)};
}

std::string line_starting_with(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return {};
}

}  // namespace trisect::testing
