#pragma once
/// \file
/// The box, point, ball and ray queries of `Broadphase` and its nearest-first cast: the templates
/// `broadphase.hpp` declares, which it includes from here. Each asks both layers' trees and
/// tests the proxies' own boxes (exactly, for balls and rays). Not part of the API (no
/// stability promised).

#include "trisect/broadphase/broadphase.hpp"
#include "trisect/broadphase/detail/ray_box_filter.hpp"
#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/broadphase/proxy.hpp"
#include "trisect/broadphase/ray_cursor.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/sphere.hpp"
#include "trisect/math/validate.hpp"

#include <limits>

namespace trisect {

template <ProxyVisitor Visit>
inline bool Broadphase::query(const Aabb& box, Visit&& visit) const {
  for (const DynamicAabbTree& tree : trees_) {
    const bool finished = tree.query(box, [&](ProxyId node) {
      const auto id = static_cast<ProxyId>(tree.user_data_unchecked(node));
      return !boxes_[id].overlaps(box) || visit(id);
    });
    if (!finished) return false;
  }
  return true;
}

template <ProxyVisitor Visit>
inline bool Broadphase::query(const Aabb& box, const ProxyQueryFilter& filter,
                              Visit&& visit) const {
  return query(box, [&](ProxyId id) { return !passes(filter, id) || visit(id); });
}

template <ProxyVisitor Visit>
inline bool Broadphase::query(const Vec3& point, const ProxyQueryFilter& filter,
                              Visit&& visit) const {
  return query(Aabb{point, point}, filter, visit);
}

template <ProxyVisitor Visit>
inline bool Broadphase::query(const Sphere& ball, const ProxyQueryFilter& filter,
                              Visit&& visit) const {
  return query(bounds_of(ball), filter,
               [&](ProxyId id) { return !ball_meets_box(ball, boxes_[id]) || visit(id); });
}

template <ProxyVisitor Visit>
inline bool Broadphase::query(const Ray& ray, const ProxyQueryFilter& filter, Visit&& visit) const {
  const detail::RayBoxFilter boxes_met(ray);
  for (const DynamicAabbTree& tree : trees_) {
    const bool finished = tree.query(ray, [&](ProxyId node) {
      const auto id = static_cast<ProxyId>(tree.user_data_unchecked(node));
      return !passes(filter, id) || !boxes_met.meets(boxes_[id]) || visit(id);
    });
    if (!finished) return false;
  }
  return true;
}

template <class Visit>
inline float Broadphase::cast(const Ray& ray, const ProxyQueryFilter& filter, Visit&& visit) const {
  trisect::validate(ray);
  TreeRayCursor cursors[2] = {{trees_[0], ray}, {trees_[1], ray}};
  // The next proxy of the nearer cursor that passes and whose own box meets the ray.
  const auto next = [&](const Ray& current) {
    for (;;) {
      const int nearer = cursors[1].next_entry() < cursors[0].next_entry() ? 1 : 0;
      if (cursors[nearer].next_entry() == std::numeric_limits<double>::infinity())
        return TreeRayCursor::null;
      const ProxyId node = cursors[nearer].next(current);
      if (node == TreeRayCursor::null) continue;
      const auto id = static_cast<ProxyId>(trees_[nearer].user_data_unchecked(node));
      if (passes(filter, id) && DynamicAabbTree::ray_meets(current, boxes_[id])) return id;
    }
  };
  return detail::run_cast(ray, next, visit);
}

}  // namespace trisect
