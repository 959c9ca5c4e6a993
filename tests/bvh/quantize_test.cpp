// The 8-bit child boxes of wide nodes (src/bvh/quantize.hpp, WideNode), white box: on random
// and extreme boxes every decoded box contains its given box however the decode is evaluated
// (a multiplication then an addition, or a fused multiply-add), every face is the tightest
// grid point that does, the grid's step is the smallest that spans the node, and the node's
// decoders (`face`, `face_row`, `ChildBoxes::of`) agree bit for bit.
#include "bvh/quantize.hpp"

#include <trisect/bvh/wide_node.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float largest = std::numeric_limits<float>::max();

// The decode with the product rounded on its own (the volatile keeps any compiler from
// fusing it into the addition).
float separate_decode(float origin, int q, float step) {
  volatile float product = float(q) * step;
  return origin + product;
}

float fused_decode(float origin, int q, float step) { return std::fma(float(q), step, origin); }

// A random float of either sign whose magnitude is 10^k for k uniform in [low, high].
float random_coordinate(std::mt19937_64& random, double low, double high) {
  const double exponent = std::uniform_real_distribution<double>(low, high)(random);
  const double sign = std::bernoulli_distribution(0.5)(random) ? 1.0 : -1.0;
  return static_cast<float>(
      std::clamp(sign * std::pow(10.0, exponent), -double(largest), double(largest)));
}

// Up to eight boxes of one of several shapes: random scales from subnormal to near FLT_MAX,
// points, boxes sharing faces, -0 against +0, and the whole float range.
std::vector<Aabb> random_children(std::mt19937_64& random, int trial) {
  const int count = 1 + trial % WideNode::width;
  std::vector<Aabb> boxes;
  for (int i = 0; i < count; ++i) {
    Vec3 a, b;
    for (int axis = 0; axis < 3; ++axis) {
      switch (trial % 5) {
        case 0:  // one scale per trial, anywhere from 1e-44 to 1e38
          a[axis] = random_coordinate(random, -44 + trial % 82, -44 + trial % 82 + 0.5);
          b[axis] = random_coordinate(random, -44 + trial % 82, -44 + trial % 82 + 0.5);
          break;
        case 1:  // mixed scales
          a[axis] = random_coordinate(random, -40, 38);
          b[axis] = random_coordinate(random, -40, 38);
          break;
        case 2:  // small integers: faces that lie on the grid, and points
          a[axis] = float(std::uniform_int_distribution<int>(-4, 4)(random));
          b[axis] = i % 3 == 0 ? a[axis] : float(std::uniform_int_distribution<int>(-4, 4)(random));
          break;
        case 3:  // the float range's ends, zeros of both signs
          a[axis] =
              std::array<float, 5>{-largest, largest, 0.0f, -0.0f,
                                   1e38f}[std::uniform_int_distribution<std::size_t>(0, 4)(random)];
          b[axis] = std::array<float, 5>{
              -largest, largest, -0.0f, 1e-45f,
              -3e38f}[std::uniform_int_distribution<std::size_t>(0, 4)(random)];
          break;
        default:  // one huge offset with small sizes
          a[axis] = 1e6f + random_coordinate(random, -3, 0);
          b[axis] = a[axis] + random_coordinate(random, -6, -1);
          break;
      }
    }
    boxes.push_back(Aabb::from_corners(a, b));
  }
  return boxes;
}

// Checks lane `lane`'s faces on `axis` of `node`, quantised from `box`.
void check_faces(const WideNode& node, int axis, int lane, const Aabb& box) {
  const float origin = node.origin[axis], step = node.step(axis);
  const int lower = node.faces[2 * axis][lane], upper = node.faces[2 * axis + 1][lane];
  INFO("axis " << axis << " lane " << lane << " box " << box.min[axis] << " .. " << box.max[axis]
               << " origin " << origin << " step " << step << " faces " << lower << ", " << upper);
  // Outward, both ways of decoding; a lower face's product is a float.
  CHECK(double(lower) * double(step) <= double(largest));
  CHECK(separate_decode(origin, lower, step) == fused_decode(origin, lower, step));
  CHECK(fused_decode(origin, lower, step) <= box.min[axis]);
  CHECK(fused_decode(origin, upper, step) >= box.max[axis]);
  CHECK(separate_decode(origin, upper, step) >= box.max[axis]);
  // Tightest: the next grid point inwards would not contain the box, or decodes to the same
  // float (grid steps below the origin's ulp round alike).
  if (lower < 255 && double(lower + 1) * double(step) <= double(largest)) {
    const float next = fused_decode(origin, lower + 1, step);
    CHECK((next > box.min[axis] || next == fused_decode(origin, lower, step)));
  }
  if (upper > 0) {
    const float next = fused_decode(origin, upper - 1, step);
    CHECK((next < box.max[axis] || next == fused_decode(origin, upper, step)));
  }
  // The node's decoders give these floats.
  CHECK(std::bit_cast<std::uint32_t>(node.face(2 * axis, lane)) ==
        std::bit_cast<std::uint32_t>(separate_decode(origin, lower, step)));
  CHECK(std::bit_cast<std::uint32_t>(node.face(2 * axis + 1, lane)) ==
        std::bit_cast<std::uint32_t>(separate_decode(origin, upper, step)));
}

// Checks the grid on `axis`: starts at the lowest face, steps as small as spans the highest.
void check_grid(const WideNode& node, int axis, const std::vector<Aabb>& boxes) {
  float low = boxes[0].min[axis], high = boxes[0].max[axis];
  for (const Aabb& box : boxes) {
    low = std::min(low, box.min[axis]);
    high = std::max(high, box.max[axis]);
  }
  const int exponent = int(node.exponent[axis]) - 127;
  INFO("axis " << axis << " from " << low << " to " << high << " exponent " << exponent);
  CHECK(node.origin[axis] == low);
  REQUIRE(exponent >= -126);
  REQUIRE(exponent <= 127);
  CHECK(node.step(axis) == std::ldexp(1.0f, exponent));
  CHECK(fused_decode(low, 255, node.step(axis)) >= high);
  if (exponent > -126) CHECK(fused_decode(low, 255, std::ldexp(1.0f, exponent - 1)) < high);
}

TEST_CASE("quantised child boxes hold their boxes, tightly, on the smallest grid", "[bvh]") {
  std::mt19937_64 random(2018);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::vector<Aabb> boxes = random_children(random, trial);
    const int count = static_cast<int>(boxes.size());
    INFO("trial " << trial << ", " << count << " boxes");
    WideNode node{};
    // The lanes past `count` hold other boxes, which must not change the node.
    Aabb lanes[WideNode::width];
    for (int i = 0; i < WideNode::width; ++i)
      lanes[i] = i < count ? boxes[std::size_t(i)] : Aabb{Vec3(float(-i)), Vec3(1e30f)};
    detail::quantize_children(node, lanes, count);
    CHECK(node.used_mask() == (1u << count) - 1);
    for (int axis = 0; axis < 3; ++axis) {
      check_grid(node, axis, boxes);
      for (int lane = 0; lane < count; ++lane)
        check_faces(node, axis, lane, boxes[std::size_t(lane)]);
      for (int lane = count; lane < WideNode::width; ++lane) {
        CHECK(node.faces[2 * axis][lane] == 0);
        CHECK(node.faces[2 * axis + 1][lane] == 0);
      }
    }
    // The four-lane and whole-node decoders agree with the scalar one, bit for bit.
    const ChildBoxes decoded = ChildBoxes::of(node);
    for (int row = 0; row < 6; ++row)
      for (int lane = 0; lane < WideNode::width; ++lane)
        CHECK(std::bit_cast<std::uint32_t>(decoded.bounds[row][lane]) ==
              std::bit_cast<std::uint32_t>(node.face(row, lane)));
  }
}

TEST_CASE("a decode summed in double rounds as the fused multiply-add does", "[bvh]") {
  // What src/bvh/quantize.cpp relies on: float(double(o) + double(q) * double(s)) equals
  // fma(q, s, o) for every face q in [0, 255], grid step s = 2^e and float origin o.
  std::mt19937_64 random(53);
  std::uniform_int_distribution<int> exponent(-126, 127), face(0, 255), bits_of(0, 0x7f7fffff);
  std::uniform_int_distribution<int> near_power(-30, 30);
  const auto check = [](float origin, int q, float step) {
    const float fused = std::fma(float(q), step, origin);
    const auto in_double = static_cast<float>(double(origin) + double(q) * double(step));
    INFO(origin << " + " << q << " * " << step);
    REQUIRE(std::bit_cast<std::uint32_t>(in_double) == std::bit_cast<std::uint32_t>(fused));
  };
  for (int i = 0; i < 2'000'000; ++i) {
    const float step = std::ldexp(1.0f, exponent(random));
    float origin = std::bit_cast<float>(static_cast<std::uint32_t>(bits_of(random)));
    if (i % 3 == 1)  // just below or above a power of two near the product
      origin = std::nextafter(
          std::ldexp(1.0f, std::clamp(std::ilogb(step) + near_power(random), -126, 127)), 0.0f);
    if (i % 2 == 0) origin = -origin;
    check(origin, face(random), step);
  }
}

}  // namespace
}  // namespace trisect::testing
