#pragma once
/// \file
/// Exact time of first contact of a translated oriented box with a triangle.

#include "trisect/math/oriented_box.hpp"
#include "trisect/math/triangle.hpp"

#include <optional>

namespace trisect {

/// The smallest t in [0, 1] at which the closed box moved by t·motion (the solid `box` plus
/// t·motion) touches the closed triangle, rounded to the nearest float (ties to even); 0 when
/// they touch at the start; nothing when they never touch for t in [0, 1]. The time is decided
/// exactly (a ratio of polynomials in the inputs, compared without rounding); only the printed
/// value is rounded. Valid box (`validate`), finite triangle and motion.
[[nodiscard]] std::optional<float> first_contact(const Triangle& triangle, const OrientedBox& box,
                                                 const Vec3& motion);

}  // namespace trisect
