// Slice a mesh into layers and print each layer's contours and area, as a 3D printer's slicer
// or a CAD section view would start.
//
//   slice_layers [MESH [LAYERS]]     default: the built-in cube, 4 layers
//
// Areas are signed, seen from +z: on a closed mesh with outward-facing triangles, outer
// boundaries count positive and holes negative, so their sum is the cross-section's area.
#include <trisect/slice/slice.hpp>
#include "example_mesh.hpp"

#include <trisect/io/load_mesh.hpp>

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
  try {
    trisect::Mesh mesh;
    if (argc > 1) {
      mesh = trisect::load_mesh(argv[1]);
    } else {  // a 2 x 2 x 2 cube, outward-facing
      mesh = example::builtin_cube();
    }
    const std::size_t layers = argc > 2 ? std::stoul(argv[2]) : 4;
    const trisect::Vec3 up(0, 0, 1);
    const std::vector<float> offsets =
        trisect::layer_offsets(trisect::extent_along(mesh.soup(), up), layers);
    trisect::SliceStats stats;
    const std::vector<trisect::Section> sections =
        trisect::slice(mesh.soup(), up, offsets, {}, &stats);
    std::printf("%zu triangles, %zu layers along z, %llu segments\n", mesh.triangle_count(),
                sections.size(), static_cast<unsigned long long>(stats.segments));
    for (const trisect::Section& section : sections) {
      std::size_t closed = 0;
      double area = 0;
      for (const trisect::Contour& contour : section.contours) {
        closed += contour.closed ? 1 : 0;
        area += contour.area;
      }
      std::printf("z = %-12.6g %3zu contours (%zu closed, %zu open)  area %.6g\n",
                  double(section.d), section.contours.size(), closed,
                  section.contours.size() - closed, area);
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "slice_layers: %s\n", error.what());
    return 2;
  }
}
