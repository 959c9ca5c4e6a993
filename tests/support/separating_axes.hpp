#pragma once
/// \file
/// Which of the 13 separating-axis-test axes separate a triangle from a box, exactly; used to
/// prove that hand-made cases isolate one axis class.

#include <trisect/math/aabb.hpp>
#include <trisect/math/triangle.hpp>

#include <bitset>
#include <cstddef>

namespace trisect::testing {

/// Axis numbering: 0, 1, 2 the box normals x, y, z; 3 the triangle normal (b - a) × (c - a);
/// 4 + 3·edge + k the cross product of triangle edge `edge` (0: a→b, 1: b→c, 2: c→a) with unit
/// axis k.
inline constexpr std::size_t triangle_normal_axis = 3;
[[nodiscard]] constexpr std::size_t edge_axis(std::size_t edge, std::size_t k) {
  return 4 + 3 * edge + k;
}

/// Bit i is set when axis i is non-zero and the exact projections of the closed triangle and
/// the closed box onto it are disjoint intervals.
[[nodiscard]] std::bitset<13> separating_axes(const Triangle& triangle, const Aabb& box);

}  // namespace trisect::testing
