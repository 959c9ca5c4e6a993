// Loading a MESH argument: a mesh file or a tree file.
#include "mesh_input.hpp"

#include "progress.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/load_mesh.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace trisect::cli {
namespace {

// The mesh of a loaded tree's triangles: three corners each, in id order.
Mesh mesh_of(const Bvh& bvh) {
  Mesh mesh;
  mesh.positions = triangle_corners(bvh);
  const auto count_up = [](std::vector<std::uint32_t>& numbers, std::size_t count) {
    numbers.reserve(count);
    for (std::size_t i = 0; i < count; ++i) numbers.push_back(static_cast<std::uint32_t>(i));
  };
  count_up(mesh.indices, mesh.positions.size());
  count_up(mesh.source_faces, bvh.size());
  return mesh;
}

}  // namespace

MeshInput load_input(const std::string& path, CommandRun& run, std::ostream& err, bool with_tree) {
  run.processing(path);
  MeshInput input;
  if (is_bvh_file(path)) {
    const Progress loading(err, "loading the tree file " + path);
    input.bvh = load_bvh(path);
    input.mesh = mesh_of(input.bvh);
    input.from_tree_file = true;
    loading.done(std::to_string(input.bvh.size()) + " triangles");
    return input;
  }
  const Progress loading(err, "loading " + path);
  input.mesh = load_mesh(path);
  loading.done(std::to_string(input.mesh.triangle_count()) + " triangles");
  if (with_tree) {
    const Progress building(err, "building the BVH");
    input.bvh = build(input.mesh.soup());
    building.done();
  }
  return input;
}

}  // namespace trisect::cli
