#include "support/inside_oracle.hpp"

#include "support/nearest_oracle.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace trisect::oracle {
namespace {

/// A position as a map key: -0 turned into +0, so that keys compare as floats do.
std::array<float, 3> key_of(const Vec3& v) { return {v.x + 0.0f, v.y + 0.0f, v.z + 0.0f}; }

/// False when the slab test, in double with a wide margin, proves that the ray misses `box`.
bool may_hit(const Aabb& box, const Vec3& point, const Vec3& direction) {
  double enter = 0, exit = std::numeric_limits<double>::infinity();
  for (int axis = 0; axis < 3; ++axis) {
    if (direction[axis] == 0) {
      if (point[axis] < box.min[axis] || point[axis] > box.max[axis]) return false;
      continue;
    }
    const double d = direction[axis], p = point[axis];
    double t0 = (static_cast<double>(box.min[axis]) - p) / d;
    double t1 = (static_cast<double>(box.max[axis]) - p) / d;
    if (t0 > t1) std::swap(t0, t1);
    enter = std::max(enter, t0 - 1e-9 * std::fabs(t0) - 1e-300);
    exit = std::min(exit, t1 + 1e-9 * std::fabs(t1) + 1e-300);
  }
  return enter <= exit;
}

}  // namespace

std::vector<EdgeCount> edge_counts(const TriangleSoup& soup) {
  std::vector<EdgeCount> edges;
  std::map<std::array<std::array<float, 3>, 2>, std::size_t> index;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle t = soup.triangle(id);
    if (is_zero_area(t)) continue;
    const std::array<Vec3, 3> corners = {t.a, t.b, t.c};
    for (std::size_t k = 0; k < 3; ++k) {
      const Vec3 &from = corners[k], &to = corners[(k + 1) % 3];
      auto key = std::array{key_of(from), key_of(to)};
      if (key[1] < key[0]) std::swap(key[0], key[1]);
      const auto [it, inserted] = index.try_emplace(key, edges.size());
      if (inserted) edges.push_back({from, to, static_cast<TriangleId>(id), 0});
      ++edges[it->second].triangles;
    }
  }
  return edges;
}

bool same_edge(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  return (a0 == b0 && a1 == b1) || (a0 == b1 && a1 == b0);
}

bool on_surface(const TriangleSoup& soup, const Vec3& point) {
  const auto answer = nearest(soup, point, std::numeric_limits<float>::infinity());
  return answer && sgn(answer->squared) == 0;
}

std::optional<bool> ray_parity(const TriangleSoup& soup, const Vec3& point, const Vec3& direction) {
  const QVec3 p = rational(point), d = rational(direction);
  bool odd = false;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle t = soup.triangle(id);
    if (!may_hit(t.bounds(), point, direction)) continue;
    const std::array<QVec3, 3> v = {rational(t.a), rational(t.b), rational(t.c)};
    const QVec3 n = cross(minus(v[1], v[0]), minus(v[2], v[0]));
    if (sgn(n[0]) == 0 && sgn(n[1]) == 0 && sgn(n[2]) == 0) continue;  // zero area
    const mpq_class along = dot(d, n), offset = dot(minus(v[0], p), n);
    if (sgn(along) == 0) {
      if (sgn(offset) == 0) return std::nullopt;  // the ray lies in the triangle's plane
      continue;
    }
    const mpq_class t_hit = offset / along;
    if (sgn(t_hit) < 0) continue;
    QVec3 x;
    for (std::size_t i = 0; i < 3; ++i) x[i] = p[i] + t_hit * d[i];
    int positive = 0, negative = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const int s = sgn(dot(n, cross(minus(v[(k + 1) % 3], v[k]), minus(x, v[k]))));
      positive += s > 0;
      negative += s < 0;
    }
    if (positive > 0 && negative > 0) continue;  // outside the triangle
    if (positive == 3 || negative == 3) {        // strictly inside
      if (sgn(t_hit) == 0) return std::nullopt;  // starts on the triangle
      odd = !odd;
      continue;
    }
    return std::nullopt;  // touches an edge or a vertex (or starts on one)
  }
  return odd;
}

PointSide convex_side(const TriangleSoup& soup, const QVec3& interior, const Vec3& point) {
  const QVec3 p = rational(point);
  bool on_plane = false;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle t = soup.triangle(id);
    const QVec3 a = rational(t.a);
    QVec3 n = cross(minus(rational(t.b), a), minus(rational(t.c), a));
    if (sgn(n[0]) == 0 && sgn(n[1]) == 0 && sgn(n[2]) == 0) continue;
    const int inner = sgn(dot(minus(interior, a), n));
    const int s = sgn(dot(minus(p, a), n)) * -inner;  // > 0: beyond the face, outward
    if (s > 0) return PointSide::outside;
    on_plane |= s == 0;
  }
  return on_plane ? PointSide::surface : PointSide::inside;
}

PointSide even_odd(std::span<const PointSide> sides) {
  if (std::find(sides.begin(), sides.end(), PointSide::surface) != sides.end())
    return PointSide::surface;
  const auto insides = std::count(sides.begin(), sides.end(), PointSide::inside);
  return insides % 2 == 1 ? PointSide::inside : PointSide::outside;
}

}  // namespace trisect::oracle
