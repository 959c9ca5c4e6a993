#include "support/closed_meshes.hpp"

#include <utility>

namespace trisect::testing {
namespace {

void add(Scene& scene, const Vec3& a, const Vec3& b, const Vec3& c) {
  scene.positions.insert(scene.positions.end(), {a, b, c});
}

}  // namespace

Scene box_mesh(const Vec3& min, const Vec3& max, const std::string& name) {
  Scene scene{name, {}, {}};
  const auto corner = [&](int i) {
    return Vec3((i & 1) != 0 ? max.x : min.x, (i & 2) != 0 ? max.y : min.y,
                (i & 4) != 0 ? max.z : min.z);
  };
  // Each face as a quad (counter-clockwise from outside) split along one diagonal.
  constexpr int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                               {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    add(scene, corner(f[0]), corner(f[1]), corner(f[2]));
    add(scene, corner(f[0]), corner(f[2]), corner(f[3]));
  }
  return scene;
}

Scene octahedron_mesh(const Vec3& center, const std::array<float, 6>& reach) {
  Scene scene{"octahedron", {}, {}};
  std::array<Vec3, 6> tip;
  for (int k = 0; k < 6; ++k) {
    tip[static_cast<std::size_t>(k)] = center;
    tip[static_cast<std::size_t>(k)][k / 2] +=
        k % 2 == 0 ? -reach[static_cast<std::size_t>(k)] : reach[static_cast<std::size_t>(k)];
  }
  // One face per octant: the x, y and z tips of its signs.
  for (int sx = 0; sx < 2; ++sx)
    for (int sy = 0; sy < 2; ++sy)
      for (int sz = 0; sz < 2; ++sz) {
        const Vec3 &x = tip[static_cast<std::size_t>(sx)],
                   &y = tip[static_cast<std::size_t>(2 + sy)],
                   &z = tip[static_cast<std::size_t>(4 + sz)];
        if ((sx + sy + sz) % 2 == 1)
          add(scene, x, y, z);
        else
          add(scene, x, z, y);
      }
  return scene;
}

Scene tetrahedron_mesh(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  Scene scene{"tetrahedron", {}, {}};
  add(scene, a, b, c);
  add(scene, a, d, b);
  add(scene, b, d, c);
  add(scene, c, d, a);
  return scene;
}

Scene merged(std::span<const Scene> scenes, const std::string& name) {
  Scene all{name, {}, {}};
  for (const Scene& scene : scenes)
    for (std::size_t id = 0; id < scene.size(); ++id) {
      const Triangle t = scene.triangle(id);
      add(all, t.a, t.b, t.c);
    }
  return all;
}

Scene flipped(Scene scene, std::size_t first, std::size_t period) {
  for (std::size_t id = first; id < scene.size(); id += period)
    std::swap(scene.positions[3 * id + 1], scene.positions[3 * id + 2]);
  scene.name += "_flipped";
  return scene;
}

Scene without(Scene scene, std::size_t id) {
  const auto begin = scene.positions.begin() + static_cast<std::ptrdiff_t>(3 * id);
  scene.positions.erase(begin, begin + 3);
  scene.name += "_open";
  return scene;
}

Scene with_triangle(Scene scene, const Triangle& triangle) {
  add(scene, triangle.a, triangle.b, triangle.c);
  return scene;
}

}  // namespace trisect::testing
