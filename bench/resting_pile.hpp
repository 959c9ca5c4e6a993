#pragma once
// The broadphase benchmark's resting world: 22,000 unit cubes settled in a stack on a floor,
// every box shaken each frame by the tiny residual motion a solver leaves.
//
// Layout: 10 layers of 40 rows of 55 cubes (side 1), laid in brick bond: along a row the cubes'
// centres are 1.01 apart (0.01 between neighbours, which do not touch), rows are 1.01 apart,
// and every other layer is shifted by half a pitch along the rows, so that each cube rests on
// two of the layer below (the bottom layer on the floor, box 0, a static slab under the whole
// stack) and carries two of the layer above. Each resting contact is 0.005 deep (the
// penetration a solver's slop leaves, Bullet's and Box2D's linear slop), so the contacts hold
// while the boxes jitter: 41,440 overlapping pairs (9 layers on layers, 4,360 each, and 2,200
// cubes on the floor), the same in every frame.
//
// Jitter: each frame every cube's centre is its rest position plus an offset whose components
// lie in [-0.001, 0.001], well inside any fat box's margin. The offsets come from a table of
// 65536 drawn once; frame f gives cube i entry (i + 40503 f) mod 65536, so a frame costs a pass
// over the boxes rather than three random draws per box (advance() is inside the timed frame).
// The displacement a cube is moved with is its offset now minus its offset before.
#include <trisect/math/aabb.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace bench {

class RestingPile {
 public:
  static constexpr std::size_t columns = 55, rows = 40, layers = 10;
  static constexpr float pitch = 1.01f;    // centre spacing within a layer
  static constexpr float slop = 0.005f;    // depth of each resting contact
  static constexpr float jitter = 0.001f;  // largest offset per axis

  std::vector<std::uint32_t> movers;  // every cube (box 0, the floor, stays)

  explicit RestingPile(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> offset(-jitter, jitter);
    for (trisect::Vec3& entry : offsets_) entry = {offset(random), offset(random), offset(random)};
    add_floor();
    for (std::size_t layer = 0; layer < layers; ++layer)
      for (std::size_t row = 0; row < rows; ++row)
        for (std::size_t column = 0; column < columns; ++column) add_cube(layer, row, column);
    for (const std::uint32_t i : movers) centers_[i] = rest_[i] + offset_of(i);
  }

  [[nodiscard]] std::size_t size() const { return centers_.size(); }

  [[nodiscard]] trisect::Aabb box(std::size_t i) const {
    return trisect::Aabb::from_center_extents(centers_[i], extents_[i]);
  }

  /// The floor is static; the cubes are dynamic.
  [[nodiscard]] static bool is_static(std::size_t i) { return i == 0; }

  /// Cube i's motion in the last frame.
  [[nodiscard]] const trisect::Vec3& displacement(std::size_t i) const { return displacements_[i]; }

  /// One frame: every cube to its rest position plus the frame's offset.
  void advance() {
    ++frame_;
    for (const std::uint32_t i : movers) {
      const trisect::Vec3 next = rest_[i] + offset_of(i);
      displacements_[i] = next - centers_[i];
      centers_[i] = next;
    }
  }

 private:
  static constexpr std::size_t table_size = 65536;  // a power of two
  static constexpr std::size_t frame_stride = 40503;

  // A slab whose top face is z = 0, reaching a pitch beyond the stack on every side.
  void add_floor() {
    const trisect::Vec3 low(-pitch, -pitch, -1.0f);
    const trisect::Vec3 high((columns + 1) * pitch, rows * pitch, 0.0f);
    add_box(0.5f * (low + high), 0.5f * (high - low));
  }

  void add_cube(std::size_t layer, std::size_t row, std::size_t column) {
    const float shift = layer % 2 == 0 ? 0.0f : 0.5f;
    const trisect::Vec3 rest((float(column) + shift) * pitch, float(row) * pitch,
                             0.5f - slop + float(layer) * (1.0f - slop));
    movers.push_back(static_cast<std::uint32_t>(size()));
    add_box(rest, trisect::Vec3(0.5f));
  }

  void add_box(const trisect::Vec3& rest, const trisect::Vec3& extents) {
    rest_.push_back(rest);
    centers_.push_back(rest);
    extents_.push_back(extents);
    displacements_.emplace_back(0.0f);
  }

  [[nodiscard]] const trisect::Vec3& offset_of(std::size_t i) const {
    return offsets_[(i + frame_ * frame_stride) % table_size];
  }

  std::vector<trisect::Vec3> rest_, centers_, extents_, displacements_;
  std::vector<trisect::Vec3> offsets_ = std::vector<trisect::Vec3>(table_size);
  std::size_t frame_ = 0;
};

}  // namespace bench
