// Inside / outside / surface by exact ray parity.
//
// A ray from the point is cast in a direction from a fixed sequence; every triangle in a leaf
// the ray reaches is classified exactly by the signs of the three volumes d·((u - p) × (v - p))
// over its edges u→v (the line meets the closed triangle when they do not differ in strict
// sign; it passes through an edge or a vertex when some are 0 and lies in the triangle's
// plane when all are) and by which side of the plane p lies on (the meeting point is ahead of
// p, behind it, or p itself: then p is on the triangle, `surface`). Where the ray would touch
// an edge or a vertex of a triangle of non-zero area, or lie in its plane, the next direction
// is tried, so the parity counted is that of a ray meeting triangles only in their interiors:
// the contract's rays. A point on a triangle is found on the first ray that is not stopped
// earlier: the leaf holding that triangle holds the ray's origin, and every ray enters it.
// This is the classic Jordan-curve argument made exact; choosing again rather than perturbing
// symbolically keeps every predicate a plain sign (Edelsbrunner & Mücke's simulation of
// simplicity would avoid the retries at the price of a much larger predicate).
#include "trisect/nearest/inside.hpp"

#include "bvh/ray_kernels.hpp"
#include "bvh/ray_visitors.hpp"

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

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

namespace trisect {
namespace {

/// What a ray does at one triangle.
enum class Crossing {
  none,     ///< Misses it, meets it behind the origin, or it has zero area.
  through,  ///< Crosses its interior ahead of the origin.
  touches,  ///< Meets an edge or a vertex ahead, or lies in its plane: choose another ray.
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

/// How the ray from `origin` along `direction` meets the closed triangle (see the file's
/// comment).
Crossing classify(const Vec3& origin, const Vec3& direction, const Triangle& t) {
  const int ab = edge_volume_sign(origin, direction, t.a, t.b);
  const int bc = edge_volume_sign(origin, direction, t.b, t.c);
  if (ab * bc < 0) return Crossing::none;
  const int ca = edge_volume_sign(origin, direction, t.c, t.a);
  if (ab * ca < 0 || bc * ca < 0) return Crossing::none;
  if (ab == 0 && bc == 0 && ca == 0) {
    // The line lies in the triangle's plane, or the triangle has zero area (its volumes sum to
    // d·n = 0, so they cannot share a strict sign): the origin may lie on such a segment.
    if (!is_degenerate(t)) return Crossing::touches;
    return intersects(t, Sphere{origin, 0.0f}) ? Crossing::origin : Crossing::none;
  }
  // The line meets the closed triangle once, where it pierces the plane. The volumes sum to
  // d·n, so their common sign is that of d·n; the meeting point is ahead of the origin when
  // n·(a - p) has that sign too, and is the origin itself when that is 0.
  const int side = detail::normal_side(t, origin);
  if (side == 0) return Crossing::origin;
  const int along = ab + bc + ca > 0 ? 1 : -1;
  if (-side != along) return Crossing::none;
  return ab == 0 || bc == 0 || ca == 0 ? Crossing::touches : Crossing::through;
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

/// Counts the triangles a ray crosses, stopping at the first one it touches.
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
            if (crossing == Crossing::touches || crossing == Crossing::origin) {
              stopped_by_ = crossing;
              return false;
            }
            crossings_ += crossing == Crossing::through ? 1u : 0u;
          }
          return true;
        });
  }

  /// `none` when the walk went to the end, else what stopped it.
  [[nodiscard]] Crossing stopped_by() const noexcept { return stopped_by_; }
  [[nodiscard]] std::size_t crossings() const noexcept { return crossings_; }

 private:
  Crossing stopped_by_ = Crossing::none;
  std::size_t crossings_ = 0;
};

/// Directions tried before giving up (each fails only on a set of measure zero).
constexpr std::size_t max_directions = 1000;

/// SplitMix64 (Steele, Lea & Flood, 2014): the k-th number of a fixed pseudo-random sequence
/// as a float in [-1, 1).
constexpr float pseudo_random(std::uint64_t k) {
  std::uint64_t z = 0x9E3779B97F4A7C15u * (k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  return static_cast<float>(static_cast<double>(z >> 40) * 0x1p-23 - 1.0);
}

/// The tilts of try k on the two axes other than the ray's: pseudo-random, up to ±1/16, so
/// that no two tries and no mesh's axis-aligned edges line up with a ray. A table, computed
/// when compiling: a point answered by its first ray pays for no generator.
constexpr auto tilts = [] {
  std::array<std::array<float, 2>, max_directions> table{};
  for (std::size_t k = 0; k < max_directions; ++k)
    for (std::size_t i = 0; i < 2; ++i) table[k][i] = 0.0625f * pseudo_random(2 * k + i);
  return table;
}();

/// Try `k` of the ray from `point`: out through the nearest face of the mesh's bounds (the
/// shortest way out, so the fewest boxes on the way; from outside the bounds, straight away
/// from them), tilted by `tilts[k]` on the other two axes.
Vec3 direction(const Aabb& bounds, const Vec3& point, std::size_t k) {
  int axis = 0;
  float sign = 1, nearest = std::numeric_limits<float>::infinity();
  for (int a = 0; a < 3; ++a) {
    const float below = point[a] - bounds.min[a], above = bounds.max[a] - point[a];
    if (below < nearest) nearest = below, axis = a, sign = -1;
    if (above < nearest) nearest = above, axis = a, sign = 1;
  }
  Vec3 d;
  d[axis] = sign;
  d[(axis + 1) % 3] = tilts[k][0];
  d[(axis + 2) % 3] = tilts[k][1];
  return d;
}

/// The walk of one ray, with the node test `Slabs`; inlined into each kernel's entry below.
template <class Slabs>
[[gnu::always_inline]] inline CrossingVisitor<Slabs> walk_crossings(const Bvh& bvh,
                                                                    const Ray& ray) {
  CrossingVisitor<Slabs> visitor(bvh, ray);
  ordered_walk<WalkOrder::lane_order>(bvh, visitor);
  return visitor;
}

/// What stopped the walk of `ray` and the crossings counted, with the portable node test.
std::pair<Crossing, std::size_t> crossings_four(const Bvh& bvh, const Ray& ray) {
  const auto visitor = walk_crossings<detail::FourLaneRaySlabs>(bvh, ray);
  return {visitor.stopped_by(), visitor.crossings()};
}

#if TRISECT_HAVE_AVX2_KERNEL
/// `crossings_four` with the AVX2 node test.
TRISECT_AVX2_TARGET std::pair<Crossing, std::size_t> crossings_eight(const Bvh& bvh,
                                                                     const Ray& ray) {
  const auto visitor = walk_crossings<detail::EightLaneRaySlabs>(bvh, ray);
  return {visitor.stopped_by(), visitor.crossings()};
}
#endif

/// The walk of `ray` with the kernel the ray queries use (the same answers either way).
std::pair<Crossing, std::size_t> crossings(const Bvh& bvh, const Ray& ray) {
#if TRISECT_HAVE_AVX2_KERNEL
  if (detail::chosen_ray_kernel() == detail::RayKernel::eight_lane)
    return crossings_eight(bvh, ray);
#endif
  return crossings_four(bvh, ray);
}

PointSide side_of_valid(const Bvh& bvh, const Vec3& point) {
  for (std::size_t k = 0; k < max_directions; ++k) {
    const auto [stopped_by, count] = crossings(bvh, Ray{point, direction(bvh.bounds(), point, k)});
    switch (stopped_by) {
      case Crossing::origin:
        return PointSide::surface;
      case Crossing::touches:
        continue;
      default:
        return count % 2 == 1 ? PointSide::inside : PointSide::outside;
    }
  }
  throw Error("side_of: no ray from the point avoids every edge (after " +
              std::to_string(max_directions) + " directions)");
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
  const WeldedVertices welded = weld(soup);
  const auto key = [](std::uint32_t u, std::uint32_t v) {
    return u < v ? (std::uint64_t{u} << 32 | v) : (std::uint64_t{v} << 32 | u);
  };
  std::vector<bool> counted(welded.triangle_count());
  std::unordered_map<std::uint64_t, std::size_t> uses;
  uses.reserve(3 * welded.triangle_count());
  for (std::size_t t = 0; t < welded.triangle_count(); ++t) {
    counted[t] = !is_degenerate(soup.triangle(t));
    if (!counted[t]) continue;
    for (std::size_t k = 0; k < 3; ++k)
      ++uses[key(welded.corners[3 * t + k], welded.corners[3 * t + (k + 1) % 3])];
  }
  for (std::size_t t = 0; t < welded.triangle_count(); ++t) {
    if (!counted[t]) continue;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t u = welded.corners[3 * t + k], v = welded.corners[3 * t + (k + 1) % 3];
      const std::size_t count = uses[key(u, v)];
      if (count % 2 == 1) return OpenEdge{welded.positions[u], welded.positions[v], count};
    }
  }
  return std::nullopt;
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
