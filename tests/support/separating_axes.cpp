#include "support/separating_axes.hpp"

#include "support/exact_oracle.hpp"

#include <algorithm>
#include <array>

namespace trisect::testing {

std::bitset<13> separating_axes(const Triangle& triangle, const Aabb& box) {
  using oracle::QVec3;
  const std::array<QVec3, 3> vertices = {oracle::rational(triangle.a), oracle::rational(triangle.b),
                                         oracle::rational(triangle.c)};
  const QVec3 low = oracle::rational(box.min), high = oracle::rational(box.max);
  std::array<QVec3, 8> corners;
  for (std::size_t corner = 0; corner < 8; ++corner)
    for (std::size_t i = 0; i < 3; ++i) corners[corner][i] = (corner >> i) & 1u ? high[i] : low[i];

  std::array<QVec3, 13> axes;
  for (std::size_t k = 0; k < 3; ++k) axes[k] = {k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? 1 : 0};
  axes[triangle_normal_axis] = oracle::cross(oracle::minus(vertices[1], vertices[0]),
                                             oracle::minus(vertices[2], vertices[0]));
  for (std::size_t edge = 0; edge < 3; ++edge)
    for (std::size_t k = 0; k < 3; ++k)
      axes[edge_axis(edge, k)] =
          oracle::cross(oracle::minus(vertices[(edge + 1) % 3], vertices[edge]), axes[k]);

  std::bitset<13> separating;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const QVec3& axis = axes[i];
    if (sgn(axis[0]) == 0 && sgn(axis[1]) == 0 && sgn(axis[2]) == 0) continue;
    const auto project = [&](const auto& points) {
      mpq_class lowest = oracle::dot(axis, points[0]), highest = lowest;
      for (const QVec3& p : points) {
        const mpq_class value = oracle::dot(axis, p);
        lowest = std::min(lowest, value);
        highest = std::max(highest, value);
      }
      return std::array<mpq_class, 2>{lowest, highest};
    };
    const auto t = project(vertices), b = project(corners);
    separating[i] = t[1] < b[0] || b[1] < t[0];
  }
  return separating;
}

}  // namespace trisect::testing
