#pragma once
// A MESH argument of any command: a mesh file (.obj, .ply, .stl), read and given a BVH, or a
// tree file that `trisect build` wrote, mapped, its triangles recovered. Either way the
// commands see the same triangles with the same ids and answer the same.
#include "command_run.hpp"

#include <trisect/bvh/bvh.hpp>
#include <trisect/io/mesh.hpp>

#include <ostream>
#include <string>

namespace trisect::cli {

/// The triangles of a MESH argument and, when asked for, their tree.
struct MeshInput {
  /// The triangles in input order. From a tree file: three corners per triangle, indices 0, 1,
  /// 2, ..., and each triangle's source face is its id.
  Mesh mesh;
  /// The tree: loaded from a tree file, or built (`build` with default options) when asked for.
  Bvh bvh;
  bool from_tree_file = false;  ///< True when `path` was a tree file.
};

/// Loads `path` (named in `run` from then on): a tree file (`is_bvh_file`) is loaded with
/// `load_bvh` (checksum verified); anything else is read as a mesh and, when `with_tree`,
/// its BVH built. Reports slow steps on `err`.
[[nodiscard]] MeshInput load_input(const std::string& path, CommandRun& run, std::ostream& err,
                                   bool with_tree = true);

/// The help text's description of a MESH argument.
inline constexpr const char* mesh_argument_help =
    "the mesh: .obj, .ply or .stl, or a tree file from 'trisect build'";

}  // namespace trisect::cli
