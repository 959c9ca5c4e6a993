#pragma once
/// \file
/// Oriented box: a parallelepiped given by a centre, three axes and three half extents.

#include "trisect/math/aabb.hpp"
#include "trisect/math/vec.hpp"

namespace trisect {

/// The closed solid {center + s0·axes[0] + s1·axes[1] + s2·axes[2] : |s_i| <= half_extents[i]},
/// taken exactly on the float values given: the axes need not be unit length or orthogonal (a
/// rotation matrix rounded to float is neither, and the solid is then exactly the parallelepiped
/// its floats define), but they must be linearly independent. A half extent of 0 flattens the
/// box to a parallelogram (or a segment, or the centre). Finite values, half extents >= 0,
/// independent axes (see `validate`).
struct OrientedBox {
  Vec3 center{0.0f};                                             ///< The centre.
  Vec3 axes[3] = {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};  ///< Edge directions.
  Vec3 half_extents{0.0f};  ///< Half extent along each axis, in units of that axis' length.

  friend bool operator==(const OrientedBox&, const OrientedBox&) = default;
};

/// The exact sign (-1, 0, +1) of det(axes[0], axes[1], axes[2]) = axes[0]·(axes[1] × axes[2]):
/// 0 exactly when the axes are linearly dependent. Finite axes.
[[nodiscard]] int axes_orientation(const OrientedBox& box);

/// The box's axis-aligned bounds, center ± Σ h_i |axes[i]| per coordinate, rounded outward to
/// floats: a float compares below `min` (above `max`) only when it lies below (above) every
/// point of the box. Finite box.
[[nodiscard]] Aabb bounds(const OrientedBox& box) noexcept;

}  // namespace trisect
