#pragma once
// The exact first time of contact of a translated oriented box with a triangle (private to the
// library: geometry/box_cast.hpp and nearest/box_cast.hpp answer with the nearest float).
//
// The box B + t v and the triangle T touch at time t exactly when no separating axis of the
// pair separates them at t (the 13 axes of `intersects(triangle, oriented box)`; translation
// does not change them, so the same axes are complete at every t). On an axis L the two
// overlap when lo <= t (L·v) <= hi, with lo = min_k L·(p_k - c) - R and hi = max_k L·(p_k - c)
// + R, R = Σ h_m |L·e_m|: an interval of t per axis, and the contact times are the
// intersection of these intervals with [0, 1] (the separating-axis view of continuous
// collision of van den Bergen, "Collision Detection in Interactive 3D Environments", 2003,
// §5.4, here with exact arithmetic). Every interval end is a ratio of polynomials in the input
// floats; `ContactTime` keeps what defines one and compares two exactly.

#include "trisect/math/detail/lifted3.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/oriented_box.hpp"
#include "trisect/math/triangle.hpp"

#include <optional>

namespace trisect::detail {

/// A separating axis L = (p1 - p0) × (q1 - q0), one expression for all thirteen: a face normal
/// axes[j] × axes[k] (p0 = q0 = 0), the triangle normal (b - a) × (c - a), or axes[i] × an edge.
struct CastAxis {
  Vec3 p0{0.0f}, p1{0.0f}, q0{0.0f}, q1{0.0f};
  /// Bit m set when L·axes[m] is 0 by construction (L is a cross product with axes[m]): its
  /// sign is known without arithmetic (a filtered sign of an exact 0 always falls back).
  unsigned orthogonal = 0;
  /// The triangle's vertices that L projects to one value by construction: -1 none, 0..2 the
  /// two ends of edge k (L = axes[i] × that edge), 3 all three (L is the triangle's normal).
  int level_edge = -1;

  template <class Lift>
  [[nodiscard]] auto vector(const Lift& lift) const {
    return cross(difference(p1, p0, lift), difference(q1, q0, lift));
  }
};

/// The motion's box and vector, shared by every time of one cast (they must outlive it).
struct CastMotion {
  const OrientedBox* box;
  const Vec3* motion;
};

/// t = N / D exactly, D > 0: with X = L·(w - c) + Σ κ_m L·e_m and a = L·v, N = σ X + n0 and
/// D = σ a + d0; σ = sign(a) for an axis's end (n0 = d0 = 0), σ = 0 for a constant n0 / d0.
class ContactTime {
 public:
  /// The constant n / d (d > 0).
  [[nodiscard]] static ContactTime constant(CastMotion motion, float n, float d) {
    ContactTime time;
    time.motion_ = motion;
    time.n0_ = n;
    time.d0_ = d;
    return time;
  }
  /// The axis end X / a for the vertex w and radius coefficients κ, with σ = sign(a) != 0.
  [[nodiscard]] static ContactTime axis_end(CastMotion motion, const CastAxis& axis, const Vec3& w,
                                            const float (&kappa)[3], int sigma) {
    ContactTime time;
    time.motion_ = motion;
    time.axis_ = axis;
    time.w_ = w;
    for (int m = 0; m < 3; ++m) time.kappa_[m] = kappa[m];
    time.sigma_ = float(sigma);
    time.d0_ = 0;
    return time;
  }

  template <class Lift>
  [[nodiscard]] auto numerator(const Lift& lift) const {
    const OrientedBox& box = *motion_.box;
    const auto l = axis_.vector(lift);
    const auto x = dot(l, difference(w_, box.center, lift)) +
                   (lift(kappa_[0]) * dot(l, lifted(box.axes[0], lift)) +
                    lift(kappa_[1]) * dot(l, lifted(box.axes[1], lift)) +
                    lift(kappa_[2]) * dot(l, lifted(box.axes[2], lift)));
    return lift(sigma_) * x + lift(n0_);
  }
  template <class Lift>
  [[nodiscard]] auto denominator(const Lift& lift) const {
    return lift(sigma_) * dot(axis_.vector(lift), lifted(*motion_.motion, lift)) + lift(d0_);
  }

  /// The exact order of two times of the same motion: -1, 0 or +1.
  [[nodiscard]] friend int compare(const ContactTime& a, const ContactTime& b) {
    return exact::sign_of([&](auto lift) {
      return a.numerator(lift) * b.denominator(lift) - b.numerator(lift) * a.denominator(lift);
    });
  }

  /// The exact order of the time and the double `x` (exactly representable): -1, 0 or +1.
  [[nodiscard]] int compare(double x) const {
    return exact::sign_of([&](auto lift) { return numerator(lift) - lift(x) * denominator(lift); });
  }

  /// The exact sign of the numerator N.
  [[nodiscard]] int numerator_sign() const {
    return exact::sign_of([&](auto lift) { return numerator(lift); });
  }

  /// The float nearest to the exact time (ties to even).
  [[nodiscard]] float nearest_float() const;

 private:
  template <class Lift>
  [[nodiscard]] static auto lifted(const Vec3& v, const Lift& lift) {
    return Lifted3{lift(v.x), lift(v.y), lift(v.z)};
  }

  CastMotion motion_{};
  CastAxis axis_{};
  Vec3 w_{0.0f};
  float kappa_[3] = {0, 0, 0};
  float sigma_ = 0, n0_ = 0, d0_ = 1;
};

/// The exact first time in [0, 1] at which `box` moved by t·motion touches `triangle`, or
/// nothing when it touches it at no such time. Valid box, finite input.
[[nodiscard]] std::optional<ContactTime> first_contact_time(const Triangle& triangle,
                                                            CastMotion motion);

}  // namespace trisect::detail
