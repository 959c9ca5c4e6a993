#pragma once
// A temporary folder for one test's files, removed with everything in it at the end. Named by
// process id and a counter, since CTest runs test cases in parallel processes.

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace trisect::testing {

/// False under AddressSanitizer, whose operator new aborts on an allocation too large for
/// memory instead of throwing std::bad_alloc: the tests of out-of-memory errors skip there.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool huge_allocations_throw = false;
#else
inline constexpr bool huge_allocations_throw = true;
#endif

class ScratchFolder {
 public:
  ScratchFolder()
      : folder_(std::filesystem::temp_directory_path() /
                ("trisect_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++))) {
    std::filesystem::create_directories(folder_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  /// The folder itself.
  [[nodiscard]] const std::filesystem::path& path() const { return folder_; }

  /// Writes `content` byte for byte to the file `name` in the folder; returns its path.
  [[nodiscard]] std::filesystem::path write(const std::string& name,
                                            const std::string& content) const {
    std::ofstream(folder_ / name, std::ios::binary) << content;
    return folder_ / name;
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path folder_;
};

}  // namespace trisect::testing
