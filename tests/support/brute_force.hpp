#pragma once
/// \file
/// Brute-force answers of the touching queries: every triangle of a scene tested with the
/// library's predicates, which the predicate tests check against exact rational arithmetic.
/// (Rays have an exact oracle of their own: support/ray_brute_force.hpp.)

#include "support/scenes.hpp"

#include <trisect/geometry/aabb_triangle.hpp>
#include <trisect/geometry/plane_triangle.hpp>
#include <trisect/geometry/sphere_triangle.hpp>

#include <vector>

namespace trisect::testing {

/// The ids of every triangle of `scene` that touches `shape` (a box, plane or ball), ascending.
template <class Shape>
[[nodiscard]] std::vector<TriangleId> brute_force(const Scene& scene, const Shape& shape) {
  std::vector<TriangleId> ids;
  for (std::size_t id = 0; id < scene.size(); ++id)
    if (intersects(scene.soup().triangle(id), shape)) ids.push_back(static_cast<TriangleId>(id));
  return ids;
}

}  // namespace trisect::testing
