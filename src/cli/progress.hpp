#pragma once
// Progress notes on stderr for steps that take longer than a second (large meshes), so that a
// long run shows what it is doing; quick runs print nothing.

#include <chrono>
#include <ostream>
#include <string>

namespace trisect::cli {

/// Times one step; `done(detail)` reports it on `err` only when it took over a second.
class Progress {
 public:
  Progress(std::ostream& err, std::string step)
      : err_(err), step_(std::move(step)), start_(std::chrono::steady_clock::now()) {}

  /// Reports the step with `detail` when it was slow; returns its seconds.
  double done(const std::string& detail = "") const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds > 1.0)
      err_ << "trisect: " << step_ << (detail.empty() ? "" : " (" + detail + ")") << " took "
           << seconds << " s\n";
    return seconds;
  }

 private:
  std::ostream& err_;
  std::string step_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace trisect::cli
