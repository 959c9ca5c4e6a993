#pragma once
/// \file
/// Rays cast nearest first into a `DynamicAabbTree`, with a `t_max` the caller shortens as it
/// finds hits (Box2D's tree ray cast, with exact box tests).

#include "trisect/broadphase/detail/ray_box_filter.hpp"
#include "trisect/broadphase/dynamic_aabb_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace trisect {

/// A ray walking a tree nearest first: a queue of the nodes and proxies whose fat boxes the ray
/// meets, ordered by an estimate of the parameter where it enters them (computed in double;
/// near ties in unspecified order). The caller may shorten the ray between steps: every entry
/// is tested again, exactly, against the ray given to `next`, so a proxy comes out only while
/// its fat box meets the ray as it is then. Valid while the tree is not changed.
class TreeRayCursor {
 public:
  /// What `next` returns when nothing is left.
  static constexpr ProxyId null = ~ProxyId{0};
  /// Starts at the root of `tree`; `ray` must be valid.
  TreeRayCursor(const DynamicAabbTree& tree, const Ray& ray);
  /// The entry estimate of the nearest queued node or proxy; +inf when none is left.
  [[nodiscard]] double next_entry() const noexcept;
  /// The next proxy whose fat box meets `ray` (the cursor's ray, perhaps with a smaller t_max),
  /// nearest first, opening the nodes before it; `null` when none is left.
  [[nodiscard]] ProxyId next(const Ray& ray);

 private:
  struct Entry {
    double entry;
    std::int32_t index;
    bool leaf;
  };
  void push(const Ray& ray, const detail::RayBoxFilter& filter, const Aabb& box, std::int32_t index,
            bool leaf);
  const DynamicAabbTree* tree_;
  std::vector<Entry> heap_;
};

namespace detail {
/// The loop of every cast: offers `next(ray)` (a proxy, or `TreeRayCursor::null` when none is
/// left) to `visit(id, t_max)`, which returns the new t_max: a smaller value shortens `ray`, a
/// larger one is ignored, one below t_min ends the cast. Returns the final t_max.
template <class Next, class Visit>
float run_cast(Ray ray, Next&& next, Visit&& visit) {
  for (ProxyId id = next(ray); id != TreeRayCursor::null; id = next(ray)) {
    const float t_max = visit(id, ray.t_max);
    if (t_max < ray.t_min) return t_max;
    ray.t_max = std::min(ray.t_max, t_max);
  }
  return ray.t_max;
}
}  // namespace detail

/// Casts `ray` into `tree` nearest first: calls `visit(id, t_max)` for each proxy whose fat box
/// meets the ray between its t_min and the current t_max, in increasing order of the estimated
/// entry parameter (see `TreeRayCursor`). `visit` returns the new t_max: a smaller value
/// shortens the ray for every proxy after it (a closest-hit search returns its hit's t), a
/// larger one is ignored, and a value below t_min ends the cast. Returns the final t_max.
/// Throws `InvalidInput` for a bad ray.
template <class Visit>
float cast(const DynamicAabbTree& tree, const Ray& ray, Visit&& visit) {
  trisect::validate(ray);
  TreeRayCursor cursor(tree, ray);
  return detail::run_cast(
      ray, [&](const Ray& current) { return cursor.next(current); }, visit);
}

}  // namespace trisect
