// `trisect info MESH`.
#include "commands.hpp"
#include "progress.hpp"

#include <trisect/io/load_mesh.hpp>
#include <trisect/mesh/topology.hpp>
#include <trisect/trisect.hpp>

#include <chrono>
#include <ostream>

namespace trisect::cli {

int run_info(const std::string& mesh_path, std::ostream& out, std::ostream& err) {
  try {
    const Progress loading(err, "loading " + mesh_path);
    const Mesh mesh = load_mesh(mesh_path);
    loading.done(std::to_string(mesh.triangle_count()) + " triangles");
    const auto start = std::chrono::steady_clock::now();
    const Bvh bvh = build(mesh.soup());
    const double build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::size_t degenerate = 0;
    for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
      degenerate += is_degenerate(mesh.soup().triangle(t)) ? 1u : 0u;
    const MeshTopology topology = trisect::topology(mesh.soup());
    const TopologyCounts& edges = topology.counts;
    const Aabb bounds = bvh.bounds();
    const BvhStatistics stats = statistics(bvh);
    out << "mesh:          " << mesh_path << '\n'
        << "triangles:     " << mesh.triangle_count() << '\n'
        << "vertices:      " << mesh.positions.size() << '\n'
        << "degenerate:    " << degenerate << " (zero area; " << edges.collapsed_triangles
        << " with a repeated vertex)\n";
    if (!bvh.empty())
      out << "bounds:        (" << bounds.min.x << ", " << bounds.min.y << ", " << bounds.min.z
          << ") .. (" << bounds.max.x << ", " << bounds.max.y << ", " << bounds.max.z << ")\n";
    out << "welded:        " << topology.vertices.positions.size() << " distinct vertex positions, "
        << topology.edges.size() << " edges\n"
        << "watertight:    " << (topology.is_closed() ? "yes" : "no") << " ("
        << edges.manifold_edges << " edges shared by two triangles, " << edges.boundary_edges
        << " boundary, " << edges.non_manifold_edges << " non-manifold, "
        << edges.collapsed_triangles << " triangles with a repeated vertex)\n"
        << "oriented:      " << (topology.is_consistently_oriented() ? "yes" : "no") << " ("
        << edges.misoriented_edges << " edges walked the same way by both triangles)\n"
        << "bvh build:     " << build_ms << " ms\n"
        << "bvh nodes:     " << stats.node_count << " (" << stats.leaf_count << " leaves, depth "
        << stats.depth << ")\n"
        << "bvh SAH cost:  " << stats.sah_cost << '\n'
        << "bvh memory:    " << stats.bytes << " bytes\n";
    return 0;
  } catch (const MeshError& error) {
    err << "trisect info: " << error.what() << '\n';
  } catch (const InvalidInput& error) {
    err << "trisect info: " << mesh_path << ": " << error.what() << '\n';
  }
  return exit_bad_input;
}

}  // namespace trisect::cli
