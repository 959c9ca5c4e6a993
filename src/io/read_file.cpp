#include "trisect/io/read_file.hpp"

#include <fstream>
#include <system_error>

namespace trisect {

void refuse_special_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ignored;  // a missing file fails to open later, with its own message
  const std::filesystem::file_status status = std::filesystem::status(path, ignored);
  if (std::filesystem::is_directory(status)) throw FileError(name + ": is a directory");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw FileError(name + ": is not a regular file (a FIFO, device or socket)");
}

std::string read_regular_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  refuse_special_file(path);
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) throw FileError(name + ": cannot open file");
  const std::streamoff size = file.tellg();
  if (size < 0) throw FileError(name + ": cannot read file");
  std::string content(static_cast<std::size_t>(size), '\0');
  file.seekg(0);
  if (!file.read(content.data(), size)) throw FileError(name + ": cannot read file");
  return content;
}

}  // namespace trisect
