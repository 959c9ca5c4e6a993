#pragma once
// The test scenes: the shared scenes library (tests/support/scenes/: random soups, lattice
// soups full of exact ties, degenerate and needle triangles, a noisy sphere, far-from-origin
// and tiny coordinates, the real meshes) in the tests' namespace, and the list the query tests
// run on.
#include "scenes/generators.hpp"
#include "scenes/mesh_folder.hpp"
#include "scenes/scene.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace trisect::testing {

using scenes::lattice;
using scenes::lattice_soup;
using scenes::needles;
using scenes::noisy_sphere;
using scenes::random_soup;
using scenes::Scene;
using scenes::transformed;
using scenes::uniform;

/// The real meshes of the shared folder (scenes::shared_mesh_folder) as plain soups, in input
/// triangle order; a missing one is left out with a warning.
inline std::vector<Scene> shared_mesh_scenes() {
  std::vector<Scene> meshes;
  for (const std::string& name : scenes::shared_mesh_names()) {
    const auto file = scenes::shared_mesh_file(name);
    if (!file) {
      WARN("no shared mesh " << name << " in " << scenes::shared_mesh_folder()
                             << "; it is left out (set TRISECT_MESH_DIR)");
      continue;
    }
    meshes.push_back(scenes::as_soup(scenes::load_scene(name, *file)));
  }
  return meshes;
}

/// Every scene the query tests run on: procedural and adversarial ones, then the real meshes.
inline std::vector<Scene> all_scenes() {
  std::vector<Scene> scenes{random_soup(3000, 1), lattice_soup(3000, 2), noisy_sphere(40, 60, 3),
                            needles(1000, 4)};
  scenes.push_back(transformed(random_soup(2000, 5), 1.0f, Vec3(1e6f, -1e6f, 1e6f), "_far"));
  scenes.push_back(transformed(random_soup(2000, 6), 1e-7f, Vec3(0.0f), "_tiny"));
  scenes.push_back(transformed(lattice_soup(2000, 7), 0.0625f, Vec3(1e6f, 0.0f, 0.0f), "_far"));
  for (Scene& mesh : shared_mesh_scenes()) scenes.push_back(std::move(mesh));
  return scenes;
}

}  // namespace trisect::testing
