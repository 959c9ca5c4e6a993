#include "support/run_command.hpp"

#include "support/scratch_folder.hpp"

#include <trisect/cli/run.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

namespace trisect::testing {
namespace {

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CommandRun run_in_process(const std::vector<std::string>& arguments) {
  std::ostringstream out, err;
  const int status = cli::run(arguments, out, err);
  return {status, out.str(), err.str()};
}

CommandRun run_trisect(const std::vector<std::string>& arguments) {
  const ScratchFolder folder;
  const std::string out_path = folder.write("stdout", ""), err_path = folder.write("stderr", "");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_TRUNC, 0);
  std::vector<std::string> words{TRISECT_COMMAND};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  const int failed = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw std::runtime_error(std::string("cannot run ") + TRISECT_COMMAND);
  int status = 0;
  waitpid(child, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, contents(out_path), contents(err_path)};
}

std::string line_starting_with(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return {};
}

}  // namespace trisect::testing
