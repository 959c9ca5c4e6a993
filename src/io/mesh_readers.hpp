#pragma once
// One reader per format; load_mesh.cpp picks among them.

#include "trisect/io/mesh.hpp"

#include <string>
#include <string_view>

namespace trisect::detail {

/// Wavefront OBJ (see obj_reader.cpp).
Mesh read_obj(std::string_view content, const std::string& name);
/// PLY, ascii or binary of either byte order (see ply_reader.cpp).
Mesh read_ply(std::string_view content, const std::string& name);
/// STL, ascii or binary (see stl_reader.cpp).
Mesh read_stl(std::string_view content, const std::string& name);
/// True when `content` has exactly the size a binary STL with its declared facet count has.
bool is_binary_stl(std::string_view content);

}  // namespace trisect::detail
