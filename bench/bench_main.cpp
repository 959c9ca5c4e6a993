// The main of every benchmark program: registers the program's benchmarks, then runs those the
// command line selects (Google Benchmark's flags; an unknown argument is an error).
#include "bench_main.hpp"

#include <benchmark/benchmark.h>

int main(int argc, char** argv) {
  bench::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
