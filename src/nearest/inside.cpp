// Inside / outside / surface by the exact parity of one ray, symbolically perturbed.
//
// One ray is cast from the point p in a fixed direction d (`inside_ray_direction`), and every
// triangle in a leaf the ray reaches is classified exactly by the signs of the three volumes
// V_uv(d) = d·w_uv, w_uv = (u - p) × (v - p), over its edges u→v, and by which side of its
// plane p lies on. The volumes are linear in d and sum to d·n, n = (b - a) × (c - a).
//
// No ray is ever refused. Where a volume is 0 (the ray meets an edge or a vertex, or lies in
// a plane), the ray is perturbed symbolically, in the manner of Edelsbrunner & Mücke's
// simulation of simplicity ("Simulation of Simplicity", ACM Trans. Graphics 9(1), 1990): the
// direction is taken as d_e = d + (e, e², e³) for an infinitesimal e > 0, so that
//   V_uv(d_e) = d·w_uv + e·w_uv.x + e²·w_uv.y + e³·w_uv.z,
// whose sign for all small e is the sign of its first non-zero coefficient: d·w_uv, then the
// components of w_uv (2×2 minors of the inputs), each an exact sign. It is 0 only when
// w_uv = 0: p lies on the line of u→v (or u = v).
//
// Why the parity is the answer. (1) For all small e > 0 the ray p + t·d_e, t > 0, meets no edge
// or vertex and lies in no plane of a triangle of non-zero area, unless p is on the surface:
// lying in the plane needs n·d_e = 0, a polynomial in e that is not identically 0 as n ≠ 0;
// passing through a vertex v ≠ p needs (v - p) × d_e = 0, whose e, e², e³ coefficients
// (v - p) × the axes are not all 0; meeting the interior of an edge needs V_uv(d_e) = 0, not
// identically 0 unless w_uv = 0, and then p is on the edge's line, where the ray meets the
// segment (outside p) only if d_e is parallel to v - u, again a non-zero polynomial. Each has
// finitely many roots, so small enough e avoid them all: the perturbed ray is one of the rays
// contract 6 counts along, and on a closed mesh all those agree on the parity (the Jordan-curve
// argument: moving such a ray continuously changes the count only where it sweeps over an edge,
// and every edge of a closed mesh is used an even number of times). (2) For those e no sign
// involved changes, so each triangle's fate is read from the signs above, and none is left
// undecided:
// - two strict signs that differ: the line misses the triangle;
// - three equal strict signs (the sign of n·d_e, so n ≠ 0): the perturbed line crosses the
//   triangle's interior where it pierces the plane, ahead of p when n·(a - p) has that sign
//   too; when n·(a - p) = 0, p is in the plane, the line meets the plane only at p, so p is on
//   the triangle: `surface`;
// - a sign 0: w_uv = 0 puts p on an edge's line, so in the triangle's plane (or the triangle
//   has zero area). The perturbed ray leaves that plane at once (its direction is in no plane),
//   so it meets the triangle only at p, if at all: `surface` when p is on the closed triangle,
//   decided exactly, otherwise nothing.
// A triangle of zero area has n = 0: its perturbed volumes sum to 0 identically, so they are
// all 0 or of both signs; it is never crossed, and is only tested for holding p. A ray in a
// triangle's plane (n·d = 0, all V(d) = 0 when p is in it) is decided by the perturbation like
// any other tie: the perturbed ray leaves the plane on the side the sign of n·d_e says.
// (3) The perturbed ray is found by the walk of the unperturbed one: where it crosses a
// triangle ahead of p, the crossing points converge, as e → 0, to a point of the closed
// triangle on the closed ray (n·d = 0 with p off the plane gives volumes of both strict signs,
// so no such triangle is crossed), and the slab tests keep every box the closed ray touches.
// A point on a triangle is always found: every leaf whose box holds the origin is entered.
//
// The fast path is unchanged: a non-zero volume is decided as before, and the perturbation's
// minors are computed only after an exact 0. The float pre-test (`certain_misses`) drops only
// triangles with two volumes of opposite strict signs, which the perturbation keeps.
#include "trisect/nearest/inside.hpp"

#include "bvh/ray_kernels.hpp"
#include "bvh/ray_visitors.hpp"
#include "inside_ray.hpp"

#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"
#include "trisect/mesh/topology.hpp"
#include "trisect/nearest/closest_point.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace trisect {
namespace {

/// What a ray does at one triangle.
enum class Crossing {
  none,     ///< Misses it, meets it behind the origin, or it has zero area.
  through,  ///< Crosses its interior ahead of the origin.
  origin,   ///< The origin lies on it.
};

/// Exact sign of d·((u - p) × (v - p)).
int edge_volume_sign(const Vec3& p, const Vec3& d, const Vec3& u, const Vec3& v) {
  return exact::sign_of([&](auto lift) {
    const auto ux = lift(u.x) - lift(p.x), uy = lift(u.y) - lift(p.y), uz = lift(u.z) - lift(p.z);
    const auto vx = lift(v.x) - lift(p.x), vy = lift(v.y) - lift(p.y), vz = lift(v.z) - lift(p.z);
    return lift(d.x) * (uy * vz - uz * vy) + lift(d.y) * (uz * vx - ux * vz) +
           lift(d.z) * (ux * vy - uy * vx);
  });
}

/// The sign the volume takes when d·((u - p) × (v - p)) is 0 and d is perturbed to
/// d + (e, e², e³): the sign of the first non-zero component of (u - p) × (v - p) (the normal
/// of the triangle p, u, v), or 0 when p lies on the line of u→v.
[[gnu::noinline]] int perturbed_tie_sign(const Vec3& p, const Vec3& u, const Vec3& v) {
  const Triangle spanned{p, u, v};
  for (int axis = 0; axis < 3; ++axis)
    if (const int sign = detail::normal_component_sign(spanned, axis); sign != 0) return sign;
  return 0;
}

/// The sign of the edge volume along the perturbed direction (see the file's comment): the
/// exact sign, and only when it is 0 the perturbation's.
int perturbed_volume_sign(const Vec3& p, const Vec3& d, const Vec3& u, const Vec3& v) {
  const int sign = edge_volume_sign(p, d, u, v);
  if (sign != 0) [[likely]]
    return sign;
  return perturbed_tie_sign(p, u, v);
}

/// How the ray from `origin` along `direction`, perturbed, meets the closed triangle (see the
/// file's comment).
Crossing classify(const Vec3& origin, const Vec3& direction, const Triangle& t) {
  const int ab = perturbed_volume_sign(origin, direction, t.a, t.b);
  const int bc = perturbed_volume_sign(origin, direction, t.b, t.c);
  if (ab * bc < 0) return Crossing::none;
  const int ca = perturbed_volume_sign(origin, direction, t.c, t.a);
  if (ab * ca < 0 || bc * ca < 0) return Crossing::none;
  if (ab == 0 || bc == 0 || ca == 0) {
    // The origin is on an edge's line, so in the triangle's plane (or the triangle has zero
    // area): the perturbed ray meets the triangle at the origin or nowhere.
    return intersects(t, Sphere{origin, 0.0f}) ? Crossing::origin : Crossing::none;
  }
  // The perturbed line pierces the plane inside the triangle. The volumes sum to d·n, so
  // their common sign is that of d·n; the meeting point is ahead of the origin when n·(a - p)
  // has that sign too, and is the origin itself when that is 0.
  const int side = detail::normal_side(t, origin);
  if (side == 0) return Crossing::origin;
  return -side == ab ? Crossing::through : Crossing::none;
}

/// The three edge volumes of the four lanes of `group` in float, each with a bound on its
/// error, to skip the exact classification of triangles the line certainly misses: two
/// volumes of opposite signs. Each volume d·((u - p) × (v - p)) is a sum of six products of
/// three factors, two of them rounded differences: every term is within about 6·2^-24 of its
/// exact value, relative, so 2^-20 times the sum of |terms| (computed) bounds the error, plus
/// 2^-140 for products that underflow. An overflow gives inf or NaN, which no bound clears.
unsigned certain_misses(const Vec3& p, const Vec3& d, const TriangleGroup& group) {
  Float4 relative[3][3];
  for (int vertex = 0; vertex < 3; ++vertex)
    for (int axis = 0; axis < 3; ++axis)
      relative[vertex][axis] = group.lanes(vertex, axis) - Float4::splat(p[axis]);
  const Float4 dx = Float4::splat(d.x), dy = Float4::splat(d.y), dz = Float4::splat(d.z);
  const Float4 adx = abs(dx), ady = abs(dy), adz = abs(dz);
  unsigned positive[3], negative[3];
  for (int edge = 0; edge < 3; ++edge) {
    const Float4* u = relative[edge];
    const Float4* v = relative[(edge + 1) % 3];
    const Float4 yz = u[1] * v[2], zy = u[2] * v[1], zx = u[2] * v[0], xz = u[0] * v[2],
                 xy = u[0] * v[1], yx = u[1] * v[0];
    const Float4 volume = dx * (yz - zy) + dy * (zx - xz) + dz * (xy - yx);
    const Float4 magnitude =
        adx * (abs(yz) + abs(zy)) + ady * (abs(zx) + abs(xz)) + adz * (abs(xy) + abs(yx));
    const Float4 bound = magnitude * Float4::splat(0x1p-20f) + Float4::splat(0x1p-140f);
    positive[edge] = less_mask(bound, volume);
    negative[edge] = less_mask(volume, Float4::splat(0.0f) - bound);
  }
  const unsigned opposite = (positive[0] & negative[1]) | (negative[0] & positive[1]) |
                            (positive[0] & negative[2]) | (negative[0] & positive[2]) |
                            (positive[1] & negative[2]) | (negative[1] & positive[2]);
  return opposite & group.lane_mask();
}

/// Counts the triangles a ray crosses, stopping when the origin is on one.
template <class Slabs>
class CrossingVisitor : public detail::RayVisitor<Slabs> {
 public:
  using detail::RayVisitor<Slabs>::RayVisitor;

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    const Ray& ray = this->ray_;
    return this->bvh_->triangles.for_each_group(
        begin, end, [&](std::uint32_t, const TriangleGroup& group) {
          const unsigned candidates =
              group.lane_mask() & ~certain_misses(ray.origin, ray.direction, group);
          for (unsigned lanes = candidates; lanes != 0; lanes &= lanes - 1) {
            const int lane = std::countr_zero(lanes);
            const Crossing crossing = classify(ray.origin, ray.direction, group.triangle(lane));
            if (crossing == Crossing::origin) {
              on_surface_ = true;
              return false;
            }
            crossings_ += crossing == Crossing::through ? 1u : 0u;
          }
          return true;
        });
  }

  /// True when the walk stopped at a triangle holding the origin.
  [[nodiscard]] bool on_surface() const noexcept { return on_surface_; }
  [[nodiscard]] std::size_t crossings() const noexcept { return crossings_; }

 private:
  bool on_surface_ = false;
  std::size_t crossings_ = 0;
};

/// The tilts of the ray on the two axes other than its own: irregular floats (the first
/// SplitMix64 draws the earlier retries began with), so that grid-aligned meshes rarely need
/// the perturbation, which is exact for any direction.
constexpr float tilt_next = 0x1.8882ap-5f, tilt_after = -0x1.18762p-7f;

}  // namespace

Vec3 detail::inside_ray_direction(const Aabb& bounds, const Vec3& point) {
  int axis = 0;
  float sign = 1, nearest = std::numeric_limits<float>::infinity();
  for (int a = 0; a < 3; ++a) {
    const float below = point[a] - bounds.min[a], above = bounds.max[a] - point[a];
    if (below < nearest) nearest = below, axis = a, sign = -1;
    if (above < nearest) nearest = above, axis = a, sign = 1;
  }
  Vec3 d;
  d[axis] = sign;
  d[(axis + 1) % 3] = tilt_next;
  d[(axis + 2) % 3] = tilt_after;
  return d;
}

namespace {

/// The walk of one ray, with the node test `Slabs`; inlined into each kernel's entry below.
template <class Slabs>
[[gnu::always_inline]] inline CrossingVisitor<Slabs> walk_crossings(const Bvh& bvh,
                                                                    const Ray& ray) {
  CrossingVisitor<Slabs> visitor(bvh, ray);
  ordered_walk<WalkOrder::lane_order>(bvh, visitor);
  return visitor;
}

/// The side a finished walk found: on a triangle, or the parity of its crossings.
template <class Slabs>
PointSide side_from(const CrossingVisitor<Slabs>& visitor) {
  if (visitor.on_surface()) return PointSide::surface;
  return visitor.crossings() % 2 == 1 ? PointSide::inside : PointSide::outside;
}

/// The side of the ray's origin from the walk of `ray`, with the portable node test.
PointSide side_four(const Bvh& bvh, const Ray& ray) {
  return side_from(walk_crossings<detail::FourLaneRaySlabs>(bvh, ray));
}

#if TRISECT_HAVE_AVX2_KERNEL
/// `side_four` with the AVX2 node test.
TRISECT_AVX2_TARGET PointSide side_eight(const Bvh& bvh, const Ray& ray) {
  return side_from(walk_crossings<detail::EightLaneRaySlabs>(bvh, ray));
}
#endif

/// The side of `point` from the walk of its one ray, with the AVX2 node test wherever the ray
/// queries use eight lanes (AVX2 or AVX-512), the portable one otherwise (the same answers
/// either way).
PointSide side_of_valid(const Bvh& bvh, const Vec3& point) {
  const Ray ray{point, detail::inside_ray_direction(bvh.bounds(), point)};
#if TRISECT_HAVE_AVX2_KERNEL
  if (detail::chosen_ray_kernel() != detail::RayKernel::four_lane) return side_eight(bvh, ray);
#endif
  return side_four(bvh, ray);
}

/// Throws `InvalidInput` naming the point as `what()` says unless it is finite (the name is
/// built only for the message).
template <class What>
void check_point(const Vec3& point, const What& what) {
  if (!std::isfinite(point.x) || !std::isfinite(point.y) || !std::isfinite(point.z))
    validate(Sphere{point, 0.0f}, what());
}

std::string position_text(const Vec3& v) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.9g %.9g %.9g)", double(v.x), double(v.y), double(v.z));
  return text;
}

}  // namespace

const char* to_string(PointSide side) noexcept {
  switch (side) {
    case PointSide::outside:
      return "outside";
    case PointSide::inside:
      return "inside";
    case PointSide::surface:
      return "surface";
  }
  return "?";
}

std::optional<OpenEdge> find_open_edge(const TriangleSoup& soup) {
  return topology(soup).first_open_edge();
}

void require_closed(const TriangleSoup& soup, const std::string& mesh) {
  const auto edge = find_open_edge(soup);
  if (!edge) return;
  throw InvalidInput(mesh + " is not closed: edge " + position_text(edge->first) + "-" +
                     position_text(edge->second) + " belongs to " +
                     std::to_string(edge->triangles) + " triangle" +
                     (edge->triangles == 1 ? "" : "s") + " of non-zero area");
}

PointSide side_of(const Bvh& bvh, const Vec3& point) {
  check_point(point, [] { return std::string("inside query"); });
  return side_of_valid(bvh, point);
}

void sides_of(const Bvh& bvh, std::span<const Vec3> points, std::span<PointSide> sides) {
  if (sides.size() != points.size())
    throw InvalidInput("sides_of: " + std::to_string(points.size()) + " points but room for " +
                       std::to_string(sides.size()) + " answers");
  for (std::size_t i = 0; i < points.size(); ++i)
    check_point(points[i], [i] { return "sides_of: point " + std::to_string(i); });
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 64),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end(); ++i)
                          sides[i] = side_of_valid(bvh, points[i]);
                      });
  });
}

double signed_distance(const Bvh& bvh, const Vec3& point) {
  const auto nearest = closest_point(bvh, point);
  if (!nearest) return std::numeric_limits<double>::infinity();
  if (nearest->distance == 0) return 0;
  return side_of_valid(bvh, point) == PointSide::inside ? -nearest->distance : nearest->distance;
}

}  // namespace trisect
