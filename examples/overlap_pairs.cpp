// Which triangles of two meshes intersect, and does a mesh intersect itself: the first step of
// collision detection, mesh booleans and 3D-print checks.
//
//   overlap_pairs [MESH_A MESH_B]     default: two built-in cubes, the second moved by
//                                     (1, 1, 1) through --transform's rule
//
// Prints the intersecting pairs (triangle of A, triangle of B), then for each mesh whether it
// intersects itself. Exact: closed triangles, touching counts.
#include "example_mesh.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/overlap/overlap.hpp>

#include <cstdio>
#include <exception>

namespace {

void report_self(const char* name, const trisect::Bvh& bvh) {
  const std::vector<trisect::TrianglePair> pairs = trisect::self_intersections(bvh);
  if (pairs.empty())
    std::printf("%s does not intersect itself\n", name);
  else
    std::printf("%s intersects itself: %zu pairs, the first %u and %u\n", name, pairs.size(),
                pairs.front().a, pairs.front().b);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const bool built_in = argc < 3;
    const trisect::Mesh a = built_in ? example::builtin_cube() : trisect::load_mesh(argv[1]);
    const trisect::Mesh b = built_in ? example::builtin_cube() : trisect::load_mesh(argv[2]);
    // Rows of R | T: the identity for files, a shift by (1, 1, 1) for the built-in cubes.
    const float shift = built_in ? 1.0f : 0.0f;
    const trisect::Transform b_to_a{{1, 0, 0, shift, 0, 1, 0, shift, 0, 0, 1, shift}};
    const trisect::Bvh bvh_a = trisect::build(a.soup()), bvh_b = trisect::build(b.soup());
    const std::vector<trisect::TrianglePair> pairs =
        trisect::collect_intersecting_pairs(bvh_a, bvh_b, b_to_a);
    std::printf("%zu intersecting pairs (A triangle, B triangle):\n", pairs.size());
    for (const trisect::TrianglePair& pair : pairs) std::printf("  %u %u\n", pair.a, pair.b);
    report_self("A", bvh_a);
    report_self("B", bvh_b);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "overlap_pairs: %s\n", error.what());
    return 2;
  }
}
