#pragma once
// The mesh the examples work on: a file named on the command line, else the Stanford bunny of
// the shared meshes ($TRISECT_MESH_DIR) when it is there, else a built-in cube.
#include <trisect/io/load_mesh.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace example {

/// The 2 x 2 x 2 cube [0, 2]^3: 8 vertices, 12 outward-facing triangles (2 per face, in the
/// order bottom, top, front (y = 0), right (x = 2), back, left).
inline trisect::Mesh builtin_cube() {
  trisect::Mesh mesh;
  mesh.positions = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0},
                    {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}};
  mesh.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                  1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
  return mesh;
}

/// `argument` read as a mesh file, or the built-in cube when it is "cube"; with no argument
/// (nullptr), the shared bunny when $TRISECT_MESH_DIR holds it, else the cube. Says on stdout
/// which one it took. Throws trisect::MeshError for a bad file.
inline trisect::Mesh load_example_mesh(const char* argument) {
  std::string path = argument != nullptr ? argument : "";
  if (path.empty()) {
    const char* folder = std::getenv("TRISECT_MESH_DIR");
    const std::filesystem::path bunny =
        std::filesystem::path(folder != nullptr ? folder : "") / "stanford-bunny.obj";
    if (folder != nullptr && std::filesystem::is_regular_file(bunny)) path = bunny.string();
  }
  if (path.empty() || path == "cube") {
    std::printf("mesh: the built-in cube [0, 2]^3\n");
    return builtin_cube();
  }
  std::printf("mesh: %s\n", path.c_str());
  return trisect::load_mesh(path);
}

}  // namespace example
