#pragma once
/// \file
/// Loading OBJ, PLY and STL files into a `Mesh`.

#include "trisect/error.hpp"
#include "trisect/io/mesh.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace trisect {

/// Thrown for unreadable or malformed mesh files; what() is "<path>:<line>: <problem>" for
/// text data, "<path>: byte <offset>: <problem>" for binary data, or "<path>: <problem>". A
/// binary byte where text is expected is "<path>:<line>: byte <offset> (0x<hex>) is binary,
/// not text; text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F" (`binary_data_problem`).
class MeshError : public Error {
 public:
  using Error::Error;
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
///
/// What is read as text must be text (`is_binary_byte` in trisect/io/text_token.hpp: no
/// control characters but tab, LF, VT, FF and CR; bytes from 0x80 up, as in UTF-8 comments,
/// are text): a whole OBJ file, a PLY header, the data of an ascii PLY, a whole ascii STL (a
/// file that starts with "solid" and a line of text and has not the size of a binary STL). A
/// binary byte there is an error naming its line and offset, so that binary data named .obj is
/// never an empty mesh. So is text in which no line is an OBJ statement (unknown statements
/// are ignored only in a file that has one). A UTF-8 byte order mark before the first line
/// is skipped.
[[nodiscard]] Mesh load_mesh(const std::filesystem::path& path);

/// Parses `content` (a whole file) in `format`; `name` is used in error messages.
[[nodiscard]] Mesh parse_mesh(std::string_view content, MeshFormat format, const std::string& name);

}  // namespace trisect
