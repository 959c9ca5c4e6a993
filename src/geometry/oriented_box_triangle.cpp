#include "trisect/geometry/oriented_box_triangle.hpp"

#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/detail/lifted3.hpp"
#include "trisect/math/exact.hpp"

#include <algorithm>
#include <cmath>

namespace trisect {
namespace detail {
namespace {

// Error model of the certificates (Higham, "Accuracy and Stability of Numerical Algorithms",
// 2002, §3.1): every double operation below rounds once with relative error at most
// u = 2^-53. Float inputs keep every value of degree <= 3 inside the normal double range
// (between 2^-447 and 2^385 in magnitude, or 0), so no underflow term appears. A product of
// two floats is exact in double (48 bits). Bounds computed in double are themselves inflated
// by 2^-30 relative, far more than the few roundings that compute them.
constexpr double u = exact::unit_roundoff;
constexpr double bound_slack = 1 + 0x1p-30;

/// n = p × q in double: each component is a difference of two exact products, rounded once.
void cross_in_double(const Vec3& p, const Vec3& q, double (&n)[3]) {
  n[0] = double(p.y) * double(q.z) - double(p.z) * double(q.y);
  n[1] = double(p.z) * double(q.x) - double(p.x) * double(q.z);
  n[2] = double(p.x) * double(q.y) - double(p.y) * double(q.x);
}

/// One coordinate s = S / |D| of a vertex and a bound on its error (before float rounding).
/// S = n·w with n rounded once per component and w = v - center rounded once per component:
/// each of the three terms carries at most 5 roundings (n, w, the product, two sums), so
/// |S̃ - S| <= γ_5 Σ|n_c||w_c| <= E = 8u·Σ|ñ_c||w̃_c|. With |D̃ - D| <= e_D < |D̃|:
/// |S̃/D̃ - S/D| <= E/|D̃| + (|S̃| + E)·e_D / ((|D̃| - e_D)|D̃|), and the division adds
/// u|S̃/D̃| <= 2u|s̃|.
struct Coordinate {
  double value;
  double error;
};

Coordinate coordinate(const double (&n)[3], const double (&w)[3], double volume,
                      double volume_error) {
  const double s = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
  const double e = 8 * u *
                   (std::fabs(n[0]) * std::fabs(w[0]) + std::fabs(n[1]) * std::fabs(w[1]) +
                    std::fabs(n[2]) * std::fabs(w[2]));
  const double value = s / volume;
  const double error = e / volume +
                       (std::fabs(s) + e) * volume_error / ((volume - volume_error) * volume) +
                       2 * u * std::fabs(value);
  return {value, error * bound_slack};
}

template <class Lift>
[[nodiscard]] auto lifted(const Vec3& v, const Lift& lift) {
  return Lifted3{lift(v.x), lift(v.y), lift(v.z)};
}

/// True when `axis` (a generic `(lift) -> Lifted3`) separates the closed triangle from the
/// closed box, exactly. The box projects onto L to L·center ± R with R = Σ h_i |L·axes[i]|;
/// the axis separates when every vertex has L·(v - center) > R, or every vertex < -R. A zero
/// axis gives 0 everywhere and never separates.
template <class Axis>
[[nodiscard]] bool axis_separates(const Axis& axis, const Triangle& t, const OrientedBox& box) {
  float radius_coefficient[3];  // ±h_i by the sign of L·axes[i] (0 when either is 0): exact
  for (int i = 0; i < 3; ++i) {
    const float h = box.half_extents[i];
    const int sign = h == 0 ? 0 : exact::sign_of([&](auto lift) {
      return dot(axis(lift), lifted(box.axes[i], lift));
    });
    radius_coefficient[i] = sign > 0 ? h : (sign < 0 ? -h : 0.0f);
  }
  // Sign of L·(v - center) - side·R.
  const auto beyond = [&](const Vec3& v, float side) {
    return exact::sign_of([&](auto lift) {
      const auto l = axis(lift);
      const auto radius = lift(radius_coefficient[0]) * dot(l, lifted(box.axes[0], lift)) +
                          lift(radius_coefficient[1]) * dot(l, lifted(box.axes[1], lift)) +
                          lift(radius_coefficient[2]) * dot(l, lifted(box.axes[2], lift));
      return dot(l, difference(v, box.center, lift)) - lift(side) * radius;
    });
  };
  const Vec3* vertices[3] = {&t.a, &t.b, &t.c};
  const auto all = [&](auto predicate) {
    return std::all_of(std::begin(vertices), std::end(vertices),
                       [&](const Vec3* v) { return predicate(*v); });
  };
  return all([&](const Vec3& v) { return beyond(v, 1.0f) > 0; }) ||
         all([&](const Vec3& v) { return beyond(v, -1.0f) < 0; });
}

}  // namespace

OrientedBoxFrame OrientedBoxFrame::of(const OrientedBox& box) noexcept {
  OrientedBoxFrame frame;
  frame.center_ = box.center;
  frame.half_extents_ = box.half_extents;
  for (int i = 0; i < 3; ++i)
    cross_in_double(box.axes[(i + 1) % 3], box.axes[(i + 2) % 3], frame.normal_[i]);
  // D = axes[0]·n_0: n rounded once, three products and two sums: γ_4 Σ|e_c||n_c| < 8u Σ...
  double det = 0, magnitude = 0;
  for (int c = 0; c < 3; ++c) {
    det += double(box.axes[0][c]) * frame.normal_[0][c];
    magnitude += std::fabs(double(box.axes[0][c]) * frame.normal_[0][c]);
  }
  frame.volume_ = std::fabs(det);
  frame.volume_error_ = 8 * u * magnitude * bound_slack;
  // Certificates only when D̃ has D's sign and the relative error stays below 2^-20.
  frame.usable_ = std::isfinite(det) && frame.volume_error_ <= 0x1p-20 * frame.volume_;
  if (det < 0)
    for (auto& n : frame.normal_)
      for (double& c : n) c = -c;
  return frame;
}

int OrientedBoxFrame::classify(const Triangle& triangle) const noexcept {
  if (!usable_) return 0;
  const Vec3* vertices[3] = {&triangle.a, &triangle.b, &triangle.c};
  Vec3 local[3];
  double delta[3] = {0, 0, 0};  // bound on |local - exact coordinate|, per axis
  for (int k = 0; k < 3; ++k) {
    const double w[3] = {double((*vertices[k]).x) - double(center_.x),
                         double((*vertices[k]).y) - double(center_.y),
                         double((*vertices[k]).z) - double(center_.z)};
    for (int i = 0; i < 3; ++i) {
      const Coordinate s = coordinate(normal_[i], w, volume_, volume_error_);
      local[k][i] = float(s.value);
      if (!std::isfinite(local[k][i])) return 0;
      // Rounding to float adds 2^-24 |s| and, below the normal range, 2^-150.
      const double error = s.error + 0x1p-24 * std::fabs(s.value) * bound_slack + 0x1p-149;
      delta[i] = std::max(delta[i], error);
    }
  }
  // The margin 2^-50 h covers the rounding of h ± δ before the outward conversion to float.
  Aabb grown, shrunk;
  bool shrunk_exists = true;
  for (int i = 0; i < 3; ++i) {
    const double h = half_extents_[i], margin = delta[i] + 0x1p-50 * h;
    const float outer = float_at_least(h + margin), inner = float_at_most(h - margin);
    if (!std::isfinite(outer)) return 0;
    grown.min[i] = -outer;
    grown.max[i] = outer;
    shrunk_exists = shrunk_exists && inner >= 0;
    shrunk.min[i] = -inner;
    shrunk.max[i] = inner;
  }
  const Triangle mapped{local[0], local[1], local[2]};
  if (!intersects(mapped, grown)) return -1;
  return shrunk_exists && intersects(mapped, shrunk) ? 1 : 0;
}

int OrientedBoxFrame::classify(const Aabb& node) const noexcept {
  if (!usable_) return 0;
  bool inside = true;
  for (int i = 0; i < 3; ++i) {
    // The node projects onto the exact n_i to [bottom, top] (relative to the centre); each
    // computed sum carries at most 4 roundings per term: error <= 8u Σ|n_c||x_c - center_c|.
    // The box projects to [-h_i |D|, h_i |D|].
    double top = 0, bottom = 0, top_error = 0, bottom_error = 0;
    for (int c = 0; c < 3; ++c) {
      const double n = normal_[i][c];
      const double high = double(n >= 0 ? node.max[c] : node.min[c]) - double(center_[c]);
      const double low = double(n >= 0 ? node.min[c] : node.max[c]) - double(center_[c]);
      top += n * high;
      bottom += n * low;
      top_error += std::fabs(n * high);
      bottom_error += std::fabs(n * low);
    }
    top_error *= 8 * u * bound_slack;
    bottom_error *= 8 * u * bound_slack;
    const double h = half_extents_[i];
    const double reach_high = h * (volume_ + volume_error_) * (1 + 0x1p-40);
    const double reach_low = h * (volume_ - volume_error_) * (1 - 0x1p-40);
    if (bottom - bottom_error > reach_high || top + top_error < -reach_high) return -1;
    inside = inside && top + top_error <= reach_low && bottom - bottom_error >= -reach_low;
  }
  return inside ? 1 : 0;
}

bool intersects_exactly(const Triangle& t, const OrientedBox& box) {
  const auto& e = box.axes;
  for (int i = 0; i < 3; ++i) {  // face normals axes[j] × axes[k]
    const Vec3 &p = e[(i + 1) % 3], &q = e[(i + 2) % 3];
    if (axis_separates([&](auto lift) { return cross(lifted(p, lift), lifted(q, lift)); }, t, box))
      return false;
  }
  if (axis_separates(
          [&](auto lift) { return cross(difference(t.b, t.a, lift), difference(t.c, t.a, lift)); },
          t, box))
    return false;
  const Vec3* vertices[3] = {&t.a, &t.b, &t.c};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {  // axes[i] × edge k
      const Vec3 &from = *vertices[k], &to = *vertices[(k + 1) % 3];
      if (axis_separates(
              [&](auto lift) { return cross(lifted(e[i], lift), difference(to, from, lift)); }, t,
              box))
        return false;
    }
  return true;
}

bool intersects(const Triangle& triangle, const OrientedBox& box, const OrientedBoxFrame& frame) {
  const int early = frame.classify(triangle);
  return early != 0 ? early > 0 : intersects_exactly(triangle, box);
}

}  // namespace detail

bool intersects(const Triangle& triangle, const OrientedBox& box) {
  return detail::intersects(triangle, box, detail::OrientedBoxFrame::of(box));
}

}  // namespace trisect
