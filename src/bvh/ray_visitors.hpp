#pragma once
// The ray queries as visitors of the ordered walk (ordered_walk.hpp): closest hit, any hit and
// every hit, each over a wide slab test `Slabs` (wide_ray_slabs.hpp) that chooses the kernel.
// Internal to the library; compiled with -ffp-contract=off like the slab tests.
#include "wide_ray_slabs.hpp"

#include "ray_walk.hpp"
#include "trisect/bvh/bvh.hpp"

#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/bvh/ray_query.hpp"
#include "trisect/geometry/ray_edge_filter.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/detail/float_rounding.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

namespace trisect::detail {

/// What every ray visitor shares: the per-ray constants, the node test under a bound that
/// starts at t_max and may shrink, and the leaf loop. The ray is valid and t_min <= t_max.
template <class Slabs>
class RayVisitor {
 public:
  RayVisitor(const Bvh& bvh, const Ray& ray) noexcept
      : bvh_(&bvh), ray_(ray), slabs_(Slabs::of(ray)), cull_max_(ray.t_max) {}

  /// The leaf test reads `Bvh::ray_leaves` first when the tree has them (for the walk's
  /// prefetch).
  static constexpr bool reads_ray_leaves = true;

  /// Boxes entered beyond this parameter cannot hold a hit the query still wants.
  [[nodiscard]] float bound() const noexcept { return cull_max_; }

  /// The children the ray enters within [t_min, bound()]; `near` (32-byte aligned) receives
  /// their entry parameters.
  template <class Node>
  unsigned enter(const Node& node, float (&near)[WideNode::width]) const noexcept {
    return slabs_.children(node, ray_.t_min, cull_max_, near);
  }

 protected:
  /// Runs the exact test on the triangles of `group` (its first slot `first`) whose bits
  /// `possible` sets, calling `on_hit` for each hit; false when `on_hit` stopped.
  template <class OnHit>
  static bool test_possible(const Ray& ray, const RayShear& shear, std::uint32_t first,
                            const TriangleGroup& group, unsigned possible, OnHit& on_hit) {
    for (unsigned bits = possible; bits != 0; bits &= bits - 1) {
      const int lane = std::countr_zero(bits);
      const Triangle triangle = group.triangle(lane);
      const auto hit = intersect_possible(ray, shear, triangle);
      if (hit && !on_hit(first + static_cast<std::uint32_t>(lane), triangle, *hit)) return false;
    }
    return true;
  }

  /// Calls `on_hit(slot, triangle, hit)` for each triangle of slots [begin, end) the ray hits
  /// exactly in [t_min, t_max], four triangles at a time through the float pre-test; stops when
  /// it returns false. Returns false when stopped.
  template <class OnHit>
  bool test_slots(std::uint32_t begin, std::uint32_t end, OnHit&& on_hit) {
    // The shear constants on the first leaf: a ray that reaches none (most rays that miss)
    // never pays for their divisions.
    if (!has_shear_) {
      shear_ = RayShear::of(ray_);
      has_shear_ = true;
    }
    // Copies, so that the out-of-line tests below see these and not the visitor, whose values
    // (the bound above all) can then stay in registers.
    const Ray ray = ray_;
    const RayShear shear = shear_;
    if (has_ray_leaves_)
      return bvh_->triangles.for_each_group(
          begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
            return test_possible(ray, shear, first, group,
                                 possible_hits(ray, shear, bvh_->ray_leaves.group(first, end)),
                                 on_hit);
          });
    return bvh_->triangles.for_each_group(
        begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
          return test_possible(ray, shear, first, group, possible_hits(ray, shear, group), on_hit);
        });
  }

  const Bvh* bvh_;
  Ray ray_;
  Slabs slabs_;
  RayShear shear_{};
  bool has_shear_ = false;
  bool has_ray_leaves_ = bvh_->has_ray_leaves();
  float cull_max_;  // culls boxes only; the triangle test keeps the ray's own bounds
};

/// The hit with the smallest exact t: each hit's t is compared with the best one's exactly
/// where their approximations overlap, and boxes entered beyond the best are culled.
template <class Slabs>
class ClosestHitVisitor : public RayVisitor<Slabs> {
 public:
  using RayVisitor<Slabs>::RayVisitor;

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    this->test_slots(
        begin, end,
        [this](std::uint32_t slot, const Triangle& triangle, const RayTriangleHit& hit) {
          if (best_ && !is_nearer(hit, triangle)) return true;
          best_ = hit;
          best_slot_ = slot;
          // The answer reads the id of this slot; ask for it now, while the walk goes on (it
          // missed the cache at the end of most incoherent rays).
          __builtin_prefetch(this->bvh_->ids.data() + slot);
          best_triangle_ = triangle;
          this->cull_max_ = std::min(this->cull_max_, float_at_least(hit.t + hit.t_error));
          return true;
        });
    return true;
  }

  /// The answer once the walk is over.
  [[nodiscard]] std::optional<Hit> result() const noexcept {
    if (!best_) return std::nullopt;
    return Hit{best_->t, this->bvh_->ids[best_slot_], best_->u, best_->v};
  }

 private:
  // Exact: the ray meets `triangle` (hit `hit`) strictly before the best so far.
  bool is_nearer(const RayTriangleHit& hit, const Triangle& triangle) const {
    if (hit.t + hit.t_error < best_->t - best_->t_error) return true;
    if (hit.t - hit.t_error > best_->t + best_->t_error) return false;
    return compare_exact_parameters(this->ray_, best_triangle_, triangle) < 0;
  }

  std::optional<RayTriangleHit> best_;
  std::uint32_t best_slot_ = 0;
  Triangle best_triangle_{};
};

/// Whether the ray hits anything: stops at the first hit.
template <class Slabs>
class AnyHitVisitor : public RayVisitor<Slabs> {
 public:
  using RayVisitor<Slabs>::RayVisitor;

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    found_ = !this->test_slots(
        begin, end, [](std::uint32_t, const Triangle&, const RayTriangleHit&) { return false; });
    return !found_;
  }

  /// The answer once the walk is over.
  [[nodiscard]] bool result() const noexcept { return found_; }

 private:
  bool found_ = false;
};

/// Every hit, handed to a callback that may stop the walk.
template <class Slabs>
class EveryHitVisitor : public RayVisitor<Slabs> {
 public:
  EveryHitVisitor(const Bvh& bvh, const Ray& ray, HitCallback on_hit) noexcept
      : RayVisitor<Slabs>(bvh, ray), on_hit_(on_hit) {}

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    completed_ = this->test_slots(
        begin, end, [this](std::uint32_t slot, const Triangle&, const RayTriangleHit& hit) {
          return on_hit_(Hit{hit.t, this->bvh_->ids[slot], hit.u, hit.v});
        });
    return completed_;
  }

  /// False when the callback stopped the walk.
  [[nodiscard]] bool result() const noexcept { return completed_; }

 private:
  HitCallback on_hit_;
  bool completed_ = true;
};

/// Walks `visitor`'s ray through `bvh`: on its float ray nodes when it has them
/// (`ray_walk`), on the wide nodes otherwise (`ordered_walk`); the same children and the same
/// answers either way. Always inlined, so that the walk is compiled for the caller's
/// instruction set.
template <WalkOrder order, class Visitor>
[[gnu::always_inline]] inline void walk_ray_nodes(const Bvh& bvh, Visitor& visitor,
                                                  QueryStats* stats = nullptr) {
  if (bvh.has_ray_nodes())
    ray_walk<order>(bvh, visitor, stats);
  else
    ordered_walk<order>(bvh, visitor, stats);
}

}  // namespace trisect::detail
