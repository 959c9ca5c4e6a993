#pragma once
/// \file
/// Closest-hit and any-hit rays.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/math/ray.hpp"

#include <optional>

namespace trisect {

/// A ray hit: the triangle's input id, the ray parameter and the barycentric weights, such
/// that the point is (1 - u - v)·a + u·b + v·c of triangle `id`.
struct Hit {
  double t;       ///< Ray parameter: the exact one to within 2^-24 of it (0 when it is 0).
  TriangleId id;  ///< Input id of the hit triangle.
  float u;        ///< Weight of vertex b.
  float v;        ///< Weight of vertex c.
};

/// The nearest hit of `ray` for t in the closed interval [t_min, t_max] on a triangle of
/// non-zero area, exactly as real arithmetic on the floats decides (watertight: a ray through
/// a shared edge or vertex hits there; a ray in a triangle's plane does not hit it); nothing
/// when it misses (also when t_min > t_max). The triangle has the smallest exact t (any of
/// them when several tie). Throws `InvalidInput` for NaN/Inf or a zero direction. Const
/// and thread-safe. Uses 8-lane AVX2 node tests where the processor has AVX2 (chosen once, at
/// run time), 4-lane SSE ones otherwise; both give the same answers.
[[nodiscard]] std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray,
                                             QueryStats* stats = nullptr);

/// True when `ray` hits any triangle of non-zero area for t in [t_min, t_max], exactly as
/// `closest_hit` decides hits; stops at the first hit found. Throws `InvalidInput` like
/// `closest_hit`.
[[nodiscard]] bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats = nullptr);

}  // namespace trisect
