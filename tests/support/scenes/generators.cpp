#include "scenes/generators.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace trisect::scenes {
namespace {

// A value in [-1, 1) from a 64-bit key (splitmix64 finaliser).
float hash_unit(std::uint64_t key) {
  key += 0x9e3779b97f4a7c15ull;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
  key ^= key >> 31;
  return static_cast<float>(static_cast<double>(key >> 11) * 0x1p-52 - 1.0);
}

}  // namespace

float uniform(std::mt19937_64& random, float low, float high) {
  return std::uniform_real_distribution<float>(low, high)(random);
}

void set_rotation(Vec3 (&axes)[3], double w, double x, double y, double z) {
  const double n = std::sqrt(w * w + x * x + y * y + z * z);
  w /= n, x /= n, y /= n, z /= n;
  const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  for (int column = 0; column < 3; ++column)
    axes[column] = Vec3(float(m[0][column]), float(m[1][column]), float(m[2][column]));
}

int lattice(std::mt19937_64& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

Scene random_soup(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"random_soup", {}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 center(uniform(random, -10, 10), uniform(random, -10, 10), uniform(random, -10, 10));
    for (int k = 0; k < 3; ++k)
      scene.positions.push_back(
          center + Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1)));
  }
  return scene;
}

Scene lattice_soup(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"lattice_soup", {}, {}};
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

Scene noisy_sphere(int rings, int segments, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"noisy_sphere", {}, {}};
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

Scene needles(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{"needles", {}, {}};
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 a(uniform(random, -4, 4), uniform(random, -4, 4), uniform(random, -4, 4));
    const Vec3 b(uniform(random, -4, 4), uniform(random, -4, 4), uniform(random, -4, 4));
    const Vec3 c = a + 1e-4f * Vec3(uniform(random, -1, 1), uniform(random, -1, 1), 0.0f);
    scene.positions.insert(scene.positions.end(), {a, b, c});
  }
  return scene;
}

Scene transformed(Scene scene, float scale, Vec3 offset, const std::string& suffix) {
  for (Vec3& p : scene.positions) p = p * scale + offset;
  scene.name += suffix;
  return scene;
}

Scene cube_sphere(const std::string& name, std::uint32_t n) {
  Scene scene{name, {}, {}};
  const std::uint64_t side = n + 1u;
  std::unordered_map<std::uint64_t, std::uint32_t> vertex_of;
  const auto vertex = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
    const std::uint64_t key = (i * side + j) * side + k;
    const auto [it, inserted] =
        vertex_of.try_emplace(key, static_cast<std::uint32_t>(scene.positions.size()));
    if (inserted) {
      const auto coordinate = [n](std::uint32_t c) {
        return 2.0f * static_cast<float>(c) / static_cast<float>(n) - 1.0f;
      };
      const Vec3 direction = glm::normalize(Vec3(coordinate(i), coordinate(j), coordinate(k)));
      scene.positions.push_back(direction * (5.0f * (1.0f + 0.02f * hash_unit(key))));
    }
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (std::uint32_t level : {0u, n})
      for (std::uint32_t u = 0; u < n; ++u)
        for (std::uint32_t v = 0; v < n; ++v) {
          const auto at = [&](std::uint32_t du, std::uint32_t dv) {
            std::uint32_t c[3];
            c[axis] = level;
            c[(axis + 1) % 3] = u + du;
            c[(axis + 2) % 3] = v + dv;
            return vertex(c[0], c[1], c[2]);
          };
          const std::uint32_t a = at(0, 0), b = at(1, 0), c = at(1, 1), d = at(0, 1);
          scene.indices.insert(scene.indices.end(), {a, b, c, a, c, d});
        }
  return scene;
}

Scene spaced_soup(const std::string& name, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{name, {}, {}};
  const float h = 20.0f / std::cbrt(static_cast<float>(count));
  scene.positions.reserve(3 * count);
  for (std::size_t i = 0; i < count; ++i) {
    const float x = uniform(random, -10, 10), y = uniform(random, -10, 10);
    const Vec3 center(x, y, uniform(random, -10, 10));
    for (int k = 0; k < 3; ++k) {
      const float dx = uniform(random, -h, h), dy = uniform(random, -h, h);
      scene.positions.push_back(center + Vec3(dx, dy, uniform(random, -h, h)));
    }
  }
  scene.indices.resize(3 * count);
  for (std::size_t i = 0; i < scene.indices.size(); ++i)
    scene.indices[i] = static_cast<std::uint32_t>(i);
  return scene;
}

Scene subdivided(const Scene& input, const std::string& name) {
  Scene scene{name, input.positions, {}};
  std::unordered_map<std::uint64_t, std::uint32_t> midpoint_of;
  const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    const auto [it, inserted] =
        midpoint_of.try_emplace(key, static_cast<std::uint32_t>(scene.positions.size()));
    if (inserted) scene.positions.push_back(0.5f * (scene.positions[a] + scene.positions[b]));
    return it->second;
  };
  scene.indices.reserve(4 * input.indices.size());
  for (std::size_t t = 0; t < input.size(); ++t) {
    const std::uint32_t a = input.indices[3 * t], b = input.indices[3 * t + 1],
                        c = input.indices[3 * t + 2];
    const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    scene.indices.insert(scene.indices.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
  }
  return scene;
}

}  // namespace trisect::scenes
