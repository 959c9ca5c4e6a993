#include "support/cast_oracle.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace trisect::oracle {

std::optional<mpq_class> first_contact(const Triangle& triangle, const OrientedBox& box,
                                       const Vec3& motion) {
  const QVec3 e[3] = {rational(box.axes[0]), rational(box.axes[1]), rational(box.axes[2])};
  const QVec3 p[3] = {rational(triangle.a), rational(triangle.b), rational(triangle.c)};
  const QVec3 c = rational(box.center), v = rational(motion);
  std::vector<QVec3> axes = {cross(e[1], e[2]), cross(e[2], e[0]), cross(e[0], e[1]),
                             cross(minus(p[1], p[0]), minus(p[2], p[0]))};
  for (const QVec3& axis : e)
    for (int k = 0; k < 3; ++k) axes.push_back(cross(axis, minus(p[(k + 1) % 3], p[k])));
  mpq_class earliest = 0, latest = 1;
  for (const QVec3& l : axes) {
    mpq_class reach = 0;
    for (int m = 0; m < 3; ++m)
      reach += rational(box.half_extents[m]) * abs(mpq_class(dot(l, e[m])));
    mpq_class low = dot(l, minus(p[0], c)), high = low;
    for (int k = 1; k < 3; ++k) {
      const mpq_class x = dot(l, minus(p[k], c));
      low = std::min(low, x);
      high = std::max(high, x);
    }
    low -= reach;
    high += reach;
    const mpq_class speed = dot(l, v);
    if (sgn(speed) == 0) {
      if (sgn(low) > 0 || sgn(high) < 0) return std::nullopt;
      continue;
    }
    const mpq_class a = low / speed, b = high / speed;
    earliest = std::max(earliest, mpq_class(std::min(a, b)));
    latest = std::min(latest, mpq_class(std::max(a, b)));
  }
  if (earliest > latest) return std::nullopt;
  return earliest;
}

bool touches_moved(const Triangle& triangle, const OrientedBox& box, const Vec3& motion,
                   const mpq_class& t) {
  const QVec3 c = rational(box.center), v = rational(motion);
  return touches_box_at(triangle, box, {c[0] + t * v[0], c[1] + t * v[1], c[2] + t * v[2]});
}

float nearest_float(const mpq_class& q) {
  float f = static_cast<float>(q.get_d());
  const float inf = std::numeric_limits<float>::infinity();
  const auto odd = [](float x) { return (std::bit_cast<std::uint32_t>(x) & 1u) != 0; };
  for (;;) {
    const float up = std::nextafter(f, inf), down = std::nextafter(f, -inf);
    const int above = cmp(q, (mpq_class(double(f)) + mpq_class(double(up))) / 2);
    const int below = cmp(q, (mpq_class(double(f)) + mpq_class(double(down))) / 2);
    if (above > 0 || (above == 0 && odd(f)))
      f = up;
    else if (below < 0 || (below == 0 && odd(f)))
      f = down;
    else
      return f;
  }
}

}  // namespace trisect::oracle
