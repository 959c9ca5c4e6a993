#pragma once
/// \file
/// Exact rational oracle of box casts: the first time a translated oriented box touches a
/// triangle, in GMP rationals, by the separating-axis intervals (each of the 13 axes gives the
/// closed interval of t over which the projections overlap; the contact times are their
/// intersection with [0, 1]), written independently of the library's filtered version.

#include "support/exact_oracle.hpp"

#include <trisect/math/oriented_box.hpp>

#include <optional>

namespace trisect::oracle {

/// The exact first t in [0, 1] at which box + t·motion touches the closed triangle, or none.
[[nodiscard]] std::optional<mpq_class> first_contact(const Triangle& triangle,
                                                     const OrientedBox& box, const Vec3& motion);

/// The box moved by t·motion touches the triangle, decided by clipping (`touches_box_at`).
[[nodiscard]] bool touches_moved(const Triangle& triangle, const OrientedBox& box,
                                 const Vec3& motion, const mpq_class& t);

/// The float nearest to `q` (ties to even), decided exactly.
[[nodiscard]] float nearest_float(const mpq_class& q);

}  // namespace trisect::oracle
