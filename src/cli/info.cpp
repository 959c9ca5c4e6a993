// `trisect info MESH`.
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/mesh/topology.hpp>
#include <trisect/trisect.hpp>

#include <CLI/CLI.hpp>

#include <chrono>
#include <ostream>

namespace trisect::cli {
namespace {

int run_info(const std::string& mesh_path, std::ostream& standard_output, std::ostream& err) {
  CommandRun run("trisect info", err);
  return run([&] {
    MeshInput input = load_input(mesh_path, run, err, false);
    const Mesh& mesh = input.mesh;
    const auto start = std::chrono::steady_clock::now();
    if (!input.from_tree_file) input.bvh = build(mesh.soup());
    const Bvh& bvh = input.bvh;
    const double build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const MeshTopology topology = trisect::topology(mesh.soup());
    const TopologyCounts& edges = topology.counts;
    const Aabb bounds = bvh.bounds();
    const BvhStatistics stats = statistics(bvh);
    OutputWriter writer(standard_output);
    std::ostream& out = writer.stream();
    out << "mesh:          " << mesh_path << '\n'
        << "triangles:     " << mesh.triangle_count() << '\n'
        << "vertices:      " << mesh.positions.size() << '\n'
        << "degenerate:    " << edges.zero_area_triangles << " (zero area; "
        << edges.collapsed_triangles << " with a repeated vertex)\n";
    if (!bvh.empty())
      out << "bounds:        (" << bounds.min.x << ", " << bounds.min.y << ", " << bounds.min.z
          << ") .. (" << bounds.max.x << ", " << bounds.max.y << ", " << bounds.max.z << ")\n";
    out << "welded:        " << topology.vertices.positions.size() << " distinct vertex positions, "
        << topology.edges.size() << " edges\n"
        << "closed:        " << (topology.is_closed() ? "yes" : "no") << " (" << edges.odd_edges
        << " edges used by an odd number of triangles of non-zero area)\n"
        << "manifold:      " << (topology.is_closed_manifold() ? "yes" : "no") << " ("
        << edges.manifold_edges << " edges shared by two triangles, " << edges.boundary_edges
        << " boundary, " << edges.non_manifold_edges << " non-manifold)\n"
        << "oriented:      " << (topology.is_consistently_oriented() ? "yes" : "no") << " ("
        << edges.misoriented_edges << " edges walked the same way by both triangles)\n"
        << "bvh build:     ";
    if (input.from_tree_file)
      out << "loaded from the tree file\n";
    else
      out << build_ms << " ms\n";
    out << "bvh nodes:     " << stats.node_count << " (" << stats.leaf_count << " leaves, depth "
        << stats.depth << ")\n"
        << "bvh SAH cost:  " << stats.sah_cost << '\n'
        << "bvh memory:    " << stats.bytes << " bytes\n";
    writer.finish();
    return 0;
  });
}

}  // namespace

void add_info_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand("info", "triangles, bounds, closedness, BVH statistics");
  const auto mesh_path = std::make_shared<std::string>();
  command->add_option("MESH", *mesh_path, mesh_argument_help)->required();
  command->footer(R"(
Prints the number of triangles and vertices, degenerate (zero-area) triangles, the bounds,
whether the mesh is closed (every edge, between vertices with equal positions, used by an even
number of triangles of non-zero area: the rule `inside` needs) and a closed manifold (besides,
every edge used by exactly two triangles, none of zero area), and the BVH's build time and
statistics.)");
  context.actions[command] = [&context, mesh_path] {
    return run_info(*mesh_path, context.out, context.err);
  };
}

}  // namespace trisect::cli
