#pragma once
// The broadphase benchmark's scenario: random boxes with half-extents 0.5..1.5 in a cube whose
// side makes each box overlap about two others, moving at a constant small velocity and
// bouncing off the cube's walls.
//
// Overlap count: two boxes overlap when their centres are within the sum s of their
// half-extents on every axis, which for uniform centres in a cube of side L has probability
// about (2s/L)^3 per axis triple. With half-extents uniform in [0.5, 1.5], E[s^3] = 9, so
// each box overlaps about (n - 1) * 72 / L^3 others: L = cbrt(36 n) gives two.
// Velocities: each component uniform in [-0.05, 0.05] per frame (3 m/s at 60 Hz for boxes of
// about a metre). A larger cube can be given (the movers of bench/static_level.hpp).
//
// Like every scenario of bench/broadphase.cpp, it has size(), box(i), is_static(i), the movers,
// displacement(i) (a mover's motion in the last frame) and advance().
#include <trisect/math/aabb.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace bench {

struct MovingBoxes {
  std::vector<trisect::Vec3> centers, extents, velocities;
  std::vector<std::uint32_t> movers;  // the boxes that move (all, or every tenth)
  float half_side = 0;

  /// `count` boxes, of which every `move_every`-th moves, in the cube that gives each box about
  /// two overlaps.
  MovingBoxes(std::size_t count, std::size_t move_every, std::uint64_t seed)
      : MovingBoxes(count, move_every, seed, 0.5f * std::cbrt(36.0f * static_cast<float>(count))) {}

  /// The same in the cube [-cube_half_side, cube_half_side]^3.
  MovingBoxes(std::size_t count, std::size_t move_every, std::uint64_t seed, float cube_half_side)
      : half_side(cube_half_side) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> half_extent(0.5f, 1.5f), speed(-0.05f, 0.05f);
    for (std::size_t i = 0; i < count; ++i) {
      const trisect::Vec3 extent(half_extent(random), half_extent(random), half_extent(random));
      trisect::Vec3 center;
      for (int axis = 0; axis < 3; ++axis)
        center[axis] = std::uniform_real_distribution<float>(-half_side + extent[axis],
                                                             half_side - extent[axis])(random);
      extents.push_back(extent);
      centers.push_back(center);
      velocities.emplace_back(speed(random), speed(random), speed(random));
      if (i % move_every == 0) movers.push_back(static_cast<std::uint32_t>(i));
    }
  }

  [[nodiscard]] std::size_t size() const { return centers.size(); }

  [[nodiscard]] trisect::Aabb box(std::size_t i) const {
    return trisect::Aabb::from_center_extents(centers[i], extents[i]);
  }

  /// Every box is dynamic.
  [[nodiscard]] static bool is_static(std::size_t) { return false; }

  /// Mover i's motion in the last frame: its velocity.
  [[nodiscard]] const trisect::Vec3& displacement(std::size_t i) const { return velocities[i]; }

  /// One frame: every mover steps by its velocity, reversing it at a wall.
  void advance() {
    for (const std::uint32_t i : movers) {
      trisect::Vec3 next = centers[i] + velocities[i];
      for (int axis = 0; axis < 3; ++axis)
        if (std::abs(next[axis]) + extents[i][axis] > half_side) {
          velocities[i][axis] = -velocities[i][axis];
          next[axis] = centers[i][axis] + velocities[i][axis];
        }
      centers[i] = next;
    }
  }
};

}  // namespace bench
