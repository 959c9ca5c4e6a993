#pragma once
/// \file
/// Frustum: the convex solid cut out by six planes (near, far and four sides).

#include "trisect/math/plane.hpp"

namespace trisect {

/// The closed set {x : planes[k].normal · x <= planes[k].d for every k}: the points on or
/// behind each of six planes whose normals point out of the solid, taken exactly on the float
/// values given. A camera's view frustum is its near, far, left, right, bottom and top planes;
/// any six planes are accepted (the set may then be unbounded, or empty, which touches
/// nothing). Finite values and non-zero normals (see `validate`).
struct Frustum {
  Plane planes[6] = {};  ///< Outward normals; the solid is behind every plane.

  friend bool operator==(const Frustum&, const Frustum&) = default;
};

/// The view frustum of a perspective camera at `eye` looking along `forward`, with `up` giving
/// the vertical (any vector not parallel to `forward`), the vertical field of view `fov_y` in
/// radians (0 < fov_y < π), the width-to-height ratio `aspect` > 0 and the distances
/// 0 <= near < far (far may be +inf: the far plane's offset is then clamped to FLT_MAX). Planes in
/// the order near, far, left, right, bottom, top, computed in double and rounded to float: the
/// frustum is exactly the solid of the rounded planes. Throws `std::invalid_argument` for
/// parameters outside these ranges or not finite.
[[nodiscard]] Frustum view_frustum(const Vec3& eye, const Vec3& forward, const Vec3& up,
                                   float fov_y, float aspect, float near, float far);

}  // namespace trisect
