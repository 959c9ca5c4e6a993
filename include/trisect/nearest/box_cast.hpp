#pragma once
/// \file
/// Box casts: the first triangle a translated oriented box touches.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/oriented_box.hpp"

#include <optional>
#include <span>
#include <vector>

namespace trisect {

/// The first contact of a cast: the time t in [0, 1] (the exact time rounded to the nearest
/// float) and the triangle touched then.
struct BoxCastHit {
  float t = 0;        ///< The first time of contact, rounded to the nearest float.
  TriangleId id = 0;  ///< The triangle touched at that time; the smallest id on exact ties.

  friend bool operator==(const BoxCastHit&, const BoxCastHit&) = default;
};

/// Casts `box` along `motion`: the smallest t in [0, 1] at which box + t·motion touches a
/// triangle (closed sets; t = 0 when it touches one at the start), and that triangle, the
/// smallest id among those touched first; nothing when it touches none for t in [0, 1]. The
/// times are compared exactly (`first_contact` of geometry/box_cast.hpp), so the triangle is
/// the exact answer; t is then rounded to the nearest float. A visitor of the ordered walk whose
/// keys are lower bounds of the time at which the swept bounds of the box reach a child's box.
/// Throws `InvalidInput` for an invalid box (`validate`) or a motion that is not finite.
[[nodiscard]] std::optional<BoxCastHit> cast_box(const Bvh& bvh, const OrientedBox& box,
                                                 const Vec3& motion);

/// `result[i] = cast_box(bvh, boxes[i], motions[i])` for every i, split among TBB's threads.
/// Every box and motion is checked first (an invalid one throws `InvalidInput` naming its
/// index); `boxes` and `motions` must have the same length (`InvalidInput` otherwise).
[[nodiscard]] std::vector<std::optional<BoxCastHit>> cast_boxes(const Bvh& bvh,
                                                                std::span<const OrientedBox> boxes,
                                                                std::span<const Vec3> motions);

}  // namespace trisect
