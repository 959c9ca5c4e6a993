// The distance field of a mesh on one plane, as a picture: a grid of points across the middle
// of the mesh (the plane z = middle of its bounds), each coloured by its distance to the mesh
// (closest_points, on TBB's threads), the points inside a closed mesh in one colour
// (sides_of), and the mesh's cross-section on top (slice). Written as an SVG heat map.
//
//   closest_points [MESH | cube] [OUT.svg] [N]   default: the shared bunny, else the cube;
//                                                 closest_points.svg; N = 64 points a side
//
// Checks a sample of the answers against a brute-force loop over every triangle (the exact
// comparison of squared distances, ties to the smallest id) and exits with status 1 when one
// differs, so it runs as a test. An open mesh (the bunny) has no inside: the example says which
// edge is open and colours every point by distance.
#include "example_mesh.hpp"

#include <trisect/trisect.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Grid {
  int n;               // points per side
  float x0, y0, step;  // the lower left point's centre and the spacing
  float z;             // the plane
  [[nodiscard]] trisect::Vec3 point(int i, int j) const {
    return {x0 + (float(i) + 0.5f) * step, y0 + (float(j) + 0.5f) * step, z};
  }
};

// A square grid over the mesh's bounds grown by a fifth on each side, at mid height.
Grid grid_over(const trisect::Aabb& bounds, int n) {
  const float width = std::max(bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y);
  const float margin = 0.2f * width;
  return {n, bounds.min.x - margin, bounds.min.y - margin, (width + 2 * margin) / float(n),
          0.5f * (bounds.min.z + bounds.max.z)};
}

// The nearest triangle of `soup` by testing every one: exact comparison, smallest id on ties.
std::optional<trisect::TriangleId> brute_force_nearest(const trisect::TriangleSoup& soup,
                                                       const trisect::Vec3& point) {
  std::optional<trisect::TriangleId> best;
  trisect::SquaredDistance best_distance;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const trisect::SquaredDistance d = trisect::squared_distance(point, soup.triangle(id));
    if (!best || trisect::compare(d, best_distance) < 0) {
      best = static_cast<trisect::TriangleId>(id);
      best_distance = d;
    }
  }
  return best;
}

// A colour ramp from dark blue (near) through green to yellow (far), t in [0, 1].
std::string ramp(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const int r = int(255 * std::clamp(1.8 * t - 0.6, 0.0, 1.0));
  const int g = int(255 * std::clamp(0.15 + 0.85 * t, 0.0, 1.0));
  const int b = int(255 * std::clamp(0.55 - 0.5 * t, 0.0, 1.0));
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", r, g, b);
  return text;
}

bool write_svg(const std::string& path, const Grid& grid,
               const std::vector<std::optional<trisect::ClosestPoint>>& nearest,
               const std::vector<trisect::PointSide>& sides, const trisect::Section& section,
               double far) {
  const int cell = 8, size = grid.n * cell;
  std::ofstream svg(path);
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << size << "' height='" << size
      << "' viewBox='0 0 " << size << ' ' << size << "'>\n";
  for (int j = 0; j < grid.n; ++j) {
    for (int i = 0; i < grid.n; ++i) {
      const std::size_t k = std::size_t(j) * std::size_t(grid.n) + std::size_t(i);
      const bool inside = !sides.empty() && sides[k] == trisect::PointSide::inside;
      const std::string fill = inside ? "#b03030" : ramp(nearest[k]->distance / far);
      svg << "<rect x='" << i * cell << "' y='" << (grid.n - 1 - j) * cell << "' width='" << cell
          << "' height='" << cell << "' fill='" << fill << "'/>\n";
    }
  }
  const auto to_svg = [&](const trisect::Vec3& p) {  // y up
    return std::to_string((p.x - grid.x0) / grid.step * float(cell)) + ',' +
           std::to_string(float(size) - (p.y - grid.y0) / grid.step * float(cell));
  };
  for (const auto& contour : section.contours) {
    svg << "<polyline fill='none' stroke='white' stroke-width='1.5' points='";
    for (const auto& p : contour.points) svg << to_svg(p) << ' ';
    if (contour.closed && !contour.points.empty()) svg << to_svg(contour.points.front());
    svg << "'/>\n";
  }
  svg << "</svg>\n";
  svg.close();
  return bool(svg);
}

}  // namespace

int main(int argc, char** argv) try {
  const trisect::Mesh mesh = example::load_example_mesh(argc > 1 ? argv[1] : nullptr);
  const std::string out_path = argc > 2 ? argv[2] : "closest_points.svg";
  const int n = argc > 3 ? std::clamp(std::atoi(argv[3]), 2, 1024) : 64;
  const trisect::TriangleSoup soup = mesh.soup();
  const trisect::Bvh bvh = trisect::build(soup);
  const Grid grid = grid_over(bvh.bounds(), n);

  std::vector<trisect::Vec3> points;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) points.push_back(grid.point(i, j));
  std::vector<std::optional<trisect::ClosestPoint>> nearest(points.size());
  trisect::closest_points(bvh, points, nearest);

  std::vector<trisect::PointSide> sides;
  if (const auto open = trisect::find_open_edge(soup)) {
    std::printf(
        "the mesh is not closed (edge (%g %g %g)-(%g %g %g) of %zu triangle(s)): no inside\n",
        double(open->first.x), double(open->first.y), double(open->first.z), double(open->second.x),
        double(open->second.y), double(open->second.z), open->triangles);
  } else {
    sides.assign(points.size(), trisect::PointSide::outside);
    trisect::sides_of(bvh, points, sides);
    const auto count = [&](trisect::PointSide side) {
      return std::count(sides.begin(), sides.end(), side);
    };
    std::printf("grid %d x %d at z = %g: inside %td, outside %td, surface %td\n", n, n,
                double(grid.z), count(trisect::PointSide::inside),
                count(trisect::PointSide::outside), count(trisect::PointSide::surface));
  }

  double near = INFINITY, far = 0;
  for (const auto& answer : nearest) {
    near = std::min(near, answer->distance);
    far = std::max(far, answer->distance);
  }
  std::printf("distances from %.6g to %.6g\n", near, far);

  int wrong = 0, checked = 0;
  for (std::size_t k = 0; k < points.size(); k += 37, ++checked)
    if (brute_force_nearest(soup, points[k]) != nearest[k]->id) ++wrong;
  std::printf("%d of %d sampled answers differ from brute force\n", wrong, checked);

  const trisect::Section section = trisect::slice(soup, trisect::Plane{{0, 0, 1}, grid.z});
  if (!write_svg(out_path, grid, nearest, sides, section, far)) {
    std::fprintf(stderr, "could not write %s\n", out_path.c_str());
    return 2;
  }
  std::printf("wrote %s\n", out_path.c_str());
  return wrong == 0 ? 0 : 1;
} catch (const std::exception& error) {
  std::fprintf(stderr, "closest_points: %s\n", error.what());
  return 2;
}
