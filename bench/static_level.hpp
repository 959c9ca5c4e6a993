#pragma once
// The broadphase benchmark's large level: 1,000,000 static boxes and 1,000 bodies moving
// through them.
//
// The level: unit cubes on a 100 × 100 × 100 lattice of pitch 2 (1 between neighbours, which
// never pair: two static proxies do not), filling the cube [-100, 100]^3. The bodies: the movers
// of bench/moving_boxes.hpp (half-extents 0.5..1.5 per axis, velocities up to 0.05 per axis per
// frame, bouncing off the walls) in the same cube. A body of half-extents e meets a cube of the
// lattice when their centres are within e + 0.5 per axis, so it overlaps on average
// prod over the axes of E[2 (e + 0.5) / 2] = 1.5^3, about 3.4 cubes; two bodies rarely meet.
// Boxes 0 .. 999,999 are the level (static), the bodies follow.
#include "moving_boxes.hpp"

#include <trisect/math/aabb.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

class StaticLevel {
 public:
  static constexpr std::size_t side = 100;  // lattice cubes per axis
  static constexpr std::size_t static_count = side * side * side;
  static constexpr float pitch = 2.0f;
  static constexpr float half_side = 0.5f * pitch * side;

  std::vector<std::uint32_t> movers;  // the bodies' ids: static_count, static_count + 1, ...

  StaticLevel(std::size_t body_count, std::uint64_t seed)
      : bodies_(body_count, 1, seed, half_side) {
    for (const std::uint32_t k : bodies_.movers)
      movers.push_back(static_cast<std::uint32_t>(static_count + k));
  }

  [[nodiscard]] std::size_t size() const { return static_count + bodies_.size(); }

  [[nodiscard]] trisect::Aabb box(std::size_t i) const {
    return i < static_count ? lattice_box(i) : bodies_.box(i - static_count);
  }

  [[nodiscard]] static bool is_static(std::size_t i) { return i < static_count; }

  /// Body i's motion in the last frame.
  [[nodiscard]] const trisect::Vec3& displacement(std::size_t i) const {
    return bodies_.displacement(i - static_count);
  }

  void advance() { bodies_.advance(); }

 private:
  // The unit cube at lattice point i (x fastest).
  static trisect::Aabb lattice_box(std::size_t i) {
    const auto coordinate = [](std::size_t index) {
      return -half_side + pitch * (float(index) + 0.5f);
    };
    const trisect::Vec3 center(coordinate(i % side), coordinate(i / side % side),
                               coordinate(i / (side * side)));
    return trisect::Aabb::from_center_extents(center, trisect::Vec3(0.5f));
  }

  MovingBoxes bodies_;
};

}  // namespace bench
