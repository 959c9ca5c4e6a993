#pragma once
// The shared real meshes (the Stanford bunny, fandisk, ...) that tests and benchmarks read from
// the folder beside the project; never copied into the repository.
#include "scenes/scene.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace trisect::scenes {

/// The folder of the shared meshes: $TRISECT_MESH_DIR when set and not empty, else
/// `../shared/meshes` beside the source tree (compiled in).
[[nodiscard]] std::filesystem::path shared_mesh_folder();

/// The names of the shared meshes, without the `.obj` of their files, in a fixed order.
[[nodiscard]] const std::vector<std::string>& shared_mesh_names();

/// The file of shared mesh `name` (`<folder>/<name>.obj`) when it is a regular file.
[[nodiscard]] std::optional<std::filesystem::path> shared_mesh_file(const std::string& name);

/// The mesh file `path` read with trisect::load_mesh as an indexed scene called `name`, in file
/// order (the triangle ids of `trisect query`). Throws trisect::MeshError as load_mesh does.
[[nodiscard]] Scene load_scene(const std::string& name, const std::filesystem::path& path);

/// `scene` with 3 own positions per triangle and no indices, in the same triangle order.
[[nodiscard]] Scene as_soup(const Scene& scene);

}  // namespace trisect::scenes
