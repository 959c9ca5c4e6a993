#include "quantize.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace trisect::detail {
namespace {

// Grid steps are normal floats, so that a step's bit pattern is its biased exponent alone.
constexpr int lowest_exponent = -126;
constexpr int highest_exponent = 127;
constexpr int largest_face = 255;

// 2^exponent for a normal exponent, built from its bits as `WideNode::step` decodes it
// (std::ldexp is a library call, and the builder asks for millions of steps).
float power_of_two(int exponent) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(exponent + 127) << 23);
}

// Face value q on a grid, rounded once: what a fused multiply-add gives, and also what a
// multiplication then an addition give whenever q * step is a float (see `product_fits`).
//
// Evaluated in double, which gives the fused multiply-add's float without a call to fmaf (there
// is no fused instruction at the baseline instruction set): q * step is exact (8 bits times a
// power of two), and the double sum is exact when the operands' bits span at most 53 places.
// When they span more, the smaller one is below 2^-21 of the larger, and rounding the sum to
// double moves it by less than 2^-53 of itself: a float rounding midpoint that close to it
// would need the sum to span at most 50 places, which it does not, so both round alike
// (tests/bvh/quantize_test.cpp compares the two over random and extreme operands).
float decoded(int q, float step, float origin) {
  return static_cast<float>(double(origin) + double(q) * double(step));
}

// True when q * step is a float, so that every evaluation of the decode gives `decoded`.
bool product_fits(int q, float step) {
  return double(q) * double(step) <= double(std::numeric_limits<float>::max());
}

// The smallest exponent whose grid from `low` reaches `high` in 255 steps, once decoded.
// 2^127 always does: 255 * 2^127 + low rounds to +inf for any finite low.
int grid_exponent(float low, float high) {
  int exponent = lowest_exponent;
  const double extent = double(high) - double(low);
  if (extent > 0) {
    // extent / 255 < 2^above (the exponent std::frexp gives, read from the bits of a normal
    // double without a library call); start two below, in case the division rounded.
    const auto bits = std::bit_cast<std::uint64_t>(extent / largest_face);
    const int above = static_cast<int>((bits >> 52) & 0x7ff) - 1022;
    exponent = std::clamp(above - 2, lowest_exponent, highest_exponent);
  }
  while (exponent < highest_exponent && decoded(largest_face, power_of_two(exponent), low) < high)
    ++exponent;
  return exponent;
}

// `value` - `origin` in steps, clamped to 0..255 and rounded down (`up` false) or up to an
// integer. The step is a power of two, so multiplying by its inverse is the exact division;
// after the clamp a conversion truncates as std::floor would, without a library call.
int estimate(float value, float step, float origin, bool up) {
  const double steps = std::clamp((double(value) - double(origin)) * (1.0 / double(step)), 0.0,
                                  double(largest_face));
  const int down = static_cast<int>(steps);
  return up && double(down) < steps ? down + 1 : down;
}

// The largest face whose decoded value is <= `value` (origin <= value) and whose product
// fits, so that no evaluation of the decode can overflow on a lower face.
int lower_face(float value, float step, float origin) {
  int q = std::min(estimate(value, step, origin, false) + 1, largest_face);
  while (q > 0 && !(product_fits(q, step) && decoded(q, step, origin) <= value)) --q;
  return q;
}

// The smallest face whose decoded value is >= `value`; one exists, as the grid's 255th
// point reaches the highest face. Where its product does not fit (a span beyond 3.4e38), a
// multiplication then an addition decode it to +inf, which is higher still.
int upper_face(float value, float step, float origin) {
  int q = std::max(estimate(value, step, origin, true) - 1, 0);
  while (q < largest_face && decoded(q, step, origin) < value) ++q;
  return q;
}

}  // namespace

void quantize_children(WideNode& node, const Aabb* boxes, int count) {
  node.used = static_cast<std::uint8_t>((1u << count) - 1);
  for (int axis = 0; axis < 3; ++axis) {
    float low = boxes[0].min[axis], high = boxes[0].max[axis];
    for (int i = 1; i < count; ++i) {
      low = std::min(low, boxes[i].min[axis]);
      high = std::max(high, boxes[i].max[axis]);
    }
    const int exponent = grid_exponent(low, high);
    const float step = power_of_two(exponent);
    node.origin[axis] = low;
    node.exponent[axis] = static_cast<std::uint8_t>(exponent + 127);
    for (int i = 0; i < WideNode::width; ++i) {
      const bool used = i < count;
      node.faces[2 * axis][i] =
          static_cast<std::uint8_t>(used ? lower_face(boxes[i].min[axis], step, low) : 0);
      node.faces[2 * axis + 1][i] =
          static_cast<std::uint8_t>(used ? upper_face(boxes[i].max[axis], step, low) : 0);
    }
  }
}

}  // namespace trisect::detail
