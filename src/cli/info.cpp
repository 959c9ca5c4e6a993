// `trisect info MESH`.
#include "commands.hpp"
#include "progress.hpp"

#include <trisect/io/load_mesh.hpp>
#include <trisect/trisect.hpp>

#include <chrono>
#include <cstring>
#include <map>
#include <ostream>
#include <unordered_map>

namespace trisect::cli {
namespace {

struct EdgeCounts {
  std::size_t boundary = 0;      // used by one triangle
  std::size_t manifold = 0;      // used by exactly two
  std::size_t non_manifold = 0;  // used by three or more
};

// Vertices with equal positions are one vertex (STL files repeat them per facet).
std::vector<std::uint32_t> welded_vertex_ids(const Mesh& mesh) {
  struct Hash {
    std::size_t operator()(const Vec3& p) const {
      std::uint32_t bits[3];
      const float normalized[3] = {p.x + 0.0f, p.y + 0.0f, p.z + 0.0f};  // -0 and +0 alike
      std::memcpy(bits, normalized, sizeof bits);
      return (std::size_t(bits[0]) * 0x9E3779B1u) ^ (std::size_t(bits[1]) * 0x85EBCA77u) ^
             (std::size_t(bits[2]) * 0xC2B2AE3Du);
    }
  };
  std::unordered_map<Vec3, std::uint32_t, Hash> first_with_position;
  std::vector<std::uint32_t> welded(mesh.positions.size());
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    welded[i] = first_with_position.try_emplace(mesh.positions[i], std::uint32_t(i)).first->second;
  return welded;
}

EdgeCounts count_edges(const Mesh& mesh) {
  const std::vector<std::uint32_t> welded = welded_vertex_ids(mesh);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> uses;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = welded[mesh.indices[3 * t + std::size_t(k)]];
      const std::uint32_t b = welded[mesh.indices[3 * t + std::size_t((k + 1) % 3)]];
      if (a != b) ++uses[{std::min(a, b), std::max(a, b)}];
    }
  EdgeCounts counts;
  for (const auto& [edge, count] : uses)
    (count == 1 ? counts.boundary : count == 2 ? counts.manifold : counts.non_manifold)++;
  return counts;
}

}  // namespace

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
    const EdgeCounts edges = count_edges(mesh);
    const Aabb bounds = bvh.bounds();
    const BvhStatistics stats = statistics(bvh);
    out << "mesh:          " << mesh_path << '\n'
        << "triangles:     " << mesh.triangle_count() << '\n'
        << "vertices:      " << mesh.positions.size() << '\n'
        << "degenerate:    " << degenerate << " (zero area)\n";
    if (!bvh.empty())
      out << "bounds:        (" << bounds.min.x << ", " << bounds.min.y << ", " << bounds.min.z
          << ") .. (" << bounds.max.x << ", " << bounds.max.y << ", " << bounds.max.z << ")\n";
    out << "watertight:    "
        << (mesh.triangle_count() > 0 && edges.boundary == 0 && edges.non_manifold == 0 ? "yes"
                                                                                        : "no")
        << " (" << edges.manifold << " edges shared by two triangles, " << edges.boundary
        << " boundary, " << edges.non_manifold << " non-manifold)\n"
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
