#pragma once
/// \file
/// Brute-force answers of the touching queries: every triangle of a scene tested with the
/// library's predicates, which the predicate tests check against exact rational arithmetic.
/// (Rays have an exact oracle of their own: support/ray_brute_force.hpp.)

#include "support/describe.hpp"
#include "support/scenes.hpp"

#include <trisect/geometry/aabb_triangle.hpp>
#include <trisect/geometry/plane_triangle.hpp>
#include <trisect/geometry/sphere_triangle.hpp>

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <span>
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

/// Requires every shape's answer on `bvh` (a tree over `scene`), alone and in one batch, to
/// equal brute force; returns how many ids the answers hold and how many answers are empty.
template <class Shape>
std::pair<std::size_t, std::size_t> require_brute_force_answers(const Bvh& bvh, const Scene& scene,
                                                                const std::vector<Shape>& shapes) {
  const std::vector<std::vector<TriangleId>> batch =
      collect_touching_batch(bvh, std::span<const Shape>(shapes));
  std::size_t found = 0, empty = 0;
  for (std::size_t q = 0; q < shapes.size(); ++q) {
    INFO("query " << q << ": " << describe(shapes[q]));
    const std::vector<TriangleId> expected = brute_force(scene, shapes[q]);
    REQUIRE(collect_touching(bvh, shapes[q]) == expected);
    REQUIRE(batch[q] == expected);
    found += expected.size();
    empty += expected.empty();
  }
  return {found, empty};
}

}  // namespace trisect::testing
