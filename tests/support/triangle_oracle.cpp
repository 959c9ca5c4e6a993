#include "support/exact_oracle.hpp"

#include <algorithm>
#include <cstddef>

namespace trisect::oracle {
namespace {

/// The closed half-space {x : normal·x >= offset}.
struct HalfSpace {
  QVec3 normal;
  mpq_class offset;
};

bool is_zero(const QVec3& v) { return sgn(v[0]) == 0 && sgn(v[1]) == 0 && sgn(v[2]) == 0; }

QVec3 negated(const QVec3& v) { return {-v[0], -v[1], -v[2]}; }

/// {x : normal·x = normal·point} as two half-spaces.
void add_plane(std::vector<HalfSpace>& spaces, const QVec3& normal, const QVec3& point) {
  const mpq_class offset = dot(normal, point);
  spaces.push_back({normal, offset});
  spaces.push_back({negated(normal), -offset});
}

/// The half-spaces of a closed triangle. A proper triangle: its plane, and per edge p→q the
/// half-space bounded by the plane through the edge perpendicular to the triangle, on the
/// side of the third vertex. A zero-area one: the segment between its two farthest vertices
/// (two planes through its line and two end caps), or its point (three planes).
std::vector<HalfSpace> half_spaces(const Triangle& triangle) {
  const std::array<QVec3, 3> v = {rational(triangle.a), rational(triangle.b), rational(triangle.c)};
  std::vector<HalfSpace> spaces;
  const QVec3 normal = cross(minus(v[1], v[0]), minus(v[2], v[0]));
  if (!is_zero(normal)) {
    add_plane(spaces, normal, v[0]);
    for (std::size_t k = 0; k < 3; ++k) {
      const QVec3 &p = v[k], &q = v[(k + 1) % 3], &r = v[(k + 2) % 3];
      QVec3 inward = cross(normal, minus(q, p));
      if (sgn(dot(inward, minus(r, p))) < 0) inward = negated(inward);
      spaces.push_back({inward, dot(inward, p)});
    }
    return spaces;
  }
  std::size_t from = 0, to = 1;
  mpq_class longest = -1;
  for (std::size_t k = 0; k < 3; ++k) {
    const QVec3 d = minus(v[(k + 1) % 3], v[k]);
    if (dot(d, d) > longest) longest = dot(d, d), from = k, to = (k + 1) % 3;
  }
  const QVec3 d = minus(v[to], v[from]);
  if (is_zero(d)) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      QVec3 unit = {mpq_class(0), mpq_class(0), mpq_class(0)};
      unit[axis] = 1;
      add_plane(spaces, unit, v[from]);
    }
    return spaces;
  }
  for (std::size_t axis = 0; axis < 3; ++axis) {
    QVec3 unit = {mpq_class(0), mpq_class(0), mpq_class(0)};
    unit[axis] = 1;
    const QVec3 across = cross(d, unit);
    if (is_zero(across)) continue;
    add_plane(spaces, across, v[from]);
    add_plane(spaces, cross(d, across), v[from]);
    break;
  }
  spaces.push_back({d, dot(d, v[from])});
  spaces.push_back({negated(d), -dot(d, v[to])});
  return spaces;
}

/// One Sutherland–Hodgman step against a closed half-space.
std::vector<QVec3> clip_by(const std::vector<QVec3>& polygon, const HalfSpace& space) {
  std::vector<mpq_class> value;
  for (const QVec3& p : polygon) value.push_back(dot(space.normal, p) - space.offset);
  std::vector<QVec3> kept;
  const std::size_t n = polygon.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t previous = (k + n - 1) % n;
    const int s_previous = sgn(value[previous]), s_current = sgn(value[k]);
    if (s_previous * s_current < 0) {
      const mpq_class t = value[previous] / (value[previous] - value[k]);
      QVec3 crossing;
      for (std::size_t i = 0; i < 3; ++i)
        crossing[i] = polygon[previous][i] + t * (polygon[k][i] - polygon[previous][i]);
      kept.push_back(crossing);
    }
    if (s_current >= 0) kept.push_back(polygon[k]);
  }
  return kept;
}

/// The vertex positions, sorted lexicographically.
std::array<Vec3, 3> sorted_vertices(const Triangle& t) {
  std::array<Vec3, 3> v = {t.a, t.b, t.c};
  std::sort(v.begin(), v.end(), [](const Vec3& p, const Vec3& q) {
    if (p.x != q.x) return p.x < q.x;
    if (p.y != q.y) return p.y < q.y;
    return p.z < q.z;
  });
  return v;
}

/// `x` lies on the closed segment [u, w] (u != w).
bool on_segment(const QVec3& x, const QVec3& u, const QVec3& w) {
  const QVec3 d = minus(w, u), e = minus(x, u);
  if (!is_zero(cross(d, e))) return false;
  const mpq_class along = dot(d, e);
  return sgn(along) >= 0 && along <= dot(d, d);
}

}  // namespace

std::vector<QVec3> clip(const Triangle& polygon, const Triangle& by) {
  std::vector<QVec3> kept = {rational(polygon.a), rational(polygon.b), rational(polygon.c)};
  for (const HalfSpace& space : half_spaces(by)) {
    kept = clip_by(kept, space);
    if (kept.empty()) break;
  }
  return kept;
}

bool touches(const Triangle& first, const Triangle& second) {
  if (!first.bounds().overlaps(second.bounds())) return false;  // exact float comparisons
  return !clip(first, second).empty();
}

bool touches_beyond_shared(const Triangle& first, const Triangle& second) {
  const std::array<Vec3, 3> s = sorted_vertices(first), t = sorted_vertices(second);
  if (s == t) return true;
  std::vector<QVec3> shared;
  for (std::size_t k = 0; k < 3; ++k) {
    const bool repeated = k > 0 && s[k] == s[k - 1];
    if (!repeated && std::find(t.begin(), t.end(), s[k]) != t.end())
      shared.push_back(rational(s[k]));
  }
  const std::vector<QVec3> meet = clip(first, second);
  return std::any_of(meet.begin(), meet.end(), [&](const QVec3& x) {
    if (shared.empty()) return true;
    if (shared.size() == 1) return x != shared[0];
    return !on_segment(x, shared[0], shared[1]);
  });
}

}  // namespace trisect::oracle
