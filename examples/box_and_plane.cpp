// Loads a mesh, builds trisect's BVH over it and lists the triangles that a box and a plane
// touch (exactly: a triangle that only touches the box's surface or the plane at one vertex
// counts). The box is the middle half of the mesh's bounds in x and y and their lowest
// quarter in z, the plane the horizontal plane through the centre of the bounds.
//
//   box_and_plane [MESH | cube]    default: the shared bunny ($TRISECT_MESH_DIR), else the cube
//
// It also checks both answers against a brute-force loop over every triangle with the same
// exact predicates and exits with status 1 when they differ (so it runs as a test).
#include "example_mesh.hpp"

#include <trisect/trisect.hpp>

#include <cstdio>
#include <exception>
#include <vector>

namespace {

// Every triangle id touching `shape`, by testing each triangle: what the BVH must answer.
template <class Shape>
std::vector<trisect::TriangleId> brute_force(const trisect::TriangleSoup& soup,
                                             const Shape& shape) {
  std::vector<trisect::TriangleId> ids;
  for (std::size_t id = 0; id < soup.size(); ++id)
    if (trisect::intersects(soup.triangle(id), shape)) ids.push_back(trisect::TriangleId(id));
  return ids;
}

// Prints "<what>: N triangles: id id ..." (the first 20 ids) and returns whether the BVH's
// answer equals brute force.
bool report(const char* what, const std::vector<trisect::TriangleId>& ids,
            const std::vector<trisect::TriangleId>& expected) {
  std::printf("%s: %zu triangles:", what, ids.size());
  for (std::size_t i = 0; i < ids.size() && i < 20; ++i) std::printf(" %u", ids[i]);
  std::printf(ids.size() > 20 ? " ...\n" : "\n");
  if (ids == expected) return true;
  std::printf("%s: brute force finds %zu triangles instead\n", what, expected.size());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const trisect::Mesh mesh = example::load_example_mesh(argc > 1 ? argv[1] : nullptr);
    const trisect::TriangleSoup soup = mesh.soup();
    const trisect::Bvh bvh = trisect::build(soup);  // binned SAH, all threads
    const trisect::Aabb bounds = bvh.bounds();
    const trisect::Vec3 size = bounds.max - bounds.min;

    // A closed box given by two corners, and the plane n·x = d with n = (0, 0, 1) (z = d).
    const trisect::Aabb box =
        trisect::Aabb::from_corners(bounds.min + size * trisect::Vec3(0.25f, 0.25f, 0.0f),
                                    bounds.min + size * trisect::Vec3(0.75f, 0.75f, 0.25f));
    const trisect::Plane plane{{0, 0, 1}, bounds.min.z + 0.5f * size.z};
    std::printf("box (%g %g %g) .. (%g %g %g)\n", double(box.min.x), double(box.min.y),
                double(box.min.z), double(box.max.x), double(box.max.y), double(box.max.z));
    std::printf("plane z = %g\n", double(plane.d));

    // collect_touching returns the sorted input ids of every triangle touching the shape.
    const bool box_right =
        report("box", trisect::collect_touching(bvh, box), brute_force(soup, box));
    const bool plane_right =
        report("plane", trisect::collect_touching(bvh, plane), brute_force(soup, plane));
    return box_right && plane_right ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "box_and_plane: %s\n", error.what());
    return 2;
  }
}
