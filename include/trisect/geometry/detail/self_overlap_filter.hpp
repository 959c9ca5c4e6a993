#pragma once
/// \file
/// A float filter for the self-overlap rule (`intersects_beyond_shared_vertices`), four pairs at
/// a time: four triangles s against four triangles t, lane by lane, gathered from wherever the
/// pairs come (`TriangleLanes::gather`), so that a self query fills every lane. It certifies the
/// usual answer of a mesh's neighbours, "they meet only in what they share", by the planes'
/// sides (`self_overlap_planes.hpp`); names the neighbours across each other's planes at one
/// shared vertex, which two exact orientations decide (`straddling_meet_off_vertex`); and for a
/// lane left, a line seen along an axis may still separate them (`lane_projected_apart`, flat
/// neighbours). Everything else goes to the exact rule. Not part of the API (no stability
/// promised).
///
/// The proof that a certified lane is exact and the filter's float bound are in
/// `self_overlap_planes.hpp`; the projected test in `self_overlap_projection.hpp`.

#include "trisect/geometry/self_overlap.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/triangle_group.hpp"

#include "trisect/geometry/detail/self_overlap_planes.hpp"
#include "trisect/geometry/detail/self_overlap_projection.hpp"

#include <cmath>

namespace trisect::detail {

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

/// A triangle and its `FloatPlane`, packed as four rows of four floats (the vertices a, b and c,
/// the normal, the magnitudes, one unused), so that four of them transpose into lanes.
struct PackedTriangle {
  alignas(16) float values[16];

  /// `t` and its plane.
  [[nodiscard]] static PackedTriangle of(const Triangle& t) noexcept {
    const FloatPlane plane = FloatPlane::of(t);
    return {{t.a.x, t.a.y, t.a.z, t.b.x, t.b.y, t.b.z, t.c.x, t.c.y, t.c.z, plane.normal[0],
             plane.normal[1], plane.normal[2], plane.magnitude[0], plane.magnitude[1],
             plane.magnitude[2], 0.0f}};
  }
  /// The triangle.
  [[nodiscard]] Triangle triangle() const noexcept {
    return {{values[0], values[1], values[2]},
            {values[3], values[4], values[5]},
            {values[6], values[7], values[8]}};
  }
  /// Its plane, as `FloatPlane::of(triangle())` makes it.
  [[nodiscard]] FloatPlane plane() const noexcept {
    return {{values[9], values[10], values[11]}, {values[12], values[13], values[14]}};
  }
};

/// Four triangles side by side, lane l holding the l-th: their vertices and their planes.
struct TriangleLanes {
  PointLanes vertex[3];
  PlaneLanes plane;

  /// Lane l holds `*triangles[l]` (four 4 x 4 transposes).
  [[nodiscard]] static TriangleLanes gather(const PackedTriangle* const (&triangles)[4]) noexcept {
    Float4 rows[4][4];  // rows[chunk][r]: lanes of value 4 chunk + r
    for (int chunk = 0; chunk < 4; ++chunk) {
      for (int lane = 0; lane < 4; ++lane)
        rows[chunk][lane] = Float4::load(triangles[lane]->values + 4 * chunk);
      transpose(rows[chunk][0], rows[chunk][1], rows[chunk][2], rows[chunk][3]);
    }
    const auto value = [&](int index) { return rows[index / 4][index % 4]; };
    TriangleLanes lanes;
    for (int k = 0; k < 3; ++k)
      lanes.vertex[k] = {value(3 * k), value(3 * k + 1), value(3 * k + 2)};
    for (int i = 0; i < 3; ++i) {
      lanes.plane.origin[i] = value(i);
      lanes.plane.normal[i] = value(9 + i);
      lanes.plane.magnitude[i] = value(12 + i);
    }
    return lanes;
  }
};

/// What the four-lane filter finds for four pairs, s against t in each lane.
struct LaneVerdicts {
  /// The self rule answers false (the proof in `self_overlap_planes.hpp`), by the plane of s or
  /// the lane's own.
  unsigned apart;
  /// One shared position, and each triangle's other two vertices certainly on opposite sides
  /// of the other's plane: `straddling_meet_off_vertex` decides (`lane_straddling_meet`).
  unsigned straddling;
  /// Lanes where vertex k of the lane's t is at a vertex of its s.
  unsigned t_shared[3];
  /// Lanes where vertex m of the lane's s is at a vertex of its t.
  unsigned s_shared[3];

  /// The verdicts for the `lanes` (others come out neither apart nor straddling) of `s` against
  /// `t`.
  [[nodiscard]] static LaneVerdicts of(const TriangleLanes& s, const TriangleLanes& t,
                                       unsigned lanes) noexcept {
    LaneVerdicts verdicts{0, 0, {}, {}};
    // Vertex k of t at vertex m of s (x compared first: it rarely matches alone).
    for (int k = 0; k < 3; ++k) {
      for (int m = 0; m < 3; ++m) {
        unsigned equal = equal_mask(t.vertex[k].x, s.vertex[m].x);
        if (equal == 0) continue;
        equal &=
            equal_mask(t.vertex[k].y, s.vertex[m].y) & equal_mask(t.vertex[k].z, s.vertex[m].z);
        verdicts.t_shared[k] |= equal;
        verdicts.s_shared[m] |= equal;
      }
    }
    const PlaneVerdict by_s = PlaneVerdict::of(s.plane, t.vertex, verdicts.t_shared);
    verdicts.apart = by_s.apart & lanes;
    if (verdicts.apart == lanes) return verdicts;
    const PlaneVerdict by_t = PlaneVerdict::of(t.plane, s.vertex, verdicts.s_shared);
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
  const SeenTriangle s_seen = SeenTriangle::of(s, axis), t_seen = SeenTriangle::of(t, axis);
  const SeenPoint *sv = s_seen.vertex, *tv = t_seen.vertex;
  if (s_count == 0 && t_count == 0)
    return edge_line_separates(s_seen, t_seen) || edge_line_separates(t_seen, s_seen);
  if (s_count == 1 && t_count == 1) {
    return vertex_fans_apart(sv[m[0]], sv[(m[0] + 1) % 3], sv[(m[0] + 2) % 3], tv[(k[0] + 1) % 3],
                             tv[(k[0] + 2) % 3]);
  }
  const Vec3 s_vertices[3] = {s.a, s.b, s.c};
  if (s_count != 2 || t_count != 2 || s_vertices[m[0]] == s_vertices[m[1]]) return false;
  // The shared edge [u, w] and the third vertices: s's third vertex certainly on one side of
  // its line, t's on the other; then the projections meet only in the edge's, whose only
  // preimage in s is the edge.
  const SeenPoint u = sv[m[0]], w = sv[m[1]], a = sv[3 - m[0] - m[1]], b = tv[3 - k[0] - k[1]];
  const int side = certain_turn(u, w, a);
  return side != 0 && certain_turn(u, w, b) == -side;
}

}  // namespace trisect::detail
