#include "support/exact_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace trisect::oracle {
namespace {

bool is_zero(const QVec3& v) { return sgn(v[0]) == 0 && sgn(v[1]) == 0 && sgn(v[2]) == 0; }

/// One Sutherland–Hodgman step: keep the part of the cyclic polygon with coordinate `axis`
/// >= bound (keep_above) or <= bound. A crossing edge contributes its exact crossing point.
std::vector<QVec3> clip_half_space(const std::vector<QVec3>& polygon, std::size_t axis,
                                   const mpq_class& bound, bool keep_above) {
  std::vector<QVec3> kept;
  const auto inside = [&](const QVec3& p) {
    const int c = cmp(p[axis], bound);
    return keep_above ? c : -c;
  };
  const auto crossing = [&](const QVec3& p, const QVec3& q) {
    const mpq_class t = (bound - p[axis]) / (q[axis] - p[axis]);
    QVec3 r;
    for (std::size_t i = 0; i < 3; ++i)
      r[i] = i == axis ? bound : mpq_class(p[i] + t * (q[i] - p[i]));
    return r;
  };
  const std::size_t n = polygon.size();
  for (std::size_t k = 0; k < n; ++k) {
    const QVec3& previous = polygon[(k + n - 1) % n];
    const QVec3& current = polygon[k];
    const int s_previous = inside(previous), s_current = inside(current);
    if (s_current >= 0) {
      if (s_previous < 0 && s_current > 0) kept.push_back(crossing(previous, current));
      kept.push_back(current);
    } else if (s_previous > 0) {
      kept.push_back(crossing(previous, current));
    }
  }
  return kept;
}

/// One Sutherland–Hodgman step against the closed half-space n·x <= d.
std::vector<QVec3> clip_by_plane(const std::vector<QVec3>& polygon, const QVec3& n,
                                 const mpq_class& d) {
  std::vector<QVec3> kept;
  const auto offset = [&](const QVec3& p) { return mpq_class(dot(n, p) - d); };
  const auto crossing = [&](const QVec3& p, const QVec3& q) {
    const mpq_class t = offset(p) / (offset(p) - offset(q));
    QVec3 r;
    for (std::size_t i = 0; i < 3; ++i) r[i] = p[i] + t * (q[i] - p[i]);
    return r;
  };
  const std::size_t count = polygon.size();
  for (std::size_t k = 0; k < count; ++k) {
    const QVec3& previous = polygon[(k + count - 1) % count];
    const QVec3& current = polygon[k];
    const int s_previous = sgn(offset(previous)), s_current = sgn(offset(current));
    if (s_current <= 0) {
      if (s_previous > 0 && s_current < 0) kept.push_back(crossing(previous, current));
      kept.push_back(current);
    } else if (s_previous < 0) {
      kept.push_back(crossing(previous, current));
    }
  }
  return kept;
}

bool in_box(const Vec3& p, const Aabb& box) {
  return box.min.x <= p.x && p.x <= box.max.x && box.min.y <= p.y && p.y <= box.max.y &&
         box.min.z <= p.z && p.z <= box.max.z;
}

}  // namespace

QVec3 minus(const QVec3& p, const QVec3& q) { return {p[0] - q[0], p[1] - q[1], p[2] - q[2]}; }

mpq_class dot(const QVec3& p, const QVec3& q) { return p[0] * q[0] + p[1] * q[1] + p[2] * q[2]; }

QVec3 cross(const QVec3& p, const QVec3& q) {
  return {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
}

mpq_class rational(float value) { return mpq_class(static_cast<double>(value)); }

QVec3 rational(const Vec3& v) { return {rational(v.x), rational(v.y), rational(v.z)}; }

int side(const Plane& plane, const Vec3& point) {
  return sgn(dot(rational(plane.normal), rational(point)) - rational(plane.d));
}

bool touches(const Aabb& box, const Plane& plane) {
  const QVec3 n = rational(plane.normal);
  const QVec3 low = rational(box.min), high = rational(box.max);
  // Per axis, the two possible terms normal_i * corner_i; a corner picks one of each.
  std::array<std::array<mpq_class, 2>, 3> terms;
  for (std::size_t i = 0; i < 3; ++i) terms[i] = {n[i] * low[i], n[i] * high[i]};
  const mpq_class d = rational(plane.d);
  bool any_below = false, any_on_or_above = false, any_above = false, any_on_or_below = false;
  for (unsigned corner = 0; corner < 8; ++corner) {
    const int s =
        cmp(terms[0][corner & 1u] + terms[1][(corner >> 1) & 1u] + terms[2][(corner >> 2) & 1u], d);
    any_below |= s < 0;
    any_above |= s > 0;
    any_on_or_above |= s >= 0;
    any_on_or_below |= s <= 0;
  }
  // Touching unless every corner is strictly below or every corner strictly above.
  return !(any_below && !any_on_or_above) && !(any_above && !any_on_or_below);
}

bool touches(const Triangle& triangle, const Plane& plane) {
  const int a = side(plane, triangle.a), b = side(plane, triangle.b), c = side(plane, triangle.c);
  const bool all_above = a > 0 && b > 0 && c > 0, all_below = a < 0 && b < 0 && c < 0;
  return !all_above && !all_below;
}

std::vector<QVec3> clip(const Triangle& triangle, const Aabb& box) {
  std::vector<QVec3> polygon = {rational(triangle.a), rational(triangle.b), rational(triangle.c)};
  const QVec3 low = rational(box.min), high = rational(box.max);
  for (std::size_t axis = 0; axis < 3 && !polygon.empty(); ++axis) {
    polygon = clip_half_space(polygon, axis, low[axis], true);
    polygon = clip_half_space(polygon, axis, high[axis], false);
  }
  return polygon;
}

bool touches(const Triangle& triangle, const Aabb& box) {
  // Exact quick answers (float comparisons are exact): disjoint bounds, or a vertex inside.
  if (!triangle.bounds().overlaps(box)) return false;
  if (in_box(triangle.a, box) || in_box(triangle.b, box) || in_box(triangle.c, box)) return true;
  return !clip(triangle, box).empty();
}

bool touches(const Triangle& triangle, const OrientedBox& box) {
  return touches_box_at(triangle, box, rational(box.center));
}

bool touches_box_at(const Triangle& triangle, const OrientedBox& box, const QVec3& center) {
  const QVec3 e[3] = {rational(box.axes[0]), rational(box.axes[1]), rational(box.axes[2])};
  const QVec3 rows[3] = {cross(e[1], e[2]), cross(e[2], e[0]), cross(e[0], e[1])};
  const mpq_class det = dot(e[0], rows[0]);
  std::vector<QVec3> polygon;
  for (const Vec3& v : {triangle.a, triangle.b, triangle.c}) {
    const QVec3 w = minus(rational(v), center);
    polygon.push_back({dot(rows[0], w) / det, dot(rows[1], w) / det, dot(rows[2], w) / det});
  }
  for (std::size_t axis = 0; axis < 3 && !polygon.empty(); ++axis) {
    const mpq_class h = rational(box.half_extents[static_cast<int>(axis)]);
    polygon = clip_half_space(polygon, axis, -h, true);
    polygon = clip_half_space(polygon, axis, h, false);
  }
  return !polygon.empty();
}

bool touches(const Triangle& triangle, const Frustum& frustum) {
  std::vector<QVec3> polygon = {rational(triangle.a), rational(triangle.b), rational(triangle.c)};
  for (const Plane& plane : frustum.planes)
    if (!polygon.empty())
      polygon = clip_by_plane(polygon, rational(plane.normal), rational(plane.d));
  return !polygon.empty();
}

namespace {

/// The closest-point candidates of a triangle to a point, each an exact squared distance.
class DistanceCandidates {
 public:
  DistanceCandidates(const Triangle& triangle, const Vec3& point)
      : p_(rational(point)), v_{rational(triangle.a), rational(triangle.b), rational(triangle.c)} {}

  /// Squared distance to vertex k.
  [[nodiscard]] mpq_class vertex(std::size_t k) const {
    const QVec3 w = minus(v_[k], p_);
    return dot(w, w);
  }

  /// Squared distance to the closest point of edge k (from vertex k to vertex k + 1), with the
  /// projection parameter clamped to [0, 1]; false for a zero-length edge.
  [[nodiscard]] bool edge(std::size_t k, mpq_class& squared) const {
    const QVec3& from = v_[k];
    const QVec3 u = minus(v_[(k + 1) % 3], from);
    const mpq_class uu = dot(u, u);
    if (sgn(uu) == 0) return false;
    const mpq_class t =
        std::clamp(mpq_class(dot(minus(p_, from), u) / uu), mpq_class(0), mpq_class(1));
    QVec3 closest;
    for (std::size_t i = 0; i < 3; ++i) closest[i] = from[i] + t * u[i];
    const QVec3 w = minus(closest, p_);
    squared = dot(w, w);
    return true;
  }

  /// Squared distance to the triangle's plane; false for a zero-area triangle. `inside` tells
  /// whether the point's projection lies in the closed triangle (barycentric coordinates by
  /// Cramer's rule, Ericson §3.4; the projection differs from the point along the normal, so
  /// its dot products with the edges are the point's).
  [[nodiscard]] bool face(mpq_class& squared, bool& inside) const {
    const QVec3 e0 = minus(v_[1], v_[0]), e1 = minus(v_[2], v_[0]);
    const QVec3 normal = cross(e0, e1);
    if (is_zero(normal)) return false;
    const QVec3 w = minus(p_, v_[0]);
    const mpq_class offset = dot(w, normal);
    squared = offset * offset / dot(normal, normal);
    const mpq_class d00 = dot(e0, e0), d01 = dot(e0, e1), d11 = dot(e1, e1);
    const mpq_class d20 = dot(w, e0), d21 = dot(w, e1);
    const mpq_class denominator = d00 * d11 - d01 * d01;
    const mpq_class beta = (d11 * d20 - d01 * d21) / denominator;
    const mpq_class gamma = (d00 * d21 - d01 * d20) / denominator;
    inside = sgn(beta) >= 0 && sgn(gamma) >= 0 && beta + gamma <= 1;
    return true;
  }

 private:
  QVec3 p_;
  std::array<QVec3, 3> v_;
};

/// True when x - y > z is certain from double arithmetic (x, y, z floats, z >= 0): the two
/// roundings err by at most 2^-52 (|x| + |y| + z), far below the margin used.
bool certainly_beyond(float x, float y, float z) {
  const double a = static_cast<double>(x), b = static_cast<double>(y), c = static_cast<double>(z);
  return (a - b) - c > 0x1p-40 * (std::fabs(a) + std::fabs(b) + c);
}

}  // namespace

mpq_class squared_distance(const Triangle& triangle, const Vec3& point) {
  const DistanceCandidates candidates(triangle, point);
  mpq_class best = candidates.vertex(0), squared;
  for (std::size_t k = 1; k < 3; ++k) best = std::min(best, candidates.vertex(k));
  for (std::size_t k = 0; k < 3; ++k)
    if (candidates.edge(k, squared)) best = std::min(best, squared);
  bool inside = false;
  if (candidates.face(squared, inside) && inside) best = std::min(best, squared);
  return best;
}

bool touches(const Triangle& triangle, const Sphere& sphere) {
  // Quick exact reject: the ball's bounding box misses the triangle's.
  const Aabb bounds = triangle.bounds();
  const Vec3& c = sphere.center;
  for (int i = 0; i < 3; ++i)
    if (certainly_beyond(bounds.min[i], c[i], sphere.radius) ||
        certainly_beyond(c[i], bounds.max[i], sphere.radius))
      return false;
  // The minimum of `squared_distance` compared with r², answered early where possible: the
  // squared distance to the plane bounds it from below and equals it when the projection is
  // inside.
  const mpq_class r = rational(sphere.radius);
  const mpq_class rr = r * r;
  const DistanceCandidates candidates(triangle, c);
  for (std::size_t k = 0; k < 3; ++k)
    if (candidates.vertex(k) <= rr) return true;
  mpq_class squared;
  bool inside = false;
  if (candidates.face(squared, inside) && (inside || squared > rr)) return squared <= rr;
  for (std::size_t k = 0; k < 3; ++k)
    if (candidates.edge(k, squared) && squared <= rr) return true;
  return false;
}

}  // namespace trisect::oracle
