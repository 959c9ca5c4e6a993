#pragma once
// Seeded random boxes for the broadphase tests, including the awkward kinds: points, flat
// boxes, tiny and huge boxes, and many copies of one box.
#include <trisect/math/aabb.hpp>

#include <cstdint>
#include <random>

namespace trisect::testing {

/// A point uniform in [-half, half]^3.
inline Vec3 random_point(std::mt19937_64& random, float half) {
  std::uniform_real_distribution<float> coordinate(-half, half);
  return {coordinate(random), coordinate(random), coordinate(random)};
}

/// A box whose centre is uniform in [-side / 2, side / 2]^3 with half-extents 0.5..1.5.
inline Aabb random_box(std::mt19937_64& random, float side) {
  std::uniform_real_distribution<float> half_extent(0.5f, 1.5f);
  const Vec3 extents(half_extent(random), half_extent(random), half_extent(random));
  return Aabb::from_center_extents(random_point(random, 0.5f * side), extents);
}

/// A box of a random kind: ordinary, a point, flat on one axis, tiny (1e-6), huge (1e6), or
/// the one fixed box [0, 1]^3 (so that many proxies are identical).
inline Aabb random_awkward_box(std::mt19937_64& random, float side) {
  const int kind = std::uniform_int_distribution<int>(0, 9)(random);
  const Vec3 center = random_point(random, 0.5f * side);
  switch (kind) {
    case 0:
      return {center, center};
    case 1: {
      Aabb box = random_box(random, side);
      box.max.z = box.min.z;
      return box;
    }
    case 2:
      return Aabb::from_center_extents(center, Vec3(1e-6f));
    case 3:
      return Aabb::from_center_extents(center, Vec3(1e6f, 0.5f, 0.5f));
    case 4:
      return {Vec3(0.0f), Vec3(1.0f)};
    default:
      return random_box(random, side);
  }
}

}  // namespace trisect::testing
