#pragma once
/// \file
/// The float pre-test of the ray–triangle test on triangles stored as edge groups
/// (`EdgeGroup`): which of four triangles a ray's line certainly misses, from the stored
/// vertex, edges and normal, under a proven error bound. The same question `possible_hits`
/// answers from the vertices, with fewer operations: the edges and normal are not recomputed
/// for every ray.

#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/math/edge_group.hpp"

namespace trisect {
namespace detail {

/// Bit i set when the line of `ray` certainly misses triangle i of `group` (lanes past the
/// count clear). With d = direction / direction[kz] (its sheared form, d[kz] = 1, the other two
/// the shear's float constants), C = a - origin, E1 = b - a, E2 = c - a and N = E1 × E2, the
/// line's side of edges ab, ca and bc is the sign of
///   F_ab = (d × C) · E1,   F_ca = -(d × C) · E2,   F_bc = d · N - F_ab - F_ca
/// (each det(d, p - origin, q - origin) for the edge's ends p, q; the three share one factor
/// with the edge functions of `intersect`, so the line misses the closed triangle exactly when
/// two of them have strictly opposite signs).
///
/// Error bound (a forward analysis with u = 2^-24 the unit roundoff): each float input errs by
/// at most 1.01 u of itself (the shear constants, C, the stored edges, and N's components by
/// 1.1 u of the sum of their two products' sizes); every elementary term of F_ab and F_ca
/// passes at most 9 roundings, and the sizes of their terms sum to at most 6 Cm Em, with Cm and
/// Em the largest components of C and of the edges; d · N errs by at most 31.2 u Em², and the
/// two subtractions forming F_bc add 12.1 u Em² + 18.5 u Cm Em. So every computed F is within
/// 43.3 u Em² + 115.7 u Cm Em of the exact one, and the bound used, 2^-16 (Cm + Em) Em =
/// 256 u (Cm Em + Em²), is more than twice that even after its own three roundings. With
/// Em in [2^-40, 2^40] and Cm at most 2^40 no value overflows, and every absolute error an
/// underflow adds (at most 2^-150 an operation, magnified by at most 2^42) stays under the
/// bound's margin of at least 2^-97; outside that range the lane declines.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline unsigned clearly_missed_edges(const Ray& ray,
                                                                       const RayShear& shear,
                                                                       const EdgeGroup& group) {
  constexpr int kx = (KZ + 1) % 3, ky = (KZ + 2) % 3;
  // (kx, ky, kz) is a rotation of (x, y, z), so cross products keep their form in it.
  const Float4 sx = Float4::splat(shear.float_sx), sy = Float4::splat(shear.float_sy);
  const auto relative = [&](int axis) {
    return group.lanes(EdgeGroup::corner + axis) - Float4::splat(ray.origin[axis]);
  };
  const Float4 cx = relative(kx), cy = relative(ky), cz = relative(KZ);
  // R = d × C with d = (sx, sy, 1).
  const Float4 rx = sy * cz - cy, ry = cx - sx * cz, rz = sx * cy - sy * cx;
  const auto dot_r = [&](int first_row) {
    return rx * group.lanes(first_row + kx) + ry * group.lanes(first_row + ky) +
           rz * group.lanes(first_row + KZ);
  };
  const Float4 f_ab = dot_r(EdgeGroup::first_edge);
  const Float4 minus_f_ca = dot_r(EdgeGroup::second_edge);
  const Float4 d_dot_n = sx * group.lanes(EdgeGroup::normal + kx) +
                         sy * group.lanes(EdgeGroup::normal + ky) +
                         group.lanes(EdgeGroup::normal + KZ);
  const Float4 f_bc = (d_dot_n - f_ab) + minus_f_ca;
  const auto largest = [](Float4 p, Float4 q, Float4 r) {
    return max_ignoring_nan(max_ignoring_nan(abs(p), abs(q)), abs(r));
  };
  const Float4 c_max = largest(cx, cy, cz);
  const Float4 e_max = max_ignoring_nan(
      largest(group.lanes(EdgeGroup::first_edge), group.lanes(EdgeGroup::first_edge + 1),
              group.lanes(EdgeGroup::first_edge + 2)),
      largest(group.lanes(EdgeGroup::second_edge), group.lanes(EdgeGroup::second_edge + 1),
              group.lanes(EdgeGroup::second_edge + 2)));
  const Float4 bound = Float4::splat(0x1p-16f) * (c_max + e_max) * e_max;
  const Float4 minus_bound = Float4::splat(0) - bound;
  const unsigned some_below =
      less_mask(f_ab, minus_bound) | less_mask(bound, minus_f_ca) | less_mask(f_bc, minus_bound);
  const unsigned some_above =
      less_mask(bound, f_ab) | less_mask(minus_f_ca, minus_bound) | less_mask(bound, f_bc);
  const unsigned in_range = less_equal_mask(Float4::splat(0x1p-40f), e_max) &
                            less_equal_mask(e_max, Float4::splat(0x1p40f)) &
                            less_equal_mask(c_max, Float4::splat(0x1p40f));
  return some_below & some_above & in_range & group.lane_mask();
}

}  // namespace detail

/// For the triangles of `group`: bit i set when triangle i may be hit, that is when this
/// pre-test cannot rule it out; a triangle whose bit is clear is one `intersect` misses. The
/// triangles of a bit then go to `intersect_possible`, which together with this answers exactly
/// as `intersect` does (the pre-test may keep triangles the vertex form rules out, and the other
/// way round; neither ever rules out a hit).
[[nodiscard, gnu::always_inline]] inline unsigned possible_hits(const Ray& ray,
                                                                const RayShear& shear,
                                                                const EdgeGroup& group) {
  return detail::along_axis(shear.kz, [&](auto kz) {
    return group.lane_mask() & ~detail::clearly_missed_edges<kz()>(ray, shear, group);
  });
}

}  // namespace trisect
