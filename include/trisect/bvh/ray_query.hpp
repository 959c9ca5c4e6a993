#pragma once
/// \file
/// Closest-hit and any-hit rays.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/math/ray.hpp"

#include <concepts>
#include <memory>
#include <optional>
#include <type_traits>

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
/// and thread-safe. Uses 8-lane node tests compiled for AVX-512 (F and VL) or AVX2 and FMA where
/// the processor has them (chosen once, at run time), 4-lane SSE ones otherwise, and walks
/// `Bvh::ray_nodes` when the tree has them; every choice gives the same answers.
[[nodiscard]] std::optional<Hit> closest_hit(const Bvh& bvh, const Ray& ray,
                                             QueryStats* stats = nullptr);

/// True when `ray` hits any triangle of non-zero area for t in [t_min, t_max], exactly as
/// `closest_hit` decides hits; stops at the first hit found. Throws `InvalidInput` like
/// `closest_hit`.
[[nodiscard]] bool any_hit(const Bvh& bvh, const Ray& ray, QueryStats* stats = nullptr);

namespace detail {

/// A reference to a caller's callable `bool(const Hit&)`, which must outlive it (the callable
/// behind `for_each_hit`, without making the ray kernels templates).
class HitCallback {
 public:
  template <class Visit>
  requires(!std::is_same_v<std::remove_cvref_t<Visit>, HitCallback>) explicit HitCallback(
      Visit& visit) noexcept
      : context_(const_cast<void*>(static_cast<const void*>(std::addressof(visit)))),
        call_([](void* context, const Hit& hit) {
          return static_cast<bool>((*static_cast<Visit*>(context))(hit));
        }) {}
  bool operator()(const Hit& hit) const { return call_(context_, hit); }

 private:
  void* context_;
  bool (*call_)(void*, const Hit&);
};

/// `for_each_hit` behind its template.
bool for_each_hit(const Bvh& bvh, const Ray& ray, HitCallback visit, QueryStats* stats);

}  // namespace detail

/// Calls `visit(hit)` for every triangle of non-zero area that `ray` hits for t in
/// [t_min, t_max], exactly as `closest_hit` decides hits, once per triangle, in no particular
/// order (roughly nearest first), until `visit` returns false. Returns false when stopped, true
/// otherwise. Throws `InvalidInput` like `closest_hit`; exceptions from `visit` pass through.
template <class Visit>
requires std::predicate<Visit&, const Hit&>
bool for_each_hit(const Bvh& bvh, const Ray& ray, Visit&& visit, QueryStats* stats = nullptr) {
  return detail::for_each_hit(bvh, ray, detail::HitCallback(visit), stats);
}

}  // namespace trisect
