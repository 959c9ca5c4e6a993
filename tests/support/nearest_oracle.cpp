#include "support/nearest_oracle.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace trisect::oracle {
namespace {

QVec3 plus_scaled(const QVec3& p, const mpq_class& t, const QVec3& v) {
  return {p[0] + t * v[0], p[1] + t * v[1], p[2] + t * v[2]};
}

bool is_zero(const QVec3& v) { return sgn(v[0]) == 0 && sgn(v[1]) == 0 && sgn(v[2]) == 0; }

mpq_class squared_between(const QVec3& p, const QVec3& q) { return squared_length(minus(p, q)); }

/// A lower bound, in double with a wide margin, of the squared distance between two boxes
/// (`point` boxes included). Float differences in double err by a relative 2^-53 at most.
double box_gap_lower_bound(const Aabb& first, const Aabb& second) {
  double sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    double gap = 0;
    if (first.max[axis] < second.min[axis])
      gap = static_cast<double>(second.min[axis]) - static_cast<double>(first.max[axis]);
    else if (second.max[axis] < first.min[axis])
      gap = static_cast<double>(first.min[axis]) - static_cast<double>(second.max[axis]);
    sum += gap * gap;
  }
  return sum * (1 - 1e-9);
}

/// True when a box lower bound proves a candidate strictly farther than `best`.
bool certainly_farther(double lower_bound, const mpq_class& best) {
  return lower_bound > best.get_d() * (1 + 1e-9) + std::numeric_limits<double>::denorm_min();
}

}  // namespace

mpq_class squared_length(const QVec3& v) { return dot(v, v); }

bool is_zero_area(const Triangle& t) {
  const QVec3 a = rational(t.a);
  return is_zero(cross(minus(rational(t.b), a), minus(rational(t.c), a)));
}

QVec3 nearest_on_segment(const QVec3& p, const QVec3& u, const QVec3& v) {
  const QVec3 edge = minus(v, u);
  const mpq_class length = squared_length(edge);
  if (sgn(length) == 0) return u;
  const mpq_class t =
      std::clamp(mpq_class(dot(minus(p, u), edge) / length), mpq_class(0), mpq_class(1));
  return plus_scaled(u, t, edge);
}

QVec3 nearest_point(const Triangle& triangle, const Vec3& point) {
  const QVec3 p = rational(point), a = rational(triangle.a), b = rational(triangle.b),
              c = rational(triangle.c);
  if (is_zero_area(triangle)) {
    QVec3 best = nearest_on_segment(p, a, b);
    for (const QVec3& candidate : {nearest_on_segment(p, b, c), nearest_on_segment(p, c, a)})
      if (squared_between(candidate, p) < squared_between(best, p)) best = candidate;
    return best;
  }
  const QVec3 ab = minus(b, a), ac = minus(c, a), ap = minus(p, a);
  const mpq_class d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (sgn(d1) <= 0 && sgn(d2) <= 0) return a;
  const QVec3 bp = minus(p, b);
  const mpq_class d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (sgn(d3) >= 0 && d4 <= d3) return b;
  const mpq_class vc = d1 * d4 - d3 * d2;
  if (sgn(vc) <= 0 && sgn(d1) >= 0 && sgn(d3) <= 0) return plus_scaled(a, d1 / (d1 - d3), ab);
  const QVec3 cp = minus(p, c);
  const mpq_class d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (sgn(d6) >= 0 && d5 <= d6) return c;
  const mpq_class vb = d5 * d2 - d1 * d6;
  if (sgn(vb) <= 0 && sgn(d2) >= 0 && sgn(d6) <= 0) return plus_scaled(a, d2 / (d2 - d6), ac);
  const mpq_class va = d3 * d6 - d5 * d4;
  const mpq_class along_bc = d4 - d3, along_cb = d5 - d6;
  if (sgn(va) <= 0 && sgn(along_bc) >= 0 && sgn(along_cb) >= 0)
    return plus_scaled(b, along_bc / (along_bc + along_cb), minus(c, b));
  const mpq_class sum = va + vb + vc;
  return plus_scaled(plus_scaled(a, vb / sum, ab), vc / sum, ac);
}

mpq_class segment_squared_distance(const QVec3& p0, const QVec3& p1, const QVec3& q0,
                                   const QVec3& q1) {
  mpq_class best = squared_between(p0, nearest_on_segment(p0, q0, q1));
  for (const auto& [point, u, v] :
       {std::array{p1, q0, q1}, std::array{q0, p0, p1}, std::array{q1, p0, p1}})
    best = std::min(best, squared_between(point, nearest_on_segment(point, u, v)));
  // Interior to interior: the unique pair of mutually nearest points of two non-parallel lines,
  // p0 + s d1 and q0 + t d2, solving the 2x2 normal equations by Cramer's rule.
  const QVec3 d1 = minus(p1, p0), d2 = minus(q1, q0), r = minus(p0, q0);
  const mpq_class a = dot(d1, d1), b = dot(d1, d2), e = dot(d2, d2);
  const mpq_class c = dot(d1, r), f = dot(d2, r);
  const mpq_class determinant = a * e - b * b;
  if (sgn(determinant) == 0) return best;
  const mpq_class s = (b * f - c * e) / determinant, t = (a * f - b * c) / determinant;
  if (sgn(s) >= 0 && s <= 1 && sgn(t) >= 0 && t <= 1)
    best = std::min(best, squared_between(plus_scaled(p0, s, d1), plus_scaled(q0, t, d2)));
  return best;
}

mpq_class squared_distance(const Triangle& first, const Triangle& second) {
  // Closed triangles can only touch when their closed boxes overlap (float comparisons: exact).
  if (first.bounds().overlaps(second.bounds()) && touches(first, second)) return 0;
  const std::array<Vec3, 3> u = {first.a, first.b, first.c}, v = {second.a, second.b, second.c};
  mpq_class best = squared_distance(second, u[0]);
  for (std::size_t k = 0; k < 3; ++k) {
    best = std::min(best, squared_distance(second, u[k]));
    best = std::min(best, squared_distance(first, v[k]));
  }
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      best = std::min(best, segment_squared_distance(rational(u[i]), rational(u[(i + 1) % 3]),
                                                     rational(v[j]), rational(v[(j + 1) % 3])));
  return best;
}

mpq_class value(const SquaredDistance& distance) {
  const auto& q = distance.points;
  switch (distance.form) {
    case DistanceForm::point_point:
      return squared_between(rational(q[0]), rational(q[1]));
    case DistanceForm::point_line: {
      const QVec3 u = rational(q[1]), edge = minus(rational(q[2]), u);
      if (is_zero(edge)) return -1;  // not a valid form: u == v
      return squared_length(cross(edge, minus(rational(q[0]), u))) / squared_length(edge);
    }
    case DistanceForm::point_plane: {
      const QVec3 a = rational(q[1]);
      const QVec3 n = cross(minus(rational(q[2]), a), minus(rational(q[3]), a));
      if (is_zero(n)) return -1;  // not a valid form: collinear points
      const mpq_class offset = dot(minus(rational(q[0]), a), n);
      return offset * offset / squared_length(n);
    }
    case DistanceForm::line_line: {
      const QVec3 p0 = rational(q[0]);
      const QVec3 m = cross(minus(rational(q[1]), p0), minus(rational(q[3]), rational(q[2])));
      if (is_zero(m)) return -1;  // not a valid form: parallel lines
      const mpq_class offset = dot(minus(rational(q[2]), p0), m);
      return offset * offset / squared_length(m);
    }
  }
  return -1;
}

bool near_root(double got, const mpq_class& squared, const mpq_class& relative) {
  if (!std::isfinite(got) || got < 0) return false;
  const mpq_class g(got);
  const mpq_class low = 1 - relative, high = 1 + relative;
  return low * low * squared <= g * g && g * g <= high * high * squared;
}

std::optional<NearestAnswer> nearest(const TriangleSoup& soup, const Vec3& point,
                                     float max_distance) {
  const bool limited = !std::isinf(max_distance);
  const mpq_class limit = limited ? mpq_class(rational(max_distance) * rational(max_distance)) : 0;
  std::optional<NearestAnswer> best;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle triangle = soup.triangle(id);
    if (best && certainly_farther(box_gap_lower_bound(triangle.bounds(), Aabb{point, point}),
                                  best->squared))
      continue;
    const mpq_class squared = squared_distance(triangle, point);
    if (limited && squared > limit) continue;
    if (!best || squared < best->squared)
      best = NearestAnswer{static_cast<TriangleId>(id), squared};
  }
  return best;
}

bool touches(const Triangle& triangle, const Capsule& capsule) {
  const mpq_class radius = rational(capsule.radius);
  return squared_distance(triangle, Triangle{capsule.a, capsule.b, capsule.b}) <= radius * radius;
}

std::vector<NearestAnswer> k_nearest(const TriangleSoup& soup, const Vec3& point, std::size_t k,
                                     float max_distance) {
  const bool limited = !std::isinf(max_distance);
  const mpq_class limit = limited ? mpq_class(rational(max_distance) * rational(max_distance)) : 0;
  std::vector<NearestAnswer> held;  // the best so far, nearest first, at most k
  const auto before = [](const NearestAnswer& a, const NearestAnswer& b) {
    return a.squared < b.squared || (a.squared == b.squared && a.id < b.id);
  };
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle triangle = soup.triangle(id);
    if (held.size() == k &&
        certainly_farther(box_gap_lower_bound(triangle.bounds(), Aabb{point, point}),
                          held.back().squared))
      continue;
    NearestAnswer answer{static_cast<TriangleId>(id), squared_distance(triangle, point)};
    if (limited && answer.squared > limit) continue;
    if (held.size() == k && !before(answer, held.back())) continue;
    if (held.size() == k) held.pop_back();
    held.insert(std::upper_bound(held.begin(), held.end(), answer, before), std::move(answer));
  }
  return held;
}

std::optional<PairAnswer> nearest_pair(const TriangleSoup& first, const TriangleSoup& second) {
  std::optional<PairAnswer> best;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const Triangle t = first.triangle(i);
    for (std::size_t j = 0; j < second.size(); ++j) {
      const Triangle u = second.triangle(j);
      if (best && certainly_farther(box_gap_lower_bound(t.bounds(), u.bounds()), best->squared))
        continue;
      const mpq_class squared = squared_distance(t, u);
      if (!best || squared < best->squared)
        best = PairAnswer{static_cast<TriangleId>(i), static_cast<TriangleId>(j), squared};
    }
  }
  return best;
}

}  // namespace trisect::oracle
