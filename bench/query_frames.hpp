#pragma once
// The scenario of the broadphase's scene queries: the 100k boxes of bench/moving_boxes.hpp at
// rest (they do not move: the benchmark times the queries alone), and per frame a batch of 1000
// queries of one kind, boxes (`trisect::Aabb`) or segments (`bench::Segment`).
//
// Boxes: centres uniform in the scene's cube, half-extents uniform in [0.5, 2.5] per axis (a
// body's size, 0.5..1.5, or somewhat larger). Segments: origins uniform in the cube, directions
// uniform on the sphere, lengths uniform in [20, 40]. The batches are drawn once, 64 of them,
// and the frames cycle through them: advance() (inside the timed frame) only moves on.
#include "moving_boxes.hpp"
#include "segment.hpp"

#include <trisect/math/aabb.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace bench {

namespace detail {
inline trisect::Vec3 uniform_in_cube(std::mt19937_64& random, float half_side) {
  std::uniform_real_distribution<float> coordinate(-half_side, half_side);
  return {coordinate(random), coordinate(random), coordinate(random)};
}

inline void draw(std::mt19937_64& random, float half_side, trisect::Aabb& box) {
  std::uniform_real_distribution<float> extent(0.5f, 2.5f);
  const trisect::Vec3 center = uniform_in_cube(random, half_side);
  box = trisect::Aabb::from_center_extents(
      center, trisect::Vec3(extent(random), extent(random), extent(random)));
}

inline void draw(std::mt19937_64& random, float half_side, Segment& segment) {
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> length(20.0f, 40.0f);
  segment.origin = uniform_in_cube(random, half_side);
  trisect::Vec3 direction(0.0f);
  while (direction == trisect::Vec3(0.0f))
    direction = trisect::Vec3(normal(random), normal(random), normal(random));
  const float norm =
      std::sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
  segment.direction = direction * (length(random) / norm);
}
}  // namespace detail

template <class Query>
class QueryFrames {
 public:
  static constexpr std::size_t batches = 64;

  MovingBoxes scene;  // the boxes queried, at rest

  QueryFrames(std::size_t box_count, std::size_t per_batch, std::uint64_t seed)
      : scene(box_count, 1, seed), per_batch_(per_batch), queries_(batches * per_batch) {
    std::mt19937_64 random(seed + 1);
    for (Query& query : queries_) detail::draw(random, scene.half_side, query);
  }

  /// The queries of this frame.
  [[nodiscard]] std::span<const Query> batch() const {
    return std::span<const Query>(queries_).subspan(batch_ * per_batch_, per_batch_);
  }

  [[nodiscard]] std::size_t per_batch() const { return per_batch_; }

  void advance() { batch_ = (batch_ + 1) % batches; }

 private:
  std::size_t per_batch_;
  std::vector<Query> queries_;
  std::size_t batch_ = 0;
};

}  // namespace bench
