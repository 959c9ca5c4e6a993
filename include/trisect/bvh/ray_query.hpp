#pragma once
/// \file
/// Closest-hit and any-hit rays.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#include <bit>
#include <cstring>

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

/// The slab test of `RaySlabs` for all children of a wide node at once, with the same
/// conservative widening and the same treatment of NaN (an axis the ray does not move along
/// and whose plane holds the origin does not constrain it). Each axis's entry and exit rows
/// are picked once per ray by the direction's sign, so an empty (unused) lane always misses.
struct WideRaySlabs {
  Float4 origin[3];
  Float4 inverse[3];
  int entry_row[3];
  int exit_row[3];
  bool nonnegative_t;  // t_min >= 0: every entry is >= 0, widening is one multiplication

  [[nodiscard]] static WideRaySlabs of(const RaySlabs& slabs, float t_min) noexcept {
    WideRaySlabs wide{};
    for (int axis = 0; axis < 3; ++axis) {
      wide.origin[axis] = Float4::splat(slabs.origin[axis]);
      wide.inverse[axis] = Float4::splat(slabs.inverse[axis]);
      wide.entry_row[axis] = 2 * axis + (slabs.negative[axis] ? 1 : 0);
      wide.exit_row[axis] = 2 * axis + (slabs.negative[axis] ? 0 : 1);
    }
    wide.nonnegative_t = t_min >= 0;
    return wide;
  }

  /// Bit i set when the ray, for t in [t_min, t_max], may touch child i; `near[i]` receives
  /// its entry parameter.
  [[nodiscard]] unsigned children(const WideNode& node, float t_min, float t_max,
                                  float (&near)[WideNode::width]) const noexcept {
    unsigned mask = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 entered = Float4::splat(t_min), exited = Float4::splat(t_max);
      for (int axis = 0; axis < 3; ++axis) {
        const Float4 entry =
            (Float4::load(node.bounds[entry_row[axis]] + 4 * group) - origin[axis]) * inverse[axis];
        const Float4 exit =
            (Float4::load(node.bounds[exit_row[axis]] + 4 * group) - origin[axis]) * inverse[axis];
        entered = max_ignoring_nan(entry, entered);
        exited = min_ignoring_nan(exit, exited);
      }
      widen(entered, exited);
      std::memcpy(near + 4 * group, &entered, 4 * sizeof(float));
      mask |= less_equal_mask(entered, exited) << (4 * group);
    }
    return mask;
  }

 private:
  // Moves [entered, exited] outwards by `RaySlabs::relative_slack` of each end's magnitude.
  // With t_min >= 0, entered >= 0 and the lower end scales down by (1 - slack); a negative
  // exited scaled by (1 + slack) moves inwards instead, but stays below entered either way,
  // so the answer (a miss) is the same.
  void widen(Float4& entered, Float4& exited) const noexcept {
    const Float4 slack = Float4::splat(RaySlabs::relative_slack);
    if (nonnegative_t) {
      entered = entered * Float4::splat(1.0f - RaySlabs::relative_slack);
      exited = exited * Float4::splat(1.0f + RaySlabs::relative_slack);
    } else {
      entered = entered - abs(entered) * slack;
      exited = exited + abs(exited) * slack;
    }
  }
};

/// Throws like `validate(ray, "ray query")`, with a check inlined for the valid case: a ray is
/// cheap to answer, and the message-building call costs as much as a short traversal.
inline void require_valid(const Ray& ray) {
  if (!is_finite(ray.origin) || !is_finite(ray.direction) || ray.direction == Vec3(0.0f) ||
      std::isnan(ray.t_min) || std::isnan(ray.t_max))
    validate(ray, "ray query");  // throws with the details
}

/// Asks for the memory of a child about to be stacked: a wide node's cache lines, or a
/// leaf's first triangles. Random rays spend most of their time waiting for nodes otherwise.
inline void prefetch(const Bvh& bvh, std::uint32_t child, std::uint32_t first_slot) noexcept {
  if (child == WideNode::leaf) {
    const char* at = reinterpret_cast<const char*>(bvh.triangles.data() + first_slot);
    __builtin_prefetch(at);
    __builtin_prefetch(at + 64);
    return;
  }
  const char* at = reinterpret_cast<const char*>(bvh.wide.data() + child);
  for (std::size_t line = 0; line < sizeof(WideNode); line += 64) __builtin_prefetch(at + line);
}

/// Ordered depth-first ray traversal over the wide nodes: the children a ray enters are
/// visited nearest entry first, and subtrees that begin beyond the current t_max are skipped.
/// `on_hit(hit, t_max)` returns false to stop; it may lower `t_max`.
template <class OnHit>
void traverse_ray(const Bvh& bvh, Ray ray, OnHit&& on_hit, QueryStats* stats) {
  if (bvh.empty() || !(ray.t_min <= ray.t_max)) return;
  const RaySlabs slabs = RaySlabs::of(ray);
  const WideRaySlabs wide_slabs = WideRaySlabs::of(slabs, ray.t_min);
  const RayShear shear = RayShear::of(ray);
  const std::uint64_t fallbacks_before = stats != nullptr ? exact::fallback_count() : 0;
  QueryStats local;
  struct Entry {
    std::uint32_t child;  // a wide node's index, or WideNode::leaf
    std::uint32_t begin, end;
    float near;
  };
  std::array<Entry, WideNode::width*(max_bvh_depth + 1)> stack;
  std::size_t top = 0;
  Entry current{0, 0, static_cast<std::uint32_t>(bvh.size()), 0};
  bool have_current = slabs.overlaps(bvh.nodes[0].bounds, ray.t_min, ray.t_max, current.near);
  while (have_current) {
    if (current.near <= ray.t_max) {
      if (current.child == WideNode::leaf) {
        for (std::uint32_t slot = current.begin; slot < current.end; ++slot) {
          ++local.triangles_tested;
          const auto hit = intersect(ray, shear, bvh.triangles[slot]);
          if (hit && !on_hit(Hit{hit->t, bvh.ids[slot], hit->u, hit->v}, ray.t_max)) {
            have_current = false;
            break;
          }
        }
        if (!have_current) break;
      } else {
        const WideNode& node = bvh.wide[current.child];
        ++local.nodes_visited;
        alignas(16) float near[WideNode::width];
        const unsigned mask = wide_slabs.children(node, ray.t_min, ray.t_max, near);
        if (mask != 0 && (mask & (mask - 1)) == 0) {
          // One child entered (the common case): go on with it, no stack traffic.
          const int i = std::countr_zero(mask);
          if (node.child[i] != WideNode::unused) {
            current = {node.child[i], node.first[i], node.child_end(i, current.end), near[i]};
            continue;
          }
        } else if (mask != 0) {
          // Push the entered children farthest first (insertion by entry parameter), then
          // continue with the nearest.
          const std::size_t base = top;
          for (unsigned bits = mask; bits != 0; bits &= bits - 1) {
            const int i = std::countr_zero(bits);
            if (node.child[i] == WideNode::unused) continue;
            const Entry child{node.child[i], node.first[i], node.child_end(i, current.end),
                              near[i]};
            prefetch(bvh, child.child, child.begin);
            std::size_t at = top++;
            while (at > base && stack[at - 1].near < child.near) {
              stack[at] = stack[at - 1];
              --at;
            }
            stack[at] = child;
          }
        }
      }
    }
    have_current = top > 0;
    if (have_current) current = stack[--top];
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
  detail::require_valid(ray);
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
  detail::require_valid(ray);
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
