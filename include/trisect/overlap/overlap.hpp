#pragma once
/// \file
/// Mesh against mesh: every pair of intersecting triangles of two BVHs, and of one BVH with
/// itself (self-intersections), decided exactly.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/transform.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <compare>
#include <concepts>
#include <type_traits>
#include <vector>

namespace trisect {

/// Two triangles that intersect: `a` an input id of the first mesh and `b` one of the second;
/// for self-intersections, two ids of the one mesh with a < b. Ordered by a, then b.
struct TrianglePair {
  TriangleId a = 0;  ///< Input id in the first mesh.
  TriangleId b = 0;  ///< Input id in the second mesh (self: the larger id).

  friend auto operator<=>(const TrianglePair&, const TrianglePair&) = default;
};

/// Called with each intersecting pair's input ids (a, b); returns false to stop.
template <class Visit>
concept PairVisitor = requires(Visit& visit, TriangleId a, TriangleId b) {
  { visit(a, b) } -> std::convertible_to<bool>;
};

/// Options of the collecting forms.
struct OverlapOptions {
  /// Worker threads: 0 means all the machine has, 1 .. `max_threads` at most that many (never
  /// more than it runs at once); another value throws `InvalidInput`. The answer is the same
  /// for any value.
  unsigned threads = 0;
};

namespace detail {
/// Type-erased visitor of the traversal in src/overlap/overlap.cpp.
using PairCallback = bool (*)(void* context, TriangleId a, TriangleId b);
bool visit_intersecting_pairs(const Bvh& a, const Bvh& b, const Transform& b_to_a,
                              PairCallback callback, void* context);
bool visit_self_intersections(const Bvh& bvh, PairCallback callback, void* context);

template <class Visit>
bool call_visitor(void* context, TriangleId a, TriangleId b) {
  return static_cast<bool>((*static_cast<Visit*>(context))(a, b));
}
}  // namespace detail

/// Calls `visit(a, b)` once for every triangle a of `first` and b of `second` whose closed
/// triangles share a point, decided exactly (`intersects` of triangle_triangle.hpp), after
/// mapping every vertex of `second` by `second_to_first` (`Transform::apply`: rounded to
/// float once per coordinate; the exact test applies to those floats; the mesh is not
/// copied). In no particular order, until `visit` returns false; returns false when stopped.
/// Simultaneous depth-first descent of both trees, splitting the node with the larger box
/// first, boxes of `second` mapped with outward rounding so that no pair is lost; a triangle is
/// tested against the other side's leaf box (exact separating-axis test) before the pairwise
/// test. Single-threaded. Throws `InvalidInput` when the transform has a non-finite number or
/// maps a vertex of `second` to infinity.
template <PairVisitor Visit>
bool for_each_intersecting_pair(const Bvh& first, const Bvh& second,
                                const Transform& second_to_first, Visit&& visit) {
  using Stored = std::remove_reference_t<Visit>;
  return detail::visit_intersecting_pairs(first, second, second_to_first,
                                          &detail::call_visitor<Stored>, &visit);
}

/// Every intersecting pair (see `for_each_intersecting_pair`), sorted by a then b. Parallel
/// over pairs of subtrees with TBB; the answer does not depend on the thread count.
[[nodiscard]] std::vector<TrianglePair> collect_intersecting_pairs(
    const Bvh& first, const Bvh& second, const Transform& second_to_first = {},
    const OverlapOptions& options = {});

/// True when some pair intersects; stops at the first found.
[[nodiscard]] bool any_intersecting_pair(const Bvh& first, const Bvh& second,
                                         const Transform& second_to_first = {});

/// Calls `visit(a, b)` with a < b once for every pair of distinct triangles of `bvh` that
/// intersect outside what they share (`intersects_beyond_shared_vertices` of
/// self_overlap.hpp: common vertex positions are exactly equal coordinates, whatever the
/// input's indices), until `visit` returns false; returns false when stopped.
/// Single-threaded.
template <PairVisitor Visit>
bool for_each_self_intersection(const Bvh& bvh, Visit&& visit) {
  using Stored = std::remove_reference_t<Visit>;
  return detail::visit_self_intersections(bvh, &detail::call_visitor<Stored>, &visit);
}

/// Every self-intersecting pair (see `for_each_self_intersection`), sorted by a then b.
/// Parallel like `collect_intersecting_pairs`. Like `for_each_self_intersection`, it first
/// computes each triangle's bounds and plane in float once (84 bytes a triangle, freed on
/// return): a self query meets every leaf many times. Neighbouring triangles (sharing a vertex
/// or an edge) are mostly decided four at a time by a float filter with a proven error bound,
/// the exact rule only where it cannot decide; the answer is the exact rule's.
[[nodiscard]] std::vector<TrianglePair> self_intersections(const Bvh& bvh,
                                                           const OverlapOptions& options = {});

/// `self_intersections` of a soup: builds its BVH first (throws `InvalidInput` for an invalid
/// soup). An indexed mesh and the same triangles as a plain soup give the same answer.
[[nodiscard]] std::vector<TrianglePair> self_intersections(const TriangleSoup& soup,
                                                           const OverlapOptions& options = {});

}  // namespace trisect
