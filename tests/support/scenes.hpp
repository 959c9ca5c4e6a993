#pragma once
// Seeded test scenes for BVH queries: random soups, lattice soups full of exact ties,
// degenerate and needle triangles, a noisy sphere mesh, and far-from-origin / tiny coordinates.
#include <trisect/io/load_mesh.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace trisect::test {

/// An owning soup: plain positions, 3 per triangle.
struct Scene {
  std::string name;
  std::vector<Vec3> positions;

  [[nodiscard]] TriangleSoup soup() const { return {positions}; }
  [[nodiscard]] std::size_t size() const { return positions.size() / 3; }
};

inline float uniform(std::mt19937_64& random, float low, float high) {
  return std::uniform_real_distribution<float>(low, high)(random);
}

inline int lattice(std::mt19937_64& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

/// Small random triangles scattered in [-10, 10]^3.
inline Scene random_soup(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"random_soup", {}};
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 center(uniform(random, -10, 10), uniform(random, -10, 10), uniform(random, -10, 10));
    for (int k = 0; k < 3; ++k)
      scene.positions.push_back(
          center + Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1)));
  }
  return scene;
}

/// Triangles with integer vertices in [-6, 6]^3 (many shared vertices, exact ties with lattice
/// queries), with one in eight degenerate (repeated or collinear vertices).
inline Scene lattice_soup(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"lattice_soup", {}};
  const auto point = [&] {
    return Vec3(float(lattice(random, -6, 6)), float(lattice(random, -6, 6)),
                float(lattice(random, -6, 6)));
  };
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 a = point();
    Vec3 b = a + Vec3(float(lattice(random, -2, 2)), float(lattice(random, -2, 2)),
                      float(lattice(random, -2, 2)));
    Vec3 c = a + Vec3(float(lattice(random, -2, 2)), float(lattice(random, -2, 2)),
                      float(lattice(random, -2, 2)));
    if (i % 8 == 3) c = a + 2.0f * (b - a);  // collinear
    if (i % 8 == 5) b = a;                   // repeated vertex
    if (i % 16 == 7) b = c = a;              // a point
    scene.positions.insert(scene.positions.end(), {a, b, c});
  }
  return scene;
}

/// A closed sphere of radius ~5 tessellated by latitude/longitude with radial noise.
inline Scene noisy_sphere(int rings, int segments, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"noisy_sphere", {}};
  std::vector<Vec3> grid;
  constexpr float pi = 3.14159265358979f;
  for (int r = 0; r <= rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const float theta = pi * float(r) / float(rings), phi = 2 * pi * float(s) / float(segments);
      const float radius = 5.0f + uniform(random, -0.2f, 0.2f);
      grid.emplace_back(radius * std::sin(theta) * std::cos(phi),
                        radius * std::sin(theta) * std::sin(phi), radius * std::cos(theta));
    }
  const auto at = [&](int r, int s) { return grid[std::size_t(r * segments + (s % segments))]; };
  for (int r = 0; r < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      scene.positions.insert(scene.positions.end(), {at(r, s), at(r + 1, s), at(r + 1, s + 1)});
      scene.positions.insert(scene.positions.end(), {at(r, s), at(r + 1, s + 1), at(r, s + 1)});
    }
  return scene;
}

/// `scene` scaled by `scale` and moved by `offset` (rounded to float).
inline Scene transformed(Scene scene, float scale, Vec3 offset, const std::string& suffix) {
  for (Vec3& p : scene.positions) p = p * scale + offset;
  scene.name += suffix;
  return scene;
}

/// Needle triangles (one edge far longer than the others) crossing the unit cube.
inline Scene needles(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"needles", {}};
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 a(uniform(random, -4, 4), uniform(random, -4, 4), uniform(random, -4, 4));
    const Vec3 b(uniform(random, -4, 4), uniform(random, -4, 4), uniform(random, -4, 4));
    const Vec3 c = a + 1e-4f * Vec3(uniform(random, -1, 1), uniform(random, -1, 1), 0.0f);
    scene.positions.insert(scene.positions.end(), {a, b, c});
  }
  return scene;
}

/// The real meshes of $TRISECT_MESH_DIR (default ../shared/meshes) as plain soups, in input
/// triangle order; none, with a warning, when the folder is absent.
inline std::vector<Scene> shared_mesh_scenes() {
  const char* configured = std::getenv("TRISECT_MESH_DIR");
  const std::filesystem::path folder = configured ? configured : "../shared/meshes";
  std::vector<Scene> scenes;
  for (const char* name :
       {"stanford-bunny", "fandisk", "spot", "teapot", "suzanne", "cow", "beetle"}) {
    const std::filesystem::path file = folder / (std::string(name) + ".obj");
    if (!std::filesystem::is_regular_file(file)) {
      WARN("no shared mesh " << file << "; it is left out (set TRISECT_MESH_DIR)");
      continue;
    }
    const Mesh mesh = load_mesh(file);
    Scene scene{name, {}};
    for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
      const Triangle triangle = mesh.soup().triangle(t);
      scene.positions.insert(scene.positions.end(), {triangle.a, triangle.b, triangle.c});
    }
    scenes.push_back(std::move(scene));
  }
  return scenes;
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

}  // namespace trisect::test
