#pragma once
/// \file
/// An affine map x -> R·x + T with the rounding rule of `trisect overlap --transform`.

#include "trisect/math/vec.hpp"

#include <array>

namespace trisect {

/// The affine map x -> R·x + T, given as 12 floats row by row: R00 R01 R02 T0, R10 R11 R12 T1,
/// R20 R21 R22 T2 (the order of `trisect overlap --transform`). Any matrix is allowed (not only
/// rotations).
struct Transform {
  std::array<float, 12> rows{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};  ///< Identity by default.

  /// The identity map.
  [[nodiscard]] static Transform identity() noexcept { return {}; }

  /// True for the identity (exactly these 12 numbers).
  [[nodiscard]] bool is_identity() const noexcept { return rows == identity().rows; }

  /// The image of `point`: each coordinate computed in double as
  /// ((R_r0·x + R_r1·y) + R_r2·z) + T_r, every operation rounded (no fused multiply-add), then
  /// rounded to float once. An overflowing coordinate comes out infinite.
  [[nodiscard]] Vec3 apply(const Vec3& point) const noexcept;

  friend bool operator==(const Transform&, const Transform&) = default;
};

/// Throws `InvalidInput` unless all 12 numbers are finite. `what` names the value.
void validate(const Transform& transform, const char* what = "transform");

}  // namespace trisect
