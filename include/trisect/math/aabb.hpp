#pragma once
/// \file
/// Axis-aligned bounding box: a closed set [min, max] per axis.

#include "trisect/math/vec.hpp"

#include <algorithm>

#include <glm/common.hpp>

#include <cmath>
#include <limits>

namespace trisect {

/// A closed axis-aligned box {x : min <= x <= max per axis}. A box with min == max on an axis is
/// a slab (or a face, edge or point) and is still a valid closed box. The empty box (see
/// `empty()`) has min > max and contains nothing.
struct Aabb {
  Vec3 min;  ///< Smallest corner.
  Vec3 max;  ///< Largest corner.

  /// The box with corners `a` and `b` given in any order: per axis, the smaller becomes min. A
  /// NaN coordinate in either corner makes both faces of its axis NaN, so that `validate`
  /// refuses the box (a plain min/max would drop it and return the other corner's value).
  [[nodiscard]] static Aabb from_corners(const Vec3& a, const Vec3& b) noexcept {
    Aabb box{glm::min(a, b), glm::max(a, b)};
    for (int axis = 0; axis < 3; ++axis)
      if (std::isnan(a[axis]) || std::isnan(b[axis]))
        box.min[axis] = box.max[axis] = std::numeric_limits<float>::quiet_NaN();
    return box;
  }

  /// The box [center - extents, center + extents]. The two corners are rounded to float, and
  /// the box is exactly the one between those rounded corners. Negative extents are taken by
  /// absolute value (the corners are sorted per axis).
  [[nodiscard]] static Aabb from_center_extents(const Vec3& center, const Vec3& extents) noexcept {
    return from_corners(center - extents, center + extents);
  }

  /// The empty box: min = +inf, max = -inf. Extending it by a point gives that point.
  [[nodiscard]] static Aabb empty() noexcept {
    constexpr float inf = std::numeric_limits<float>::infinity();
    return {Vec3(inf), Vec3(-inf)};
  }

  /// True for the empty box (min > max on some axis).
  [[nodiscard]] bool is_empty() const noexcept {
    return min.x > max.x || min.y > max.y || min.z > max.z;
  }

  /// Midpoint (min + max) / 2, rounded to float.
  [[nodiscard]] Vec3 center() const noexcept { return 0.5f * min + 0.5f * max; }

  /// Half the size, (max - min) / 2, rounded to float.
  [[nodiscard]] Vec3 extents() const noexcept { return 0.5f * (max - min); }

  /// Half the surface area, dx·dy + dy·dz + dz·dx with d = max - min, in float and in that
  /// order (the surface area heuristic's measure: MacDonald & Booth, "Heuristics for ray
  /// tracing using space subdivision", 1990). Only meaningful for a non-empty box.
  [[nodiscard]] float half_area() const noexcept {
    const Vec3 size = max - min;
    return size.x * size.y + size.y * size.z + size.z * size.x;
  }

  /// Grows this box to contain `point`.
  void extend(const Vec3& point) noexcept {
    min = glm::min(min, point);
    max = glm::max(max, point);
  }

  /// Grows this box to contain `other` (no change when `other` is empty).
  void extend(const Aabb& other) noexcept {
    min = glm::min(min, other.min);
    max = glm::max(max, other.max);
  }

  /// The smallest box containing this box and `other`.
  [[nodiscard]] Aabb merged(const Aabb& other) const noexcept {
    Aabb result = *this;
    result.extend(other);
    return result;
  }

  /// The common part of this box and `other` (empty, min > max somewhere, when they are
  /// disjoint).
  [[nodiscard]] Aabb intersected(const Aabb& other) const noexcept {
    return {
        {std::max(min.x, other.min.x), std::max(min.y, other.min.y), std::max(min.z, other.min.z)},
        {std::min(max.x, other.max.x), std::min(max.y, other.max.y), std::min(max.z, other.max.z)}};
  }

  /// True when `point` lies in the closed box.
  [[nodiscard]] bool contains(const Vec3& point) const noexcept {
    // Bitwise & on the comparisons: branch-free, as traversal calls this in its inner loop.
    return (min.x <= point.x) & (point.x <= max.x) & (min.y <= point.y) & (point.y <= max.y) &
           (min.z <= point.z) & (point.z <= max.z);
  }

  /// True when `other` lies entirely inside this closed box (an empty `other` always does).
  [[nodiscard]] bool contains(const Aabb& other) const noexcept {
    return other.is_empty() || (contains(other.min) & contains(other.max));
  }

  /// True when the two closed boxes share at least one point (touching counts).
  [[nodiscard]] bool overlaps(const Aabb& other) const noexcept {
    return (min.x <= other.max.x) & (other.min.x <= max.x) & (min.y <= other.max.y) &
           (other.min.y <= max.y) & (min.z <= other.max.z) & (other.min.z <= max.z);
  }

  friend bool operator==(const Aabb&, const Aabb&) = default;
};

}  // namespace trisect
