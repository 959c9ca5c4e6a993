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
  float t;        ///< Ray parameter of the hit, t_min <= t <= t_max.
  TriangleId id;  ///< Input id of the hit triangle.
  float u;        ///< Weight of vertex b.
  float v;        ///< Weight of vertex c.
};

/// The nearest hit of `ray` for t in the closed interval [t_min, t_max] on a triangle of
/// non-zero area, watertight; nothing when it misses (also when t_min > t_max). Among hits at
/// equal t any may be returned. Throws `InvalidInput` for NaN/Inf or a zero direction. Const
/// and thread-safe. Uses 8-lane AVX node tests where the processor has AVX (chosen once, at
/// run time), 4-lane SSE ones otherwise; both give the same answers.
[[nodiscard]] std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray,
                                             QueryStats* stats = nullptr);

/// True when `ray` hits any triangle of non-zero area for t in [t_min, t_max]; stops at the
/// first hit found. Throws `InvalidInput` like `closest_hit`.
[[nodiscard]] bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats = nullptr);

}  // namespace trisect
