#include "scenes/mesh_folder.hpp"

#include <trisect/io/load_mesh.hpp>

#include <cstdlib>
#include <utility>

namespace trisect::scenes {

std::filesystem::path shared_mesh_folder() {
  if (const char* folder = std::getenv("TRISECT_MESH_DIR"); folder != nullptr && *folder != '\0')
    return folder;
  return TRISECT_SHARED_MESH_DIR;
}

const std::vector<std::string>& shared_mesh_names() {
  static const std::vector<std::string> names{"stanford-bunny", "fandisk", "spot",  "teapot",
                                              "suzanne",        "cow",     "beetle"};
  return names;
}

std::optional<std::filesystem::path> shared_mesh_file(const std::string& name) {
  std::filesystem::path file = shared_mesh_folder() / (name + ".obj");
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(file, ignored)) return std::nullopt;
  return file;
}

Scene load_scene(const std::string& name, const std::filesystem::path& path) {
  Mesh mesh = load_mesh(path);
  return {name, std::move(mesh.positions), std::move(mesh.indices)};
}

Scene as_soup(const Scene& scene) {
  Scene soup{scene.name, {}, {}};
  soup.positions.reserve(3 * scene.size());
  for (std::size_t t = 0; t < scene.size(); ++t) {
    const Triangle triangle = scene.triangle(t);
    soup.positions.insert(soup.positions.end(), {triangle.a, triangle.b, triangle.c});
  }
  return soup;
}

}  // namespace trisect::scenes
