// The exact squared distance between two closed triangles (see triangle_distance.hpp).
#include "trisect/geometry/triangle_distance.hpp"

#include "geometry/separation.hpp"
#include "trisect/geometry/point_triangle_distance.hpp"
#include "trisect/geometry/triangle_triangle.hpp"
#include "trisect/math/exact.hpp"

#include <array>

namespace trisect {
namespace {

/// The nearest of the candidates offered so far, compared exactly.
class Nearest {
 public:
  void offer(const SquaredDistance& candidate) {
    const DistanceBounds bounds = bounds_of(candidate);
    if (has_best_ && compare(candidate, bounds, best_, best_bounds_) >= 0) return;
    best_ = candidate;
    best_bounds_ = bounds;
    has_best_ = true;
  }
  [[nodiscard]] const SquaredDistance& best() const noexcept { return best_; }

 private:
  SquaredDistance best_;
  DistanceBounds best_bounds_;
  bool has_best_ = false;
};

/// True when the nearest points of the lines through p0, p1 and q0, q1 lie strictly inside
/// both segments and the lines are not parallel, exactly. With u = p1 - p0, v = q1 - q0,
/// w = p0 - q0 and a = u·u, b = u·v, c = v·v, d = u·w, e = v·w, the nearest points are at
/// s = (be - cd) / (ac - b²) along u and t = (ae - bd) / (ac - b²) along v (Ericson §5.1.9).
bool nearest_inside_both(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const auto terms = [&](auto lift) {
    const auto ux = lift(p1.x) - lift(p0.x), uy = lift(p1.y) - lift(p0.y),
               uz = lift(p1.z) - lift(p0.z);
    const auto vx = lift(q1.x) - lift(q0.x), vy = lift(q1.y) - lift(q0.y),
               vz = lift(q1.z) - lift(q0.z);
    const auto wx = lift(p0.x) - lift(q0.x), wy = lift(p0.y) - lift(q0.y),
               wz = lift(p0.z) - lift(q0.z);
    const auto a = ux * ux + uy * uy + uz * uz, b = ux * vx + uy * vy + uz * vz,
               c = vx * vx + vy * vy + vz * vz, d = ux * wx + uy * wy + uz * wz,
               e = vx * wx + vy * wy + vz * wz;
    struct Terms {
      decltype(a * c - b * b) denominator, s, t;
    };
    return Terms{a * c - b * b, b * e - c * d, a * e - b * d};
  };
  const auto positive = [&](auto pick) {
    return exact::sign_of([&](auto lift) { return pick(terms(lift)); }) > 0;
  };
  return positive([](const auto& x) { return x.denominator; }) &&
         positive([](const auto& x) { return x.s; }) &&
         positive([](const auto& x) { return x.denominator - x.s; }) &&
         positive([](const auto& x) { return x.t; }) &&
         positive([](const auto& x) { return x.denominator - x.t; });
}

}  // namespace

SquaredDistance squared_distance(const Triangle& s, const Triangle& t) {
  if (intersects(s, t)) return SquaredDistance::between(s.a, s.a);
  Nearest nearest;
  for (const Vec3& v : {s.a, s.b, s.c}) nearest.offer(squared_distance(v, t));
  for (const Vec3& v : {t.a, t.b, t.c}) nearest.offer(squared_distance(v, s));
  const std::array<Vec3, 3> sv{s.a, s.b, s.c}, tv{t.a, t.b, t.c};
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      const Vec3 &p0 = sv[i], &p1 = sv[(i + 1) % 3], &q0 = tv[j], &q1 = tv[(j + 1) % 3];
      if (nearest_inside_both(p0, p1, q0, q1))
        nearest.offer({DistanceForm::line_line, {p0, p1, q0, q1}});
    }
  }
  return nearest.best();
}

bool within_distance(const Triangle& s, const Aabb& s_box, const Triangle& t, const Aabb& t_box,
                     const DistanceLimit& limit) {
  if (detail::box_gap_lower_bound(s_box, t_box) > limit.squared) return false;
  if (detail::vertex_gap_upper_bound(s, t) <= limit.squared) return true;
  if (detail::directions_show_farther(s, t, limit.squared)) return false;
  const SquaredDistance between = squared_distance(s, t);
  return !limit.exceeded_by(between, bounds_of(between));
}

SquaredDistance squared_distance(const Vec3& p, const Vec3& q, const Triangle& t) {
  if (detail::segment_meets(p, q, t)) return SquaredDistance::between(p, p);
  Nearest nearest;
  nearest.offer(squared_distance(p, t));
  if (p == q) return nearest.best();
  nearest.offer(squared_distance(q, t));
  const std::array<Vec3, 3> tv{t.a, t.b, t.c};
  for (std::size_t j = 0; j < 3; ++j) {
    const Vec3 &q0 = tv[j], &q1 = tv[(j + 1) % 3];
    nearest.offer(detail::segment_squared_distance(q0, p, q));
    if (q0 != q1 && nearest_inside_both(p, q, q0, q1))
      nearest.offer({DistanceForm::line_line, {p, q, q0, q1}});
  }
  return nearest.best();
}

bool segment_within_distance(const Vec3& p, const Vec3& q, const Aabb& segment_box,
                             const Triangle& t, const Aabb& t_box, const DistanceLimit& limit) {
  if (detail::box_gap_lower_bound(segment_box, t_box) > limit.squared) return false;
  const Triangle segment{p, q, q};
  if (detail::vertex_gap_upper_bound(segment, t) <= limit.squared) return true;
  const Vec3 ends[2] = {p, q};
  if (detail::plane_gap_lower_bound(t, ends, 2) > limit.squared) return false;
  const SquaredDistance between = squared_distance(p, q, t);
  return !limit.exceeded_by(between, bounds_of(between));
}

}  // namespace trisect
