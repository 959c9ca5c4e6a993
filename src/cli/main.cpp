// The `trisect` command: see `trisect --help`.
#include "gmp_memory.hpp"

#include "trisect/cli/run.hpp"

#include <csignal>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  // A closed pipe (`trisect query ... | head`) or a file size limit must not kill the command:
  // the failed write is then seen and the exit status is 1, as the contract says.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  // GMP's allocations that fail end the command as memory exhaustion does (status 2).
  trisect::cli::install_gmp_allocation();
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return trisect::cli::run(arguments, std::cout, std::cerr);
}
