#pragma once
// The one way trisect writes a file whole or not at all, for `save_bvh` and for every output
// of the `trisect` command (contract 5, "One writer for every output"):
// - a symbolic link is followed, through a chain of links and to a target that does not exist
//   yet (a dangling link), and the file it finally names is written; the links stay;
// - a regular file, or a new one, is written under a temporary name in the target's folder,
//   `.NAME.trisect-XXXXXX`, with the permission bits of the file it replaces (for a new file,
//   0666 minus the umask), and renamed over the target by `publish`; a temporary file never
//   published is removed;
// - a special file (a device such as /dev/full, a FIFO), which cannot be replaced, is written in
//   place.
// Failures are `std::system_error`s whose code is the errno seen and whose what() says what
// failed ("cannot create file: ...", "cannot write: ...", "cannot replace the file: ..."); the
// caller names the file.

#include <filesystem>
#include <memory>
#include <ostream>

namespace trisect::io {

/// The path a write to `path` lands on: `path` itself, or for a symbolic link the path that its
/// chain of links finally names (relative links read from their own folder), whether or not that
/// exists. Throws `std::system_error` (ELOOP) for more than 40 links in a row.
[[nodiscard]] std::filesystem::path write_target(const std::filesystem::path& path);

/// One file being written whole or not at all, as the file comment says.
class AtomicFile {
 public:
  /// Creates the temporary file for `path` (or opens the special file it names). Throws
  /// `std::system_error` ("cannot create file") when that fails or `path` is a directory.
  explicit AtomicFile(const std::filesystem::path& path);

  /// Removes the temporary file unless `publish` renamed it.
  ~AtomicFile();

  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// The stream to write to (binary, buffered). A failed write sets its error state; `check`
  /// and `finish` report it.
  [[nodiscard]] std::ostream& stream() noexcept;

  /// Throws `std::system_error` ("cannot write") if a write so far failed.
  void check() const;

  /// Flushes and closes the file, then `check`s. Nothing may be written afterwards.
  void finish();

  /// `finish`es if needed, then renames the temporary file over the target (nothing to rename
  /// for a special file). Throws `std::system_error` ("cannot replace the file") when the
  /// rename fails.
  void publish();

 private:
  class Buffer;
  std::filesystem::path target_;     // where the links lead
  std::filesystem::path temporary_;  // empty for a special file, or once published
  std::unique_ptr<Buffer> buffer_;
  std::ostream stream_;
  bool finished_ = false;
};

}  // namespace trisect::io
