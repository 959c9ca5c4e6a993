#include "support/inside_trap.hpp"

#include "support/inside_oracle.hpp"

#include <cstdint>
#include <cstdio>

namespace trisect::testing {
namespace {

/// SplitMix64 (Steele, Lea & Flood, 2014): the k-th number of the sequence the retries used,
/// as a float in [-1, 1).
float splitmix_float(std::uint64_t k) {
  std::uint64_t z = 0x9E3779B97F4A7C15u * (k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  return static_cast<float>(static_cast<double>(z >> 40) * 0x1p-23 - 1.0);
}

std::string coordinates_text(const Vec3& v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g %.9g %.9g", double(v.x), double(v.y), double(v.z));
  return text;
}

}  // namespace

ConvexShell box_shell(const Vec3& min, const Vec3& max) {
  oracle::QVec3 center;
  for (std::size_t i = 0; i < 3; ++i) {
    const int axis = static_cast<int>(i);
    center[i] = (oracle::rational(min[axis]) + oracle::rational(max[axis])) / 2;
  }
  return {box_mesh(min, max), center};
}

ConvexShell tetrahedron_shell(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  oracle::QVec3 centroid;
  for (std::size_t i = 0; i < 3; ++i) {
    centroid[i] = 0;
    for (const Vec3& p : {a, b, c, d}) centroid[i] += oracle::rational(p[static_cast<int>(i)]) / 4;
  }
  return {tetrahedron_mesh(a, b, c, d), centroid};
}

PointSide shells_side(std::span<const ConvexShell> shells, const Vec3& point) {
  std::vector<PointSide> each;
  for (const ConvexShell& shell : shells)
    each.push_back(oracle::convex_side(shell.scene.soup(), shell.interior, point));
  return oracle::even_odd(each);
}

Scene merged_shells(std::span<const ConvexShell> shells, const std::string& name) {
  std::vector<Scene> scenes;
  for (const ConvexShell& shell : shells) scenes.push_back(shell.scene);
  return merged(scenes, name);
}

std::vector<Vec3> retired_inside_directions() {
  std::vector<Vec3> directions;
  for (std::uint64_t k = 0; k < 1000; ++k)
    directions.emplace_back(-1.0f, 0.0625f * splitmix_float(2 * k),
                            0.0625f * splitmix_float(2 * k + 1));
  return directions;
}

std::vector<ConvexShell> inside_trap(bool nested) {
  std::vector<ConvexShell> shells = {box_shell(Vec3(-8.0f), Vec3(8.0f))};
  if (nested) shells.push_back(box_shell(Vec3(-2.0f), Vec3(2.0f)));
  constexpr float h = 0x1p-10f;
  for (const Vec3& d : retired_inside_directions()) {
    const Vec3 apex = 4.0f * d;  // exact: a power of two times floats
    shells.push_back(tetrahedron_shell(apex, apex + Vec3(-h, h, 0), apex + Vec3(-h, -h, h),
                                       apex + Vec3(-h, -h, -h)));
  }
  return shells;
}

std::string obj_text(const Scene& scene) {
  std::string text;
  for (std::size_t id = 0; id < scene.size(); ++id) {
    const Triangle t = scene.triangle(id);
    for (const Vec3& v : {t.a, t.b, t.c}) text += "v " + coordinates_text(v) + "\n";
  }
  for (std::size_t id = 0; id < scene.size(); ++id)
    text += "f " + std::to_string(3 * id + 1) + " " + std::to_string(3 * id + 2) + " " +
            std::to_string(3 * id + 3) + "\n";
  return text;
}

}  // namespace trisect::testing
