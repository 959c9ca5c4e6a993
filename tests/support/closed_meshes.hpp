#pragma once
/// \file
/// Small closed polyhedra with float vertices whose inside is known exactly (convex shapes:
/// strictly inside every face plane), and ways to combine and damage them, for the inside and
/// mesh distance tests. Every scene is a plain soup (3 positions per triangle).

#include "support/scenes.hpp"

#include <array>
#include <span>
#include <string>

namespace trisect::testing {

/// The closed box [min, max] as 12 triangles, counter-clockwise seen from outside.
[[nodiscard]] Scene box_mesh(const Vec3& min, const Vec3& max, const std::string& name = "box");

/// The convex octahedron with one vertex on each half-axis through `center`: at center -
/// reach[0] x, center + reach[1] x, then -y, +y, -z, +z (each reach > 0); 8 triangles.
[[nodiscard]] Scene octahedron_mesh(const Vec3& center, const std::array<float, 6>& reach);

/// The tetrahedron on four points in general position; 4 triangles.
[[nodiscard]] Scene tetrahedron_mesh(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// The triangles of every scene, one after the other (ids offset accordingly).
[[nodiscard]] Scene merged(std::span<const Scene> scenes, const std::string& name);

/// `scene` with every `period`-th triangle (starting with triangle `first`) turned over
/// (vertices b and c swapped): the same set, another orientation.
[[nodiscard]] Scene flipped(Scene scene, std::size_t first, std::size_t period);

/// `scene` without triangle `id`.
[[nodiscard]] Scene without(Scene scene, std::size_t id);

/// `scene` with one more triangle at the end.
[[nodiscard]] Scene with_triangle(Scene scene, const Triangle& triangle);

}  // namespace trisect::testing
