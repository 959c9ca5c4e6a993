// side_of, sides_of and signed_distance on closed procedural polyhedra whose answer is known
// exactly: convex shapes (inside iff strictly inside every face plane, in rationals), nested
// and apart shells (even-odd), flipped triangles; at vertices, on edges and faces, one ulp
// inside or outside, and on face planes outside the faces.
#include "support/closed_meshes.hpp"
#include "support/describe.hpp"
#include "support/inside_oracle.hpp"
#include "support/nearest_oracle.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/nearest/inside.hpp>

#include <tbb/task_arena.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float inf = std::numeric_limits<float>::infinity();

/// A convex shell and a point strictly inside it.
struct Shell {
  Scene scene;
  oracle::QVec3 interior;
};

Shell box_shell(const Vec3& min, const Vec3& max) {
  oracle::QVec3 center;
  for (std::size_t i = 0; i < 3; ++i)
    center[i] =
        (oracle::rational(min[static_cast<int>(i)]) + oracle::rational(max[static_cast<int>(i)])) /
        2;
  return {box_mesh(min, max), center};
}

/// The points of the box [min, max] where the answer changes: corners, points on its edges
/// and faces, one ulp either side of each face, on face planes beyond the faces, on edge lines
/// beyond the corners, the centre.
std::vector<Vec3> box_points(const Vec3& min, const Vec3& max) {
  std::vector<Vec3> points;
  const Vec3 mid = 0.5f * min + 0.5f * max;
  const float big = std::numeric_limits<float>::max();
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (const float face : {min[axis], max[axis]}) {
      const float other = face == min[axis] ? max[axis] : min[axis];
      for (const float at : {face, std::nextafter(face, other), std::nextafter(face, -other),
                             std::nextafter(face, face == min[axis] ? -big : big)}) {
        Vec3 p = mid;
        p[axis] = at;
        points.push_back(p);  // on, just inside, just outside the face (or beyond)
        for (const float pu :
             {min[u], max[u], std::nextafter(min[u], -big), std::nextafter(max[u], big), mid[u]})
          for (const float pv : {min[v], max[v], mid[v], max[v] + (max[v] - min[v])}) {
            p[u] = pu;
            p[v] = pv;
            points.push_back(p);  // corners, edges, face points, plane points outside
          }
      }
    }
  }
  points.push_back(mid);
  return points;
}

/// Vertices, rounded edge midpoints and face centroids, nudged vertices, and random points
/// around a scene.
std::vector<Vec3> scene_points(const Scene& scene, int random_count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Vec3> points;
  for (std::size_t id = 0; id < scene.size(); ++id) {
    const Triangle t = scene.triangle(id);
    points.insert(points.end(),
                  {t.a, 0.5f * (t.a + t.b), (t.a + t.b + t.c) / 3.0f,
                   Vec3(std::nextafter(t.a.x, inf), t.a.y, t.a.z), t.b + 2.0f * (t.b - t.c)});
  }
  const Aabb bounds = scene.bounds();
  for (int k = 0; k < random_count; ++k) {
    Vec3 p;
    for (int axis = 0; axis < 3; ++axis) {
      const float pad = 0.2f * (bounds.max[axis] - bounds.min[axis]);
      p[axis] = uniform(random, bounds.min[axis] - pad, bounds.max[axis] + pad);
    }
    points.push_back(p);
  }
  return points;
}

/// side_of, signed_distance and sides_of (1 and 2 threads) at every point against `expected`.
void check_sides(const Scene& scene, const std::vector<Vec3>& points,
                 const std::function<PointSide(const Vec3&)>& expected) {
  INFO("scene " << scene.name << " (" << scene.size() << " triangles)");
  const Bvh bvh = build(scene.soup());
  std::vector<PointSide> sides;
  for (const Vec3& point : points) {
    INFO("point " << describe(point));
    const PointSide side = expected(point);
    INFO("expected " << to_string(side));
    const PointSide got = side_of(bvh, point);
    REQUIRE(to_string(got) == std::string(to_string(side)));
    sides.push_back(got);
    const auto nearest = oracle::nearest(scene.soup(), point, inf);
    REQUIRE(nearest);
    CHECK((side == PointSide::surface) == (sgn(nearest->squared) == 0));
    const double distance = signed_distance(bvh, point);
    INFO("signed distance " << distance);
    CHECK(oracle::near_root(std::fabs(distance), nearest->squared, mpq_class(1, 1000000)));
    CHECK((side == PointSide::inside ? distance < 0 : distance >= 0));
    if (side == PointSide::surface) CHECK(distance == 0.0);
  }
  for (const int threads : {1, 2}) {
    std::vector<PointSide> batch(points.size(), PointSide::surface);
    tbb::task_arena(threads).execute([&] { sides_of(bvh, points, batch); });
    CHECK(batch == sides);
  }
}

void check_convex(const Shell& shell, const std::vector<Vec3>& points) {
  check_sides(shell.scene, points, [&](const Vec3& p) {
    return oracle::convex_side(shell.scene.soup(), shell.interior, p);
  });
}

TEST_CASE("side_of on boxes: corners, edges, faces, one ulp either side", "[nearest][inside]") {
  std::mt19937_64 random(401);
  std::vector<std::pair<Vec3, Vec3>> boxes = {{Vec3(-1.0f), Vec3(1.0f)},
                                              {Vec3(0.0f), Vec3(1e-30f, 2e-30f, 3e-30f)},
                                              {Vec3(1e30f, -1e30f, 0), Vec3(2e30f, 1e30f, 1)},
                                              {Vec3(-0x1p127f), Vec3(0x1p127f)}};
  for (int k = 0; k < 6; ++k) {
    const Vec3 a(uniform(random, -5, 5), uniform(random, -5, 5), uniform(random, -5, 5));
    boxes.emplace_back(a, a + Vec3(uniform(random, 1e-3f, 4), uniform(random, 1e-3f, 4),
                                   uniform(random, 1e-3f, 4)));
  }
  for (const auto& [min, max] : boxes) {
    const Shell shell = box_shell(min, max);
    std::vector<Vec3> points = box_points(min, max);
    for (Vec3& p : points)
      if (!is_finite(p)) p = Vec3(0.0f);
    check_convex(shell, points);
    check_convex({flipped(shell.scene, 1, 3), shell.interior}, points);  // orientation
  }
}

TEST_CASE("side_of on octahedra and tetrahedra with float vertices", "[nearest][inside]") {
  std::mt19937_64 random(402);
  for (int k = 0; k < 8; ++k) {
    const Vec3 center(uniform(random, -3, 3), uniform(random, -3, 3), uniform(random, -3, 3));
    std::array<float, 6> reach;
    for (float& r : reach) r = k == 0 ? 1.0f : uniform(random, 0.1f, 4);
    const Scene octahedron = octahedron_mesh(center, reach);
    check_convex({octahedron, oracle::rational(center)},
                 scene_points(octahedron, 150, 403 + static_cast<std::uint64_t>(k)));
    std::array<Vec3, 4> v;
    for (Vec3& p : v)
      p = Vec3(uniform(random, -4, 4), uniform(random, -4, 4), uniform(random, -4, 4));
    const Scene tetrahedron = flipped(tetrahedron_mesh(v[0], v[1], v[2], v[3]), 0, 2);
    oracle::QVec3 centroid;
    for (std::size_t i = 0; i < 3; ++i) {
      centroid[i] = 0;
      for (const Vec3& p : v) centroid[i] += oracle::rational(p[static_cast<int>(i)]) / 4;
    }
    check_convex({tetrahedron, centroid},
                 scene_points(tetrahedron, 150, 413 + static_cast<std::uint64_t>(k)));
  }
}

TEST_CASE("side_of on nested, apart and overlapping shells: the even-odd rule",
          "[nearest][inside]") {
  const std::vector<std::vector<std::pair<Vec3, Vec3>>> layouts = {
      {{Vec3(-3.0f), Vec3(3.0f)}, {Vec3(-1.0f), Vec3(1.0f)}},  // nested
      {{Vec3(-3.0f), Vec3(3.0f)}, {Vec3(-2.0f), Vec3(2.0f)}, {Vec3(-1.0f), Vec3(1.0f)}},
      {{Vec3(-3.0f), Vec3(-1.0f)}, {Vec3(1.0f), Vec3(3.0f)}},                           // apart
      {{Vec3(-1.0f), Vec3(1.0f)}, {Vec3(1.0f, -1.0f, -1.0f), Vec3(3.0f, 1.0f, 1.0f)}},  // a face
      {{Vec3(-1.0f), Vec3(1.0f)}, {Vec3(0.0f), Vec3(2.0f)}},               // overlapping
      {{Vec3(-1.0f), Vec3(1.0f)}, {Vec3(-1.0f), Vec3(1.0f, 1.0f, 0.5f)}},  // sharing faces
  };
  for (const auto& layout : layouts) {
    std::vector<Shell> shells;
    std::vector<Scene> scenes;
    std::vector<Vec3> points;
    for (const auto& [min, max] : layout) {
      shells.push_back(box_shell(min, max));
      scenes.push_back(flipped(shells.back().scene, scenes.size(), 2));
      const std::vector<Vec3> more = box_points(min, max);
      points.insert(points.end(), more.begin(), more.end());
    }
    const Scene all = merged(scenes, "shells");
    check_sides(all, points, [&](const Vec3& p) {
      std::vector<PointSide> each;
      for (const Shell& shell : shells)
        each.push_back(oracle::convex_side(shell.scene.soup(), shell.interior, p));
      return oracle::even_odd(each);
    });
  }
}

TEST_CASE("side_of on an empty mesh, with zero-area triangles, and for bad points",
          "[nearest][inside]") {
  const Bvh empty = build(TriangleSoup{});
  CHECK(side_of(empty, Vec3(0.0f)) == PointSide::outside);
  CHECK(signed_distance(empty, Vec3(1, 2, 3)) == std::numeric_limits<double>::infinity());
  // A box with zero-area triangles added: surface on them, otherwise as the box.
  const Shell box = box_shell(Vec3(-1.0f), Vec3(1.0f));
  Scene with_needles = with_triangle(box.scene, {Vec3(0.0f), Vec3(0.5f), Vec3(0.5f)});
  with_needles = with_triangle(with_needles, {Vec3(2, 0, 0), Vec3(3, 0, 0), Vec3(4, 0, 0)});
  with_needles = with_triangle(with_needles, {Vec3(0, 5, 0), Vec3(0, 5, 0), Vec3(0, 5, 0)});
  const std::vector<Vec3> points = {
      Vec3(0.0f),       Vec3(0.25f),   Vec3(0.5f),    Vec3(0.75f),        Vec3(0.25f, 0.25f, 0.5f),
      Vec3(2.5f, 0, 0), Vec3(5, 0, 0), Vec3(0, 5, 0), Vec3(0, 5, 1e-30f), Vec3(-1, 0.5f, 0.5f)};
  check_sides(with_needles, points, [&](const Vec3& p) {
    if (oracle::on_surface(with_needles.soup(), p)) return PointSide::surface;
    return oracle::convex_side(box.scene.soup(), box.interior, p);
  });
  const Bvh bvh = build(box.scene.soup());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Vec3& bad : {Vec3(nan, 0, 0), Vec3(0, inf, 0), Vec3(0, 0, -inf)}) {
    CHECK_THROWS_AS(side_of(bvh, bad), InvalidInput);
    CHECK_THROWS_AS(side_of(empty, bad), InvalidInput);
    CHECK_THROWS_AS(signed_distance(bvh, bad), InvalidInput);
  }
  std::vector<Vec3> batch(30, Vec3(0.0f));
  std::vector<PointSide> sides(30), short_sides(29);
  CHECK_THROWS_AS(sides_of(bvh, batch, short_sides), InvalidInput);
  batch[23] = Vec3(0, nan, 0);
  CHECK_THROWS_WITH(sides_of(bvh, batch, sides), Catch::Contains("23"));
}

}  // namespace
}  // namespace trisect::testing
