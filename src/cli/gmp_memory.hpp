#pragma once
// What the `trisect` command does when GMP (the exact distance comparisons' big integers) cannot
// allocate: GMP's manual says its allocation functions must not return on failure, and that a
// longjmp or a C++ exception out of them is undefined, so the failure cannot travel to the
// command's error handling. The command installs functions that end the process the way an
// out-of-memory error ends a command: one line on standard error naming the file being
// processed, exit status 2, standard output not flushed.

#include <string_view>

namespace trisect::cli {

/// The line (with its newline) written to standard error if GMP runs out of memory from now
/// on; lines longer than 4 KiB are cut. Safe to call at any time from one thread.
void set_gmp_out_of_memory_line(std::string_view line) noexcept;

/// Makes GMP allocate through functions that, on failure, write that line and end the process
/// with status 2. Call once, before anything uses GMP (in `main`).
void install_gmp_allocation() noexcept;

}  // namespace trisect::cli
