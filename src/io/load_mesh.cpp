#include "trisect/io/load_mesh.hpp"

#include "mesh_readers.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace trisect {
namespace {

std::string lowercase_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// By content where a format says so (PLY's magic, binary STL's size, ascii STL's "solid ...
// facet"), by extension otherwise; OBJ, which has no signature, is the last resort.
MeshFormat detect_format(std::string_view content, const std::filesystem::path& path) {
  if (content.substr(0, 3) == "ply" && content.size() > 3 &&
      (content[3] == '\n' || content[3] == '\r'))
    return MeshFormat::ply;
  const std::string extension = lowercase_extension(path);
  if (extension == ".stl" || io_detail::is_binary_stl(content)) return MeshFormat::stl;
  const std::size_t start = content.find_first_not_of(" \t\r\n");
  if (start != std::string_view::npos && content.substr(start, 5) == "solid" &&
      (content.find("facet") != std::string_view::npos ||
       content.find("endsolid") != std::string_view::npos))
    return MeshFormat::stl;
  if (extension == ".ply") return MeshFormat::ply;
  return MeshFormat::obj;
}

}  // namespace

Mesh parse_mesh(std::string_view content, MeshFormat format, const std::string& name) {
  switch (format) {
    case MeshFormat::ply:
      return io_detail::read_ply(content, name);
    case MeshFormat::stl:
      return io_detail::read_stl(content, name);
    case MeshFormat::obj:
      break;
  }
  return io_detail::read_obj(content, name);
}

Mesh load_mesh(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw MeshError(name + ": is a directory");
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) throw MeshError(name + ": cannot open file");
  const std::streamoff size = file.tellg();
  if (size < 0) throw MeshError(name + ": cannot read file");
  std::string content(static_cast<std::size_t>(size), '\0');
  file.seekg(0);
  if (!file.read(content.data(), size)) throw MeshError(name + ": cannot read file");
  return parse_mesh(content, detect_format(content, path), name);
}

}  // namespace trisect
