// Inside / outside / surface by exact ray parity.
//
// A point on a triangle is `surface` (a ball of radius 0 touches it: the exact sphere test).
// Otherwise a ray from the point is cast in a direction from a fixed pseudo-random sequence;
// every triangle in a leaf the ray reaches is classified exactly by the signs of the three
// volumes d·((u - p) × (v - p)) over its edges u→v (the line meets the closed triangle when
// they do not differ in strict sign; it passes through an edge or a vertex when some are 0 and
// lies in the triangle's plane when all are) and by which side of the plane p lies on (the
// meeting point is ahead of p or behind it). Where the ray would touch an edge or a vertex of a
// triangle of non-zero area, or lie in its plane, the next direction is tried, so the parity
// counted is that of a ray meeting triangles only in their interiors: the contract's rays.
// This is the classic Jordan-curve argument made exact; choosing again rather than perturbing
// symbolically keeps every predicate a plain sign (Edelsbrunner & Mücke's simulation of
// simplicity would avoid the retries at the price of a much larger predicate).
#include "trisect/nearest/inside.hpp"

#include "bvh/ray_visitors.hpp"

#include "trisect/bvh/collect.hpp"
#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/bvh/sphere_query.hpp"
#include "trisect/geometry/triangle_normal.hpp"
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
#include <unordered_map>

namespace trisect {
namespace {

/// What a ray does at one triangle.
enum class Crossing { none, through, touches };

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
/// comment). `origin` lies on no triangle.
Crossing classify(const Vec3& origin, const Vec3& direction, const Triangle& t) {
  const int ab = edge_volume_sign(origin, direction, t.a, t.b);
  const int bc = edge_volume_sign(origin, direction, t.b, t.c);
  if (ab * bc < 0) return Crossing::none;
  const int ca = edge_volume_sign(origin, direction, t.c, t.a);
  if (ab * ca < 0 || bc * ca < 0) return Crossing::none;
  // The line meets the closed triangle (or lies in its plane). Zero-area triangles do not count.
  const bool on_boundary = ab == 0 || bc == 0 || ca == 0;
  if (on_boundary && is_degenerate(t)) return Crossing::none;
  if (ab == 0 && bc == 0 && ca == 0) return Crossing::touches;  // in the plane: choose again
  // The volumes sum to d·n, so their common sign is that of d·n; the meeting point is ahead
  // when n·(a - p) has that sign too (it is not 0: the origin is on no triangle).
  const int along = ab + bc + ca > 0 ? 1 : -1;
  if (-detail::normal_side(t, origin) != along) return Crossing::none;
  return on_boundary ? Crossing::touches : Crossing::through;
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
          for (int lane = 0; lane < group.count; ++lane) {
            const Crossing crossing = classify(ray.origin, ray.direction, group.triangle(lane));
            if (crossing == Crossing::touches) {
              touched_ = true;
              return false;
            }
            crossings_ += crossing == Crossing::through ? 1u : 0u;
          }
          return true;
        });
  }

  [[nodiscard]] bool touched() const noexcept { return touched_; }
  [[nodiscard]] std::size_t crossings() const noexcept { return crossings_; }

 private:
  bool touched_ = false;
  std::size_t crossings_ = 0;
};

/// Direction `k` of the fixed sequence: SplitMix64 (Steele, Lea & Flood, 2014) turned into
/// three floats in [-1, 1], none too short.
Vec3 direction(std::uint64_t k) {
  std::uint64_t state = 0x9E3779B97F4A7C15u * (k + 1);
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return static_cast<float>(static_cast<double>(z >> 40) * 0x1p-23 - 1.0);
  };
  for (;;) {
    const Vec3 d(next(), next(), next());
    if (d.x * d.x + d.y * d.y + d.z * d.z > 0.25f) return d;
  }
}

/// Directions tried before giving up (each fails only on a set of measure zero).
constexpr std::uint64_t max_directions = 1000;

PointSide side_of_valid(const Bvh& bvh, const Vec3& point) {
  if (any_touching(bvh, Sphere{point, 0.0f})) return PointSide::surface;
  for (std::uint64_t k = 0; k < max_directions; ++k) {
    CrossingVisitor<detail::FourLaneRaySlabs> visitor(bvh, Ray{point, direction(k)});
    ordered_walk<WalkOrder::lane_order>(bvh, visitor);
    if (!visitor.touched())
      return visitor.crossings() % 2 == 1 ? PointSide::inside : PointSide::outside;
  }
  throw Error("side_of: no ray from the point avoids every edge (after " +
              std::to_string(max_directions) + " directions)");
}

void check_point(const Vec3& point, const std::string& what) {
  validate(Sphere{point, 0.0f}, what);
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
  check_point(point, "inside query");
  return side_of_valid(bvh, point);
}

void sides_of(const Bvh& bvh, std::span<const Vec3> points, std::span<PointSide> sides) {
  if (sides.size() != points.size())
    throw InvalidInput("sides_of: " + std::to_string(points.size()) + " points but room for " +
                       std::to_string(sides.size()) + " answers");
  for (std::size_t i = 0; i < points.size(); ++i)
    check_point(points[i], "sides_of: point " + std::to_string(i));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 64),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i < range.end(); ++i)
                        sides[i] = side_of_valid(bvh, points[i]);
                    });
}

double signed_distance(const Bvh& bvh, const Vec3& point) {
  const auto nearest = closest_point(bvh, point);
  if (!nearest) return std::numeric_limits<double>::infinity();
  if (nearest->distance == 0) return 0;
  return side_of_valid(bvh, point) == PointSide::inside ? -nearest->distance : nearest->distance;
}

}  // namespace trisect
