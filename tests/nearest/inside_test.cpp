// side_of, sides_of and signed_distance on closed procedural polyhedra whose answer is known
// exactly: convex shapes (inside iff strictly inside every face plane, in rationals), nested
// and apart shells (even-odd), flipped triangles; at vertices, on edges and faces, one ulp
// inside or outside, and on face planes outside the faces; from points whose ray passes
// exactly through an edge, a vertex or along an edge (the symbolic perturbation decides), and
// on the mesh that trapped the retries of old: a vertex on each of their 1000 rays.
#include "support/closed_meshes.hpp"
#include "support/describe.hpp"
#include "support/inside_oracle.hpp"
#include "support/inside_trap.hpp"
#include "support/nearest_oracle.hpp"

#include "nearest/inside_ray.hpp"

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

using Shell = ConvexShell;

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
    check_convex({tetrahedron, tetrahedron_shell(v[0], v[1], v[2], v[3]).interior},
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
    check_sides(all, points, [&](const Vec3& p) { return shells_side(shells, p); });
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

/// The point from which the ray `side_of` casts in `scene` passes exactly through `target`, at
/// parameter `s` (a power of two): target - s·d for the direction d it casts from there
/// (required: the same d as aimed with, and the passage exact in rationals).
Vec3 aimed_through(const Scene& scene, const Vec3& target, float s) {
  const Aabb bounds = build(scene.soup()).bounds();
  const Vec3 d = detail::inside_ray_direction(bounds, target + Vec3(s, 0, 0));
  const Vec3 p = target - s * d;
  REQUIRE(detail::inside_ray_direction(bounds, p) == d);
  for (int axis = 0; axis < 3; ++axis)
    REQUIRE(oracle::rational(p[axis]) + oracle::rational(s) * oracle::rational(d[axis]) ==
            oracle::rational(target[axis]));
  return p;
}

/// Shells where side_of's ray from a point inside reaches (-1, 0, 0), which is on an edge or a
/// vertex of one of them, before leaving the bounds through x = min.
struct AimedCase {
  const char* what;
  std::vector<Shell> shells;
};

std::vector<AimedCase> aimed_cases() {
  const Vec3 target(-1, 0, 0);
  const Shell octahedron{octahedron_mesh(Vec3(0.0f), {1, 1, 1, 1, 1, 1}),
                         oracle::rational(Vec3(0.0f))};
  // B on the ray beyond the target (half a step further): the ray runs along the edge target-B,
  // in the planes of two faces.
  const Vec3 beyond =
      target + 0.5f * detail::inside_ray_direction(octahedron.scene.bounds(), Vec3(-0.5f, 0, 0));
  return {
      {"a box face's diagonal", {box_shell(Vec3(-1.0f), Vec3(1.0f))}},
      {"an octahedron's vertex", {octahedron}},
      {"a tetrahedron's vertex",
       {tetrahedron_shell(target, Vec3(1, -1, -1), Vec3(1, 1, -1), Vec3(1, 0, 1))}},
      {"a box edge",
       {box_shell(Vec3(-1, -1, 0), Vec3(1, 1, 2)), box_shell(Vec3(-1, -1, -4), Vec3(1, 1, -3))}},
      {"a box corner",
       {box_shell(Vec3(-1, -2, 0), Vec3(1, 0, 2)), box_shell(Vec3(-1, 2, -3), Vec3(1, 3, -2))}},
      {"an edge along the ray, in two faces' planes",
       {octahedron, tetrahedron_shell(target, beyond, Vec3(-1.5f, 1, 0), Vec3(-1.5f, 0, 1))}},
  };
}

TEST_CASE("side_of when its ray passes exactly through an edge or a vertex", "[nearest][inside]") {
  const Vec3 target(-1, 0, 0);
  for (const AimedCase& aimed : aimed_cases()) {
    INFO("the ray meets " << aimed.what);
    const Scene scene = merged_shells(aimed.shells, "aimed");
    REQUIRE_FALSE(find_open_edge(scene.soup()));
    for (const float s : {0.25f, 0.125f}) {
      const Vec3 inner = aimed_through(scene, target, s);
      REQUIRE(shells_side(aimed.shells, inner) == PointSide::inside);
      check_sides(scene, {inner, target},
                  [&](const Vec3& p) { return shells_side(aimed.shells, p); });
      // A small box around the point makes it outside; its ray is the same.
      std::vector<Shell> nested = aimed.shells;
      nested.push_back(box_shell(inner - Vec3(0x1p-5f), inner + Vec3(0x1p-5f)));
      const Scene outer = merged_shells(nested, "aimed_nested");
      REQUIRE(aimed_through(outer, target, s) == inner);
      REQUIRE(shells_side(nested, inner) == PointSide::outside);
      check_sides(outer, {inner}, [&](const Vec3& p) { return shells_side(nested, p); });
    }
  }
}

TEST_CASE("side_of on a mesh with a vertex on each ray the retries cast", "[nearest][inside]") {
  for (const bool nested : {false, true}) {
    const std::vector<Shell> shells = inside_trap(nested);
    const Scene trap = merged_shells(shells, nested ? "trap_nested" : "trap");
    REQUIRE_FALSE(find_open_edge(trap.soup()));
    const Vec3 origin(0.0f);
    REQUIRE(detail::inside_ray_direction(build(trap.soup()).bounds(), origin) ==
            retired_inside_directions().front());
    REQUIRE(shells_side(shells, origin) == (nested ? PointSide::outside : PointSide::inside));
    check_sides(trap, {origin, Vec3(0, 0, 3), Vec3(1, -1, 0.5f), Vec3(-4, 0, 0), Vec3(9, 0, 0)},
                [&](const Vec3& p) { return shells_side(shells, p); });
  }
}

}  // namespace
}  // namespace trisect::testing
