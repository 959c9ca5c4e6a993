#pragma once
/// \file
/// The exact ray–triangle oracle, in GMP rational arithmetic, written independently of the
/// library's watertight test: the ray's line meets the triangle's plane at one exact point,
/// whose exact barycentric weights say whether it lies in the closed triangle.

#include "support/exact_oracle.hpp"

#include <trisect/math/ray.hpp>
#include <trisect/math/triangle.hpp>

#include <optional>

namespace trisect::oracle {

/// Where a line meets a triangle's plane: origin + t·direction = (1 - u - v)·a + u·b + v·c.
struct RayCrossing {
  mpq_class t;  ///< Exact ray parameter.
  mpq_class u;  ///< Exact barycentric weight of vertex b.
  mpq_class v;  ///< Exact barycentric weight of vertex c.

  /// The point lies in the closed triangle: u, v and 1 - u - v are all >= 0.
  [[nodiscard]] bool is_inside() const;
  /// The smallest of u, v and 1 - u - v: negative outside, 0 on an edge.
  [[nodiscard]] mpq_class margin() const;
};

/// Where the ray's line (any t, the bounds ignored) meets the plane of `triangle`; nothing
/// for a zero-area triangle or a direction parallel to its plane (also a line in the plane).
[[nodiscard]] std::optional<RayCrossing> line_crossing(const Ray& ray, const Triangle& triangle);

/// t_min <= t <= t_max exactly, with infinite bounds compared as such.
[[nodiscard]] bool within_bounds(const Ray& ray, const mpq_class& t);

/// The exact hit of the ray with the closed triangle: the line crossing when it lies in the
/// triangle at t_min <= t <= t_max; nothing otherwise (zero-area and parallel triangles too).
[[nodiscard]] std::optional<RayCrossing> hit(const Ray& ray, const Triangle& triangle);

}  // namespace trisect::oracle
