// The `trisect` command: see `trisect --help`.
#include "trisect/cli/run.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return trisect::cli::run(arguments, std::cout, std::cerr);
}
