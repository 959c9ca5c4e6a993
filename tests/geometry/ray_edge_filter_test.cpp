// The ray pre-test on edge groups (a vertex, two edges and the normal stored per triangle):
// the stored rows, and that a triangle it rules out is one the exact test misses for every t,
// at every scale the floats allow, for rays aimed at vertices and edges; and that it does rule
// out the clear misses.
#include <trisect/geometry/ray_edge_filter.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>

namespace trisect::testing {
namespace {

constexpr float infinity = std::numeric_limits<float>::infinity();

// `triangles` (1 to 4) as an edge group in `storage`, with NaN past the last lane, which must
// not matter.
EdgeGroup pack(const Triangle* triangles, int count,
               std::array<float, EdgeGroup::rows * 4 + 3>& storage) {
  storage.fill(std::numeric_limits<float>::quiet_NaN());
  for (int lane = 0; lane < count; ++lane)
    EdgeGroup::write_lane(storage.data(), count, lane, triangles[lane]);
  return {storage.data(), count};
}

// True when the line of `ray` meets `triangle` (closed, non-zero area, not in its plane), by
// the exact test over every t.
bool line_meets(const Ray& ray, const Triangle& triangle) {
  return intersect(Ray{ray.origin, ray.direction, -infinity, infinity}, triangle).has_value();
}

TEST_CASE("an edge group stores a vertex, the edges and the normal, rounded once",
          "[ray_triangle]") {
  const Triangle triangles[3] = {{Vec3(1, 2, 3), Vec3(4, 6, 3), Vec3(1, 2, 8)},
                                 // Edges beyond the float range become infinite; the normal too.
                                 {Vec3(-3e38f, 0, 0), Vec3(3e38f, 0, 0), Vec3(0, 3e38f, 1)},
                                 // An edge that is not a float: 1 - 2^-30 rounds to 1.
                                 {Vec3(0x1p-30f, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}};
  std::array<float, EdgeGroup::rows * 4 + 3> storage;
  const EdgeGroup group = pack(triangles, 3, storage);
  const auto row = [&](int r, int lane) { return storage[static_cast<std::size_t>(r * 3 + lane)]; };
  for (int axis = 0; axis < 3; ++axis)
    CHECK(row(EdgeGroup::corner + axis, 0) == triangles[0].a[axis]);
  CHECK((row(3, 0) == 3 && row(4, 0) == 4 && row(5, 0) == 0));       // b - a
  CHECK((row(6, 0) == 0 && row(7, 0) == 0 && row(8, 0) == 5));       // c - a
  CHECK((row(9, 0) == 20 && row(10, 0) == -15 && row(11, 0) == 0));  // (3,4,0) x (0,0,5)
  CHECK(row(EdgeGroup::first_edge, 1) == infinity);
  CHECK(row(EdgeGroup::normal + 2, 1) == infinity);
  CHECK(row(EdgeGroup::first_edge, 2) == 1.0f);
  CHECK(group.lane_mask() == 0b111u);
}

TEST_CASE("a far miss is ruled out, a hit never", "[ray_triangle]") {
  const Triangle triangle{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  std::array<float, EdgeGroup::rows * 4 + 3> storage;
  const EdgeGroup group = pack(&triangle, 1, storage);
  const Ray far{Vec3(5, 5, 3), Vec3(0.01f, 0.02f, -1)};
  CHECK(possible_hits(far, RayShear::of(far), group) == 0u);
  for (const Vec3 target : {Vec3(0.25f, 0.25f, 0), Vec3(0, 0, 0), Vec3(0.5f, 0.5f, 0)}) {
    const Ray ray{Vec3(0.3f, -0.7f, 2), target - Vec3(0.3f, -0.7f, 2)};
    CHECK(possible_hits(ray, RayShear::of(ray), group) == 1u);
  }
}

TEST_CASE("the edge pre-test rules out only triangles the exact test misses", "[ray_triangle]") {
  std::mt19937_64 random(4411);
  std::uniform_real_distribution<float> coordinate(-4.0f, 4.0f), weight(-0.05f, 1.05f);
  int kept = 0, ruled_out = 0;
  for (int i = 0; i < 20000; ++i) {
    // Every scale: where the pre-test declines (it then keeps the triangle) and within its range.
    const float scale = std::ldexp(1.0f, static_cast<int>(random() % 240) - 120);
    const auto point = [&] {
      return scale * Vec3(coordinate(random), coordinate(random), coordinate(random));
    };
    Triangle group[4];
    for (Triangle& triangle : group) triangle = {point(), point(), point()};
    // Degenerate and flipped triangles, and small ones far from the origin.
    if (i % 11 == 0) group[1].c = group[1].b;
    if (i % 13 == 0) group[2] = {group[0].a, group[0].c, group[0].b};
    if (i % 17 == 0)
      group[3] = {group[0].a, group[0].a + scale * 1e-3f * Vec3(1, 0, 0),
                  group[0].a + scale * 1e-3f * Vec3(0, 1, 1)};
    // Aimed at a point near the first triangle, at its vertex a, or at a rounded edge midpoint.
    const Triangle& first = group[0];
    const Vec3 target = i % 5 == 0   ? first.a
                        : i % 5 == 1 ? 0.5f * (first.a + first.b)
                                     : first.a + weight(random) * (first.b - first.a) +
                                           weight(random) * (first.c - first.a);
    const Vec3 origin = i % 19 == 0 ? first.b : point();  // also from a vertex
    const Ray ray{origin, target - origin};
    if (ray.direction == Vec3(0.0f) ||
        !std::isfinite(ray.direction.x + ray.direction.y + ray.direction.z))
      continue;
    const int count = 1 + i % 4;
    std::array<float, EdgeGroup::rows * 4 + 3> storage;
    const EdgeGroup edges = pack(group, count, storage);
    const unsigned possible = possible_hits(ray, RayShear::of(ray), edges);
    INFO("case " << i);
    CHECK(possible >> count == 0);
    for (int t = 0; t < count; ++t) {
      if (((possible >> t) & 1u) != 0) {
        ++kept;
        continue;
      }
      CHECK_FALSE(line_meets(ray, group[t]));
      ++ruled_out;
    }
  }
  CHECK(kept > 5000);
  CHECK(ruled_out > 5000);
}

}  // namespace
}  // namespace trisect::testing
