#pragma once
/// \file
/// Loading OBJ, PLY and STL files into a `Mesh`.

#include "trisect/io/mesh.hpp"

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace trisect {

/// Thrown for unreadable or malformed mesh files; what() is "<path>:<line>: <problem>" for
/// text data, "<path>: byte <offset>: <problem>" for binary data, or "<path>: <problem>".
class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The mesh file formats trisect reads.
enum class MeshFormat { obj, ply, stl };

/// Most vertices one polygon (an OBJ face, a PLY face list) may have, so that one line or
/// list cannot expand into more triangles than this: a longer one is an error.
inline constexpr std::size_t max_polygon_vertices = std::size_t(1) << 20;

/// Loads a .obj, .ply or .stl file, the format chosen by content where possible (PLY magic,
/// binary STL by size, ascii STL by "solid" and "facet"), by extension otherwise. The path
/// must name a regular file, as `read_regular_file` requires. Every failure, running out of
/// memory while reading or parsing included, is a `MeshError` naming the file.
[[nodiscard]] Mesh load_mesh(const std::filesystem::path& path);

/// Parses `content` (a whole file) in `format`; `name` is used in error messages.
[[nodiscard]] Mesh parse_mesh(std::string_view content, MeshFormat format, const std::string& name);

}  // namespace trisect
