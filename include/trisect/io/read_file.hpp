#pragma once
/// \file
/// Reading a whole input file, refusing what is not a regular file.

#include "trisect/error.hpp"

#include <filesystem>
#include <string>

namespace trisect {

/// A file that cannot be read whole; what() is "<path>: <problem>".
class FileError : public Error {
 public:
  using Error::Error;
};

/// Throws `FileError` naming `path` when it names a directory, FIFO, device or socket (a link
/// is followed); does nothing for a regular file or a path that does not exist.
void refuse_special_file(const std::filesystem::path& path);

/// The whole content of the file at `path`, which must be a regular file (or a link to one):
/// a directory, FIFO, device or socket is refused before opening, since a FIFO without a
/// writer would block and a device such as /dev/zero never ends. Throws `FileError` naming the
/// path, or `std::bad_alloc` when the content does not fit in memory.
[[nodiscard]] std::string read_regular_file(const std::filesystem::path& path);

}  // namespace trisect
