#pragma once
/// \file
/// A float filter for the self-overlap rule (`intersects_beyond_shared_vertices`), four pairs at
/// a time: one triangle s against a `TriangleGroup` of up to four triangles t. It certifies the
/// usual answer of a mesh's neighbours, "they meet only in what they share", by the planes'
/// sides (below); names the neighbours across each other's planes at one shared vertex, which
/// two exact orientations decide (`straddling_meet_off_vertex`); and for a lane left, a line
/// seen along an axis may still separate them (`lane_projected_apart`, flat neighbours).
/// Everything else goes to the exact rule. Not part of the API (no stability promised).
///
/// Why a certified lane is exact. Let N = (b - a) × (c - a) be the exact normal of s and
/// side(p) = N·(p - a). Call a vertex of t shared when its position equals a vertex of s (exact
/// float ==, so -0 equals +0); a shared vertex lies in the plane of s, side = 0. Suppose every
/// vertex of t is shared or has side > 0, and one has side > 0 (or the same with < 0). A point
/// x = sum l_k t_k of t (l_k >= 0, sum 1) has side(x) = sum l_k side(t_k), which is 0 only when
/// every unshared vertex has weight 0: the only points of t in the plane of s, and so the only
/// points t may share with s, lie in the hull of the shared positions, which is what the pair
/// shares. The rule reports contact outside that hull only (and two triangles with the same
/// three positions, which are excluded: one vertex is not shared). So the rule answers false,
/// whether s has shared positions or not (none shared: t lies strictly on one side, no contact
/// at all). A zero-area s has N = 0 and is never certified, as side is exactly 0 everywhere.
///
/// The bound. side(t_k) is computed in float as Shewchuk's orient3d ("Adaptive Precision
/// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997): the differences
/// e = b - a, f = c - a, d = t_k - a rounded, the minors N_i = e_j f_l - e_l f_j, then
/// (N_x d_x + N_y d_y) + N_z d_z. Each monomial e_j f_l d_i passes through at most 8 roundings
/// (three differences, its product, the minor, the product with d, two sums), so with
/// u = 2^-24 the error is at most gamma_8 P, P the sum of the monomials' absolute values
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, §3.1). The same chain
/// computes P' = (|d_x| m_x + |d_y| m_y) + |d_z| m_z with m_i = |e_j f_l| + |e_l f_j|, so
/// P' >= (1 - gamma_8) P and the error is below 16 u P' = 2^-20 P' (twice what is needed, which
/// also covers the rounding of the bound itself). Underflow adds at most a few times
/// 2^-150 (|d_x| + |d_y| + |d_z| + 1), far below the added 2^-100 (that sum + 1), a normal
/// float; differences whose result is subnormal are exact. Overflow makes P' or the value
/// infinite or NaN (|computed value| <= P' by the monotony of rounding), and then neither
/// comparison below holds: such lanes are left to the exact rule. A fused multiply-add only
/// removes roundings, so the bound holds with or without contraction.

#include "trisect/geometry/self_overlap.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/triangle_group.hpp"

#include <cmath>

namespace trisect::detail {

/// The plane of a triangle in float for `LaneVerdicts`: its computed normal (b - a) × (c - a)
/// and, per component, |e_j f_l| + |e_l f_j| of the two products that make it.
struct FloatPlane {
  float normal[3];     ///< Component i: fl(fl(e_j f_l) - fl(e_l f_j)).
  float magnitude[3];  ///< Component i: fl(|fl(e_j f_l)| + |fl(e_l f_j)|).

  /// The plane of `t`, rounded as the file's analysis says.
  [[nodiscard]] static FloatPlane of(const Triangle& t) noexcept {
    const float e[3] = {t.b.x - t.a.x, t.b.y - t.a.y, t.b.z - t.a.z};
    const float f[3] = {t.c.x - t.a.x, t.c.y - t.a.y, t.c.z - t.a.z};
    FloatPlane plane{};
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      const float p = e[j] * f[l], q = e[l] * f[j];
      plane.normal[i] = p - q;
      plane.magnitude[i] = std::fabs(p) + std::fabs(q);
    }
    return plane;
  }
};

/// Four planes side by side (or one in every lane): the normal's components and their
/// magnitudes as `FloatPlane` has them, and the vertex a the normal is taken at.
struct PlaneLanes {
  Float4 normal[3], magnitude[3], origin[3];

  /// The plane of `t` (whose `FloatPlane` is `plane`) in every lane.
  [[nodiscard]] static PlaneLanes splat(const Triangle& t, const FloatPlane& plane) noexcept {
    PlaneLanes lanes;
    for (int i = 0; i < 3; ++i) {
      lanes.normal[i] = Float4::splat(plane.normal[i]);
      lanes.magnitude[i] = Float4::splat(plane.magnitude[i]);
      lanes.origin[i] = Float4::splat(t.a[i]);
    }
    return lanes;
  }

  /// The planes of the group's triangles, computed lane by lane as `FloatPlane::of` does.
  [[nodiscard]] static PlaneLanes of(const TriangleGroup& group) noexcept {
    PlaneLanes lanes;
    Float4 e[3], f[3];
    for (int i = 0; i < 3; ++i) {
      lanes.origin[i] = group.lanes(0, i);
      e[i] = group.lanes(1, i) - lanes.origin[i];
      f[i] = group.lanes(2, i) - lanes.origin[i];
    }
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      const Float4 p = e[j] * f[l], q = e[l] * f[j];
      lanes.normal[i] = p - q;
      lanes.magnitude[i] = abs(p) + abs(q);
    }
    return lanes;
  }
};

/// A point in each lane (or one point in every lane).
struct PointLanes {
  Float4 x, y, z;
};

/// Bits 0..3 where `point` lies certainly above `plane` (side > bound), bits 4..7 where
/// certainly below, by the file's bound.
[[nodiscard]] inline unsigned certain_sides(const PlaneLanes& plane,
                                            const PointLanes& point) noexcept {
  const Float4 dx = point.x - plane.origin[0], dy = point.y - plane.origin[1],
               dz = point.z - plane.origin[2];
  const Float4 side = (plane.normal[0] * dx + plane.normal[1] * dy) + plane.normal[2] * dz;
  const Float4 size =
      (plane.magnitude[0] * abs(dx) + plane.magnitude[1] * abs(dy)) + plane.magnitude[2] * abs(dz);
  const Float4 reach = (abs(dx) + abs(dy)) + abs(dz);
  const Float4 bound =
      size * Float4::splat(0x1p-20f) + (reach + Float4::splat(1.0f)) * Float4::splat(0x1p-100f);
  return less_mask(bound, side) | less_mask(side, Float4::splat(0.0f) - bound) << 4;
}

/// Bit i set when exactly one of the three masks has bit i.
[[nodiscard]] constexpr unsigned exactly_one(const unsigned (&masks)[3]) noexcept {
  return (masks[0] ^ masks[1] ^ masks[2]) & ~(masks[0] & masks[1]) & ~(masks[1] & masks[2]) &
         ~(masks[0] & masks[2]);
}

/// Three points (one triangle's vertices) against the lanes' planes (the other's): the lanes
/// where the points show the triangles apart, and those where exactly one point is shared and
/// the other two are certainly on opposite sides.
struct PlaneVerdict {
  unsigned apart;     ///< Each point shared or certainly on one side, the same, one off it.
  unsigned crossing;  ///< One point shared, the other two certainly on opposite sides.

  /// The verdict of `points`, whose lanes `shared[k]` are at a vertex of the other triangle.
  [[nodiscard]] static PlaneVerdict of(const PlaneLanes& plane, const PointLanes (&points)[3],
                                       const unsigned (&shared)[3]) noexcept {
    unsigned above_or_shared = 0xfu, below_or_shared = 0xfu, some_above = 0, some_below = 0;
    for (int k = 0; k < 3; ++k) {
      const unsigned sides = certain_sides(plane, points[k]);
      const unsigned above = sides & 0xfu, below = sides >> 4;
      above_or_shared &= above | shared[k];
      below_or_shared &= below | shared[k];
      some_above |= above;
      some_below |= below;
    }
    // With one point shared (never certain: it is on the plane), both sides seen means one of
    // the other two on each.
    return {(above_or_shared & some_above) | (below_or_shared & some_below),
            exactly_one(shared) & some_above & some_below};
  }
};

/// Lanes (< group.count) whose triangle's bounds and `box` are apart along some axis (exact
/// comparisons of closed intervals): no contact there.
[[nodiscard]] inline unsigned box_apart_lanes(const Aabb& box,
                                              const TriangleGroup& group) noexcept {
  unsigned apart = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const Float4 a = group.lanes(0, axis), b = group.lanes(1, axis), c = group.lanes(2, axis);
    apart |= less_mask(max_ignoring_nan(max_ignoring_nan(a, b), c), Float4::splat(box.min[axis])) |
             less_mask(Float4::splat(box.max[axis]), min_ignoring_nan(min_ignoring_nan(a, b), c));
  }
  return apart & group.lane_mask();
}

/// What the four-lane filter finds for a triangle s against a group's lanes (each < count).
struct LaneVerdicts {
  /// The self rule answers false (the file's proof), by the plane of s or the lane's own.
  unsigned apart;
  /// One shared position, and each triangle's other two vertices certainly on opposite sides
  /// of the other's plane: `straddling_meet_off_vertex` decides (`lane_straddling_meet`).
  unsigned straddling;
  /// Lanes where vertex k of the lane's triangle is at a vertex of s.
  unsigned t_shared[3];
  /// Lanes where vertex m of s is at a vertex of the lane's triangle.
  unsigned s_shared[3];

  /// The verdicts for `s` (whose `FloatPlane` is `plane`) against the `lanes` of `group` (a
  /// subset of its lane mask; others come out neither apart nor straddling).
  [[nodiscard]] static LaneVerdicts of(const Triangle& s, const FloatPlane& plane,
                                       const TriangleGroup& group, unsigned lanes) noexcept {
    const Vec3 sv[3] = {s.a, s.b, s.c};
    PointLanes t_points[3], s_points[3];
    for (int k = 0; k < 3; ++k) {
      t_points[k] = {group.lanes(k, 0), group.lanes(k, 1), group.lanes(k, 2)};
      s_points[k] = {Float4::splat(sv[k].x), Float4::splat(sv[k].y), Float4::splat(sv[k].z)};
    }
    LaneVerdicts verdicts{0, 0, {}, {}};
    // Vertex k of t at vertex m of s (x compared first: it rarely matches alone).
    for (int k = 0; k < 3; ++k) {
      for (int m = 0; m < 3; ++m) {
        unsigned equal = equal_mask(t_points[k].x, s_points[m].x);
        if (equal == 0) continue;
        equal &=
            equal_mask(t_points[k].y, s_points[m].y) & equal_mask(t_points[k].z, s_points[m].z);
        verdicts.t_shared[k] |= equal;
        verdicts.s_shared[m] |= equal;
      }
    }
    const PlaneVerdict by_s =
        PlaneVerdict::of(PlaneLanes::splat(s, plane), t_points, verdicts.t_shared);
    verdicts.apart = by_s.apart & lanes;
    if (verdicts.apart == lanes) return verdicts;
    const PlaneVerdict by_t = PlaneVerdict::of(PlaneLanes::of(group), s_points, verdicts.s_shared);
    verdicts.apart |= by_t.apart & lanes;
    verdicts.straddling = by_s.crossing & by_t.crossing & ~verdicts.apart & lanes;
    return verdicts;
  }
};

/// For a `straddling` lane of `verdicts` (s against `t`, the lane's triangle): the self rule's
/// answer, by `straddling_meet_off_vertex` on the one shared position.
[[nodiscard]] inline bool lane_straddling_meet(const Triangle& s, const Triangle& t,
                                               const LaneVerdicts& verdicts, int lane) {
  const Vec3 sv[3] = {s.a, s.b, s.c}, tv[3] = {t.a, t.b, t.c};
  int m = 0, k = 0;
  while ((verdicts.s_shared[m] >> lane & 1u) == 0) ++m;
  while ((verdicts.t_shared[k] >> lane & 1u) == 0) ++k;
  return straddling_meet_off_vertex(sv[m], {sv[(m + 1) % 3], sv[(m + 2) % 3]},
                                    {tv[(k + 1) % 3], tv[(k + 2) % 3]});
}

/// The sign of left - right, two rounded products of rounded differences of floats (at most
/// four roundings per monomial with the subtraction), when a float bound decides it; 0 when it
/// does not (so 0 is never a certain sign). The error is below gamma_4 of the monomials'
/// absolute sum, itself computed through as many roundings: below 2^-20 times |left| + |right|
/// as computed; underflow adds at most 2^-149 (below the added 2^-100); overflow makes the
/// value or the bound infinite or NaN, and then neither comparison holds.
[[nodiscard]] inline int certain_difference_sign(float left, float right) noexcept {
  const float value = left - right;
  const float bound = (std::fabs(left) + std::fabs(right)) * 0x1p-20f + 0x1p-100f;
  return value > bound ? 1 : (value < -bound ? -1 : 0);
}

/// The sign of orient2d(p, q, r) seen along `axis` (the other two coordinates, in cyclic
/// order) when a float bound decides it, else 0 (`certain_difference_sign`).
[[nodiscard]] inline int certain_turn(const Vec3& p, const Vec3& q, const Vec3& r,
                                      int axis) noexcept {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return certain_difference_sign((q[i] - p[i]) * (r[j] - p[j]), (q[j] - p[j]) * (r[i] - p[i]));
}

/// The sign of the component `axis` of d × (p - o) (d a float vector taken as exact) when a
/// float bound decides it, else 0 (`certain_difference_sign`).
[[nodiscard]] inline int certain_cross(const Vec3& d, const Vec3& o, const Vec3& p,
                                       int axis) noexcept {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return certain_difference_sign(d[i] * (p[j] - o[j]), d[j] * (p[i] - o[i]));
}

/// s = conv{v, a1, a2} and t = conv{v, b1, b2} seen along `axis`, and the line through v along
/// `d`: true when a1 and a2 are certainly on one side and b1 and b2 on the other. Then the
/// projections meet only at v's, and a point of s projecting there has no weight on a1 or a2
/// (their sides add up): the triangles meet only at v.
[[nodiscard]] inline bool direction_separates(const Vec3& d, const Vec3& v,
                                              const TwoVertices& s_rest, const TwoVertices& t_rest,
                                              int axis) noexcept {
  const int side = certain_cross(d, v, s_rest.first, axis);
  return side != 0 && certain_cross(d, v, s_rest.second, axis) == side &&
         certain_cross(d, v, t_rest.first, axis) == -side &&
         certain_cross(d, v, t_rest.second, axis) == -side;
}

/// As `direction_separates`, for the line through v and a1 (exactly: orient2d): a2 certainly
/// on one side, b1 and b2 on the other.
[[nodiscard]] inline bool line_separates(const Vec3& v, const Vec3& a1, const Vec3& a2,
                                         const TwoVertices& other, int axis) noexcept {
  const int side = certain_turn(v, a1, a2, axis);
  return side != 0 && certain_turn(v, a1, other.first, axis) == -side &&
         certain_turn(v, a1, other.second, axis) == -side;
}

/// One shared position v, seen along `axis`: a line through v with the triangles certainly on
/// its two sides, among the lines of the four edges at v and the four sums of an edge of each
/// (which pass between two triangles of a fan even where edges line up, as in a subdivided
/// mesh).
[[nodiscard]] inline bool vertex_fans_apart(const Vec3& v, const TwoVertices& s_rest,
                                            const TwoVertices& t_rest, int axis) noexcept {
  const Vec3 &a1 = s_rest.first, &a2 = s_rest.second, &b1 = t_rest.first, &b2 = t_rest.second;
  if (line_separates(v, a1, a2, t_rest, axis) || line_separates(v, a2, a1, t_rest, axis) ||
      line_separates(v, b1, b2, s_rest, axis) || line_separates(v, b2, b1, s_rest, axis))
    return true;
  for (const Vec3& a : {a1, a2})
    for (const Vec3& b : {b1, b2})
      if (direction_separates((a - v) + (b - v), v, s_rest, t_rest, axis)) return true;
  return false;
}

/// No shared position, seen along `axis`: the line of an edge of s with s's third vertex
/// certainly on one side and the three of t on the other (or the same with s and t swapped):
/// the projections, and so the triangles, are disjoint (for two convex polygons in a plane, an
/// edge line of one separates them when anything does).
[[nodiscard]] inline bool edge_line_separates(const Triangle& s, const Triangle& t,
                                              int axis) noexcept {
  const Vec3 sv[3] = {s.a, s.b, s.c};
  for (int e = 0; e < 3; ++e) {
    const Vec3 &p = sv[e], &q = sv[(e + 1) % 3];
    const int side = certain_turn(p, q, sv[(e + 2) % 3], axis);
    if (side != 0 && certain_turn(p, q, t.a, axis) == -side &&
        certain_turn(p, q, t.b, axis) == -side && certain_turn(p, q, t.c, axis) == -side)
      return true;
  }
  return false;
}

/// For a lane of `verdicts` (s against `t`, the lane's triangle) with nothing shared, one
/// shared position or one shared edge (no repeated vertex among the shared): true when, seen
/// along the axis of the largest component of s's normal (`plane`), a line (an edge line, or
/// one through the shared vertex, or the shared edge's) has the triangles certainly on its two
/// sides, so that they meet only in what they share. Decides the flat and nearly flat neighbours (a
/// subdivided or planar mesh) that the plane sides cannot. False says nothing.
[[nodiscard]] inline bool lane_projected_apart(const Triangle& s, const FloatPlane& plane,
                                               const Triangle& t, const LaneVerdicts& verdicts,
                                               int lane) noexcept {
  int s_count = 0, t_count = 0, m[3] = {}, k[3] = {};
  for (int n = 0; n < 3; ++n) {
    if ((verdicts.s_shared[n] >> lane & 1u) != 0) m[s_count++] = n;
    if ((verdicts.t_shared[n] >> lane & 1u) != 0) k[t_count++] = n;
  }
  const float nx = std::fabs(plane.normal[0]), ny = std::fabs(plane.normal[1]),
              nz = std::fabs(plane.normal[2]);
  const int axis = nx >= ny && nx >= nz ? 0 : (ny >= nz ? 1 : 2);
  const Vec3 sv[3] = {s.a, s.b, s.c}, tv[3] = {t.a, t.b, t.c};
  if (s_count == 0 && t_count == 0)
    return edge_line_separates(s, t, axis) || edge_line_separates(t, s, axis);
  if (s_count == 1 && t_count == 1) {
    return vertex_fans_apart(sv[m[0]], {sv[(m[0] + 1) % 3], sv[(m[0] + 2) % 3]},
                             {tv[(k[0] + 1) % 3], tv[(k[0] + 2) % 3]}, axis);
  }
  if (s_count != 2 || t_count != 2 || sv[m[0]] == sv[m[1]]) return false;
  // The shared edge [u, w] and the third vertices: s's third vertex certainly on one side of
  // its line, t's on the other; then the projections meet only in the edge's, whose only
  // preimage in s is the edge.
  const Vec3 &u = sv[m[0]], &w = sv[m[1]], &a = sv[3 - m[0] - m[1]], &b = tv[3 - k[0] - k[1]];
  const int side = certain_turn(u, w, a, axis);
  return side != 0 && certain_turn(u, w, b, axis) == -side;
}

}  // namespace trisect::detail
