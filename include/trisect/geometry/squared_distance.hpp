#pragma once
/// \file
/// Exact squared distances between the simple parts of triangles (points, the lines through
/// edges, the planes through faces), each a fraction of two polynomials in the float
/// coordinates: bounded in double, compared exactly, evaluated to a few units in the last place.
/// The home of every "which is nearer" decision of the nearest queries.

#include "trisect/math/exact.hpp"
#include "trisect/math/triangle.hpp"

#include <array>
#include <cstdint>

namespace trisect {

/// Which fraction a `SquaredDistance` is (numerator / denominator, n = (b - a) × (c - a)).
enum class DistanceForm : std::uint8_t {
  /// Points {p, q}: |p - q|² / 1.
  point_point,
  /// Points {p, u, v}, u ≠ v: from p to the line through u and v,
  /// |(v - u) × (p - u)|² / |v - u|².
  point_line,
  /// Points {p, a, b, c}, not collinear: from p to their plane, ((p - a)·n)² / |n|².
  point_plane,
  /// Points {p0, p1, q0, q1}: between the line through p0, p1 and the one through q0, q1, not
  /// parallel: ((q0 - p0)·m)² / |m|² with m = (p1 - p0) × (q1 - q0).
  line_line,
};

/// An exact squared distance: `form` applied to `points`, whose floats are used exactly.
struct SquaredDistance {
  DistanceForm form = DistanceForm::point_point;  ///< Which fraction.
  std::array<Vec3, 4> points{};                   ///< Its points, as `DistanceForm` lists them.

  /// The squared distance between two points.
  [[nodiscard]] static SquaredDistance between(const Vec3& p, const Vec3& q) noexcept {
    return {DistanceForm::point_point, {p, q, Vec3(0.0f), Vec3(0.0f)}};
  }
  /// radius², exactly (radius >= 0).
  [[nodiscard]] static SquaredDistance of_radius(float radius) noexcept {
    return between(Vec3(0.0f), Vec3(radius, 0.0f, 0.0f));
  }
};

/// Bounds in double of an exact squared distance: lower <= exact <= upper (upper may be +inf).
struct DistanceBounds {
  double lower = 0;  ///< At most the exact value, >= 0.
  double upper = 0;  ///< At least the exact value.
};

/// Bounds of `distance` from its fast double evaluation and that evaluation's proven error
/// bound (exact.hpp): a few units in the last place apart unless the fraction nearly cancels.
[[nodiscard]] DistanceBounds bounds_of(const SquaredDistance& distance) noexcept;

/// The sign (-1, 0, +1) of the exact value of `a` minus that of `b`, given their bounds
/// (`bounds_of`): decided by the bounds when they are apart, otherwise exactly (big-integer
/// arithmetic, which covers every float from subnormals to FLT_MAX).
[[nodiscard]] int compare(const SquaredDistance& a, const DistanceBounds& a_bounds,
                          const SquaredDistance& b, const DistanceBounds& b_bounds);

/// A distance limit d >= 0 (a float) in the forms the exact comparisons use: d² in double
/// (exact: a float's square has at most 48 significant bits) and as a `SquaredDistance` with
/// its bounds.
struct DistanceLimit {
  double squared = 0;     ///< d², exactly.
  SquaredDistance form;   ///< `SquaredDistance::of_radius(d)`.
  DistanceBounds bounds;  ///< `bounds_of(form)`.

  /// The limit `distance` (finite, >= 0).
  [[nodiscard]] static DistanceLimit of(float distance) noexcept {
    const SquaredDistance form = SquaredDistance::of_radius(distance);
    return {double(distance) * double(distance), form, bounds_of(form)};
  }
  /// True when the exact `distance` (with its `bounds`) exceeds the limit.
  [[nodiscard]] bool exceeded_by(const SquaredDistance& distance,
                                 const DistanceBounds& distance_bounds) const {
    return compare(distance, distance_bounds, form, bounds) > 0;
  }
};

/// `compare` with the bounds computed here.
[[nodiscard]] int compare(const SquaredDistance& a, const SquaredDistance& b);

/// True when the exact squared distance is 0.
[[nodiscard]] bool is_zero(const SquaredDistance& distance);

/// The distance (the square root of the exact squared distance) to within a relative 2^-24;
/// exactly 0 when it is 0.
[[nodiscard]] double distance_of(const SquaredDistance& distance);

/// For a `point_*` form, the point of the line, plane or point q nearest p (p is points[0]),
/// each coordinate within a relative 2^-24 of the exact one before it is rounded to float
/// (exact when the point is q, or a coordinate is 0), and clamped into `within` (the
/// feature's bounds, which hold the exact point), so finite.
[[nodiscard]] Vec3 nearest_point_of(const SquaredDistance& distance, const Aabb& within);

}  // namespace trisect
