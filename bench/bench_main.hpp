#pragma once
// The one `main` of every benchmark program (bench/bench_main.cpp) and what each program gives
// it.

namespace bench {

/// Registers every benchmark of this program with Google Benchmark; each bench/<operation>.cpp
/// defines it, and the shared main calls it before parsing the command line.
void register_all();

}  // namespace bench
