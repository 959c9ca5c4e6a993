#pragma once
/// \file
/// Closest-hit and any-hit rays.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/validate.hpp"

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

namespace detail {

/// Ordered depth-first ray traversal: nearer child first, subtrees beyond the current t_max
/// skipped. `on_hit(hit)` returns false to stop; it may lower `t_max` through the reference.
template <class OnHit>
void traverse_ray(const Bvh& bvh, Ray ray, OnHit&& on_hit, QueryStats* stats) {
  if (bvh.empty() || !(ray.t_min <= ray.t_max)) return;
  const RaySlabs slabs = RaySlabs::of(ray);
  const RayShear shear = RayShear::of(ray);
  const std::uint64_t fallbacks_before = exact::fallback_count();
  QueryStats local;
  struct Entry {
    std::uint32_t index;
    float near;
  };
  std::array<Entry, max_bvh_depth + 1> stack;
  std::size_t top = 0;
  float near = 0;
  if (slabs.overlaps(bvh.nodes[0].bounds, ray.t_min, ray.t_max, near)) stack[top++] = {0, near};
  while (top > 0) {
    const Entry entry = stack[--top];
    if (entry.near > ray.t_max) continue;
    std::uint32_t index = entry.index;
    bool stop = false;
    while (true) {
      const BvhNode& node = bvh.nodes[index];
      ++local.nodes_visited;
      if (node.is_leaf()) {
        for (std::uint32_t slot = node.first; slot < node.first + node.count && !stop; ++slot) {
          ++local.triangles_tested;
          const auto hit = intersect(ray, shear, bvh.triangles[slot]);
          if (hit) stop = !on_hit(Hit{hit->t, bvh.ids[slot], hit->u, hit->v}, ray.t_max);
        }
        break;
      }
      const std::uint32_t left = index + 1, right = node.first;
      float near_left = 0, near_right = 0;
      const bool hit_left = slabs.overlaps(bvh.nodes[left].bounds, ray.t_min, ray.t_max, near_left);
      const bool hit_right =
          slabs.overlaps(bvh.nodes[right].bounds, ray.t_min, ray.t_max, near_right);
      if (hit_left && hit_right) {
        const bool left_first = near_left <= near_right;
        stack[top++] = left_first ? Entry{right, near_right} : Entry{left, near_left};
        index = left_first ? left : right;
      } else if (hit_left || hit_right) {
        index = hit_left ? left : right;
      } else {
        break;
      }
    }
    if (stop) break;
  }
  if (stats != nullptr) {
    stats->nodes_visited += local.nodes_visited;
    stats->triangles_tested += local.triangles_tested;
    stats->exact_fallbacks += exact::fallback_count() - fallbacks_before;
  }
}

}  // namespace detail

/// The nearest hit of `ray` for t in the closed interval [t_min, t_max] on a triangle of
/// non-zero area, watertight; nothing when it misses (also when t_min > t_max). Among hits at
/// equal t any may be returned. Throws `InvalidInput` for NaN/Inf or a zero direction.
[[nodiscard]] inline std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray,
                                                    QueryStats* stats = nullptr) {
  validate(ray, "ray query");
  std::optional<Hit> best;
  detail::traverse_ray(
      bvh, ray,
      [&best](const Hit& hit, float& t_max) {
        best = hit;
        t_max = hit.t;
        return true;
      },
      stats);
  return best;
}

/// True when `ray` hits any triangle of non-zero area for t in [t_min, t_max]; stops at the
/// first hit found. Throws `InvalidInput` like `closest_hit`.
[[nodiscard]] inline bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats = nullptr) {
  validate(ray, "ray query");
  bool found = false;
  detail::traverse_ray(
      bvh, ray,
      [&found](const Hit&, float&) {
        found = true;
        return false;
      },
      stats);
  return found;
}

}  // namespace trisect
