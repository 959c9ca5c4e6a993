#include "trisect/io/load_mesh.hpp"

#include "mesh_readers.hpp"
#include "trisect/io/read_file.hpp"

#include <algorithm>
#include <cctype>
#include <new>
#include <string>

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
  if (extension == ".stl" || detail::is_binary_stl(content)) return MeshFormat::stl;
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
      return detail::read_ply(content, name);
    case MeshFormat::stl:
      return detail::read_stl(content, name);
    case MeshFormat::obj:
      break;
  }
  return detail::read_obj(content, name);
}

Mesh load_mesh(const std::filesystem::path& path) {
  try {
    const std::string content = read_regular_file(path);
    return parse_mesh(content, detect_format(content, path), path.string());
  } catch (const FileError& error) {
    throw MeshError(error.what());
  } catch (const std::bad_alloc&) {
    throw MeshError(path.string() + ": out of memory reading the mesh");
  }
}

}  // namespace trisect
