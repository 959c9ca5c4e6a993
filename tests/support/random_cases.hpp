#pragma once
/// \file
/// Seeded generators of predicate inputs in several numeric regimes, rich in exact ties
/// (vertices on planes and box faces, tangent spheres) and degenerate shapes.

#include "scenes/generators.hpp"

#include <trisect/geometry/plane_point.hpp>
#include <trisect/math/aabb.hpp>
#include <trisect/math/frustum.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/plane.hpp>
#include <trisect/math/sphere.hpp>
#include <trisect/math/triangle.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace trisect::testing {

using scenes::set_rotation;

/// Where a case's coordinates come from.
enum class Regime {
  lattice,       ///< Integers in [-4, 4] and halves: exact ties are frequent.
  generic,       ///< Independent uniform floats in [-10, 10]: no constructed ties.
  near_ties,     ///< Floats in [-10, 10] with constructed near-ties and degenerate shapes.
  near_million,  ///< ±1e6 plus small offsets (often multiples of 1/16, the float spacing there).
  near_micro,    ///< Magnitudes around 1e-6, e.g. 1e-6·(1 + k·2^-20), both signs.
  mixed,         ///< Each coordinate from a different scale.
};

inline constexpr std::array<Regime, 6> all_regimes = {Regime::lattice,    Regime::generic,
                                                      Regime::near_ties,  Regime::near_million,
                                                      Regime::near_micro, Regime::mixed};

/// The regime's name as used in test output.
[[nodiscard]] constexpr const char* regime_name(Regime regime) {
  constexpr std::array<const char*, all_regimes.size()> names = {
      "lattice", "generic", "near_ties", "near_million", "near_micro", "mixed"};
  return names[static_cast<std::size_t>(regime)];
}

/// Deterministic generator (std::mt19937_64 with a fixed seed). Call `begin` for every case: it
/// fixes the regime and the per-axis origin the case's coordinates cluster around. In the
/// generic regime nothing is constructed: no ties, no degenerate shapes, no flat boxes.
class CaseGenerator {
 public:
  explicit CaseGenerator(std::uint64_t seed) : rng_(seed) {}

  void begin(Regime regime) {
    regime_ = regime;
    for (float& o : origin_) o = chance(0.5) ? 1e6f : -1e6f;
  }
  [[nodiscard]] Regime regime() const { return regime_; }

  /// Uniform integer in [low, high].
  int integer(int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng_); }
  /// True with probability p.
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  /// True with probability p, except in the generic regime, which constructs no ties.
  bool tie(double p) { return regime_ != Regime::generic && chance(p); }
  /// Uniform double in [low, high).
  double uniform(double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(rng_);
  }
  /// A float uniform in [low, high), rounded.
  float uniform_float(double low, double high) { return static_cast<float>(uniform(low, high)); }

  /// One coordinate on `axis` in the current regime.
  float coordinate(int axis) { return coordinate_in(regime_, axis); }

  Vec3 point() { return {coordinate(0), coordinate(1), coordinate(2)}; }

  /// A non-zero plane normal: small integers (zeros and axis-aligned included) or random floats.
  Vec3 normal() {
    Vec3 n(0.0f);
    while (n == Vec3(0.0f)) {
      const int style = integer(0, 9);
      for (int axis = 0; axis < 3; ++axis) n[axis] = normal_component(style);
      if (style == 9) {  // axis-aligned
        const int keep = integer(0, 2);
        for (int axis = 0; axis < 3; ++axis)
          if (axis != keep) n[axis] = 0.0f;
      }
    }
    return n;
  }

  /// A plane with d = n·p for the given point, rounded to float (exact on the lattice).
  Plane plane_through(const Vec3& p) {
    const Vec3 n = normal();
    const double d = static_cast<double>(n.x) * static_cast<double>(p.x) +
                     static_cast<double>(n.y) * static_cast<double>(p.y) +
                     static_cast<double>(n.z) * static_cast<double>(p.z);
    return {n, static_cast<float>(d)};
  }

  /// A plane through a random point of the regime, or with a random offset.
  Plane plane() {
    if (tie(0.7)) return plane_through(point());
    const Vec3 n = normal();
    return {n, coordinate(integer(0, 2))};
  }

  /// A box from two corners in any order; each axis is flat (min == max) with chance 0.15.
  Aabb box_from(const Vec3& corner) {
    Vec3 other;
    for (int axis = 0; axis < 3; ++axis) other[axis] = tie(0.15) ? corner[axis] : coordinate(axis);
    return Aabb::from_corners(corner, other);
  }
  Aabb box() { return box_from(point()); }

  /// A triangle; about a quarter are degenerate (repeated or collinear vertices) or needles.
  Triangle triangle() {
    Triangle t{point(), point(), point()};
    if (regime_ == Regime::generic) return t;
    switch (integer(0, 19)) {
      case 0:
        t.c = t.a;
        break;  // repeated vertex: a segment
      case 1:
        t.b = t.a, t.c = t.a;
        break;  // a point
      case 2:
        t.b[1] = t.a[1], t.b[2] = t.a[2];  // collinear along x
        t.c[1] = t.a[1], t.c[2] = t.a[2];
        break;
      case 3:
        t.c = t.b + (t.b - t.a);
        break;  // collinear when exact (lattice, often)
      case 4:
        t.c = 0.5f * (t.a + t.b);
        break;  // midpoint: collinear when exact
      case 5:
        t.c = nudged(t.b);
        break;  // needle: c a few ulps from b
      default:
        break;
    }
    return t;
  }

  /// A radius >= 0 in the scale of the regime.
  float radius() {
    switch (regime_) {
      case Regime::lattice:
        return 0.5f * static_cast<float>(integer(0, 8));
      case Regime::generic:
      case Regime::near_ties:
        return uniform_float(0, 6);
      case Regime::near_million:
        return chance(0.5) ? 0.0625f * static_cast<float>(integer(0, 64)) : uniform_float(0, 4);
      case Regime::near_micro:
        return chance(0.5) ? static_cast<float>(1e-6 * static_cast<double>(integer(0, 4)) *
                                                (1 + integer(-64, 64) * 0x1p-20))
                           : uniform_float(0, 3e-6);
      case Regime::mixed:
        return std::fabs(wide());
    }
    return 0;
  }

  Sphere sphere() { return {point(), radius()}; }

  /// A sphere tangent-prone to the triangle: centred at a vertex, an edge midpoint or the
  /// centroid, moved by the radius along an axis (touching exactly when that point is closest).
  Sphere sphere_near(const Triangle& t) {
    if (regime_ == Regime::generic) return sphere();
    const std::array<Vec3, 5> anchors = {t.a, t.b, t.c, 0.5f * (t.a + t.b),
                                         (t.a + t.b + t.c) / 3.0f};
    Sphere s{anchors[static_cast<std::size_t>(integer(0, 4))], radius()};
    s.center[integer(0, 2)] += chance(0.5) ? s.radius : -s.radius;
    return s;
  }

  /// An oriented box with independent axes: a random rotation rounded to float, or (outside
  /// the generic regime, half the time) small-integer axes, which are exact and make vertices
  /// on faces, edges and corners frequent; half extents from `radius` (0 flattens the box).
  OrientedBox oriented_box() {
    OrientedBox box;
    box.center = point();
    do {
      if (tie(0.5)) {
        for (Vec3& axis : box.axes) axis = normal();
      } else {
        set_rotation(box.axes, uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
      }
    } while (axes_orientation(box) == 0);
    box.half_extents = Vec3(radius(), radius(), radius());
    return box;
  }

  /// Six planes around a point of the regime, each with the point behind it: through a second
  /// point (often a lattice point, so that vertices lie exactly on planes) or at a distance
  /// `radius` along a random normal. Bounded or not, sometimes empty-ish (thin).
  Frustum frustum() {
    const Vec3 inside = point();
    Frustum frustum;
    for (Plane& plane : frustum.planes) {
      plane = tie(0.5) ? plane_through(point()) : plane_through(inside);
      if (!tie(0.5)) {
        const Vec3& n = plane.normal;
        plane.d = static_cast<float>(
            static_cast<double>(plane.d) +
            static_cast<double>(radius()) *
                static_cast<double>(std::fabs(n.x) + std::fabs(n.y) + std::fabs(n.z)));
      }
      if (plane_value(plane, inside.x, inside.y, inside.z) > 0) plane = {-plane.normal, -plane.d};
    }
    return frustum;
  }

  /// `v` with one coordinate moved by a few ulps.
  Vec3 nudged(Vec3 v) {
    float& x = v[integer(0, 2)];
    const int steps = integer(1, 4);
    const float toward = (chance(0.5) ? 1.0f : -1.0f) * std::numeric_limits<float>::max();
    for (int k = 0; k < steps; ++k) x = std::nextafter(x, toward);
    return v;
  }

 private:
  float coordinate_in(Regime regime, int axis) {
    switch (regime) {
      case Regime::lattice:
        return 0.5f * static_cast<float>(integer(-8, 8));
      case Regime::generic:
      case Regime::near_ties:
        return uniform_float(-10, 10);
      case Regime::near_million: {
        const double base = static_cast<double>(origin_[static_cast<std::size_t>(axis)]);
        return static_cast<float>(base +
                                  (chance(0.5) ? 0.0625 * integer(-64, 64) : uniform(-4, 4)));
      }
      case Regime::near_micro:
        switch (integer(0, 3)) {
          case 0:
            return 0.0f;
          case 1:
            return uniform_float(-2e-6, 2e-6);
          default:
            return static_cast<float>((chance(0.5) ? 1e-6 : -1e-6) *
                                      (1 + integer(-64, 64) * 0x1p-20));
        }
      case Regime::mixed:
        switch (integer(0, 4)) {
          case 0:
            return coordinate_in(Regime::lattice, axis);
          case 1:
            return coordinate_in(Regime::generic, axis);
          case 2:
            return coordinate_in(Regime::near_million, axis);
          case 3:
            return coordinate_in(Regime::near_micro, axis);
          default:
            return wide();
        }
    }
    return 0;
  }

  /// A float of random sign and binary magnitude 2^-24 .. 2^24.
  float wide() {
    const double mantissa = uniform(1, 2) * (chance(0.5) ? 1 : -1);
    return static_cast<float>(std::ldexp(mantissa, integer(-24, 24)));
  }

  float normal_component(int style) {
    switch (regime_) {
      case Regime::lattice:
        return static_cast<float>(integer(-3, 3));
      case Regime::mixed:
        if (chance(0.2)) return 0.0f;
        return chance(0.5) ? wide() : static_cast<float>(integer(-3, 3));
      default:
        if (style < 4) return static_cast<float>(integer(-3, 3));  // small integers
        if (chance(0.2)) return 0.0f;
        return regime_ == Regime::near_micro && style < 6 ? uniform_float(-1e-6, 1e-6)
                                                          : uniform_float(-1, 1);
    }
  }

  std::mt19937_64 rng_;
  Regime regime_ = Regime::lattice;
  std::array<float, 3> origin_ = {1e6f, 1e6f, 1e6f};
};

}  // namespace trisect::testing
