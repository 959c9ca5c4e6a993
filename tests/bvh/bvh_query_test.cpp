// BVH queries against brute force over every triangle, as exact sorted sets, on random,
// lattice (ties), degenerate, needle, far and tiny scenes; builds are checked with validate()
// and must not depend on the thread count.
#include <trisect/bvh/ray_kernels.hpp>
#include "bvh/scenes.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/geometry/aabb_triangle.hpp>
#include <trisect/geometry/plane_triangle.hpp>
#include <trisect/geometry/ray_triangle.hpp>
#include <trisect/geometry/sphere_triangle.hpp>

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace trisect::test {
namespace {

template <class Shape>
std::vector<TriangleId> brute_force(const Scene& scene, const Shape& shape) {
  std::vector<TriangleId> ids;
  for (std::size_t id = 0; id < scene.size(); ++id)
    if (intersects(scene.soup().triangle(id), shape)) ids.push_back(static_cast<TriangleId>(id));
  return ids;
}

std::optional<Hit> brute_force_ray(const Scene& scene, const Ray& ray) {
  std::optional<Hit> best;
  for (std::size_t id = 0; id < scene.size(); ++id) {
    const auto hit = intersect(ray, scene.soup().triangle(id));
    if (hit && (!best || hit->t < best->t))
      best = Hit{hit->t, static_cast<TriangleId>(id), hit->u, hit->v};
  }
  return best;
}

// Query shapes drawn from the scene: boxes and spheres around (and with faces through) its
// vertices, planes through its vertices with small-integer and random normals.
struct QueryMaker {
  const Scene& scene;
  std::mt19937_64 random;

  Vec3 vertex() {
    return scene.positions[std::uniform_int_distribution<std::size_t>(
        0, scene.positions.size() - 1)(random)];
  }
  Vec3 small_integer_vector() {
    Vec3 v(0.0f);
    while (v == Vec3(0.0f))
      v = Vec3(float(lattice(random, -2, 2)), float(lattice(random, -2, 2)),
               float(lattice(random, -2, 2)));
    return v;
  }
  Aabb box(float size) {
    switch (lattice(random, 0, 3)) {
      case 0:
        return Aabb::from_corners(vertex(), vertex());  // faces through vertices
      case 1: {                                         // a slab through a vertex
        Vec3 a = vertex(), b = a + Vec3(size);
        b[lattice(random, 0, 2)] = a[lattice(random, 0, 2)];
        return Aabb::from_corners(a, b);
      }
      case 2: {
        const Vec3 p = vertex();
        return Aabb{p, p};
      }  // a point on a vertex
      default:
        return Aabb::from_center_extents(vertex(), Vec3(size * uniform(random, 0, 1)));
    }
  }
  Plane plane() {
    const Vec3 normal =
        lattice(random, 0, 1) == 0
            ? small_integer_vector()
            : Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
    const Vec3 p = vertex();
    // Through a vertex when the products are exact (small-integer normal on float vertex).
    return {normal, normal.x * p.x + normal.y * p.y + normal.z * p.z};
  }
  Sphere sphere(float size) {
    const Vec3 center = vertex();
    if (lattice(random, 0, 1) == 0) {  // tangent-ish: radius is the distance to another vertex
      const Vec3 other = vertex();
      return {center, glm::length(other - center)};
    }
    return {center + Vec3(uniform(random, -size, size)), size * uniform(random, 0, 1)};
  }
};

float scene_size(const Scene& scene) {
  Aabb bounds = Aabb::empty();
  for (const Vec3& p : scene.positions) bounds.extend(p);
  return glm::length(bounds.max - bounds.min);
}

bool same_nodes(const Bvh& a, const Bvh& b) {
  return a.nodes.size() == b.nodes.size() && a.ids == b.ids &&
         std::memcmp(a.nodes.data(), b.nodes.data(), a.nodes.size() * sizeof(BvhNode)) == 0 &&
         a.wide.size() == b.wide.size() &&
         std::memcmp(a.wide.data(), b.wide.data(), a.wide.size() * sizeof(WideNode)) == 0;
}

// A box query seen only through the scalar TriangleQuery tests, so that the traversal takes
// its child-by-child path instead of BoxQuery::child_masks.
struct ScalarBoxQuery {
  BoxQuery inner;
  [[nodiscard]] bool may_touch(const Aabb& node) const { return inner.may_touch(node); }
  [[nodiscard]] bool contains(const Aabb& node) const { return inner.contains(node); }
  [[nodiscard]] bool touches(const Triangle& triangle) const { return inner.touches(triangle); }
};
static_assert(WideTriangleQuery<BoxQuery> && !WideTriangleQuery<ScalarBoxQuery>);

TEST_CASE("bvh builds are valid and identical for 1, 2 and 8 threads", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh one = build(soup, {.threads = 1});
    REQUIRE_NOTHROW(validate(one, &soup));
    for (unsigned threads : {2u, 8u}) {
      const Bvh many = build(soup, {.threads = threads});
      REQUIRE(same_nodes(one, many));
    }
    const BvhStatistics stats = statistics(one);
    CHECK(stats.leaf_count * 2 - 1 == stats.node_count);
    CHECK(stats.depth <= max_bvh_depth);
  }
}

// `plane` times the power of two that brings its magnitude over the BVH's bounds
// (sum |n_i| max|x_i| + |d|) to about 2^101, or nothing when a coefficient would overflow.
std::optional<Plane> scaled_past_float_tests(const Bvh& bvh, const Plane& plane) {
  const Aabb bounds = bvh.bounds();
  double magnitude = std::fabs(double(plane.d));
  for (int axis = 0; axis < 3; ++axis)
    magnitude += std::fabs(double(plane.normal[axis])) *
                 std::max(std::fabs(double(bounds.min[axis])), std::fabs(double(bounds.max[axis])));
  const float scale = std::ldexp(1.0f, 101 - std::ilogb(magnitude));
  const Plane scaled{plane.normal * scale, plane.d * scale};
  if (!is_finite(scaled.normal) || !std::isfinite(scaled.d)) return std::nullopt;
  return scaled;
}

TEST_CASE("box, plane and sphere queries equal brute force on every scene", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(11)};
    const float size = 0.05f * scene_size(scene);
    for (int q = 0; q < 150; ++q) {
      const Aabb box = make.box(size);
      INFO("box " << box.min.x << ' ' << box.min.y << ' ' << box.min.z << " / " << box.max.x << ' '
                  << box.max.y << ' ' << box.max.z);
      const auto expected = brute_force(scene, box);
      REQUIRE(collect_touching(bvh, box) == expected);
      REQUIRE(any_touching(bvh, box) == !expected.empty());
      const Plane plane = make.plane();
      const auto expected_plane = brute_force(scene, plane);
      REQUIRE(collect_touching(bvh, plane) == expected_plane);
      // The same plane scaled by a power of two (exact) so that |n|·|x| + |d| reaches 1e30:
      // too large for the float child tests, so the traversal takes the exact child-by-child
      // path, with the same answer.
      if (const auto scaled = scaled_past_float_tests(bvh, plane)) {
        REQUIRE(make_query(bvh, *scaled).float_error_bound ==
                std::numeric_limits<float>::infinity());
        REQUIRE(collect_touching(bvh, *scaled) == expected_plane);
      }
      const Sphere sphere = make.sphere(size);
      REQUIRE(collect_touching(bvh, sphere) == brute_force(scene, sphere));
    }
  }
}

TEST_CASE("balls and boxes where float squares underflow equal brute force", "[bvh]") {
  // Coordinates near 1e-20: squared distances are subnormal or zero in float, the regime of
  // the sphere query's absolute slack and of its rule that tiny balls accept no node whole.
  for (const Scene& scene : {transformed(random_soup(1500, 8), 0x1p-66f, Vec3(0.0f), "_1e-20"),
                             transformed(lattice_soup(1500, 9), 0x1p-70f, Vec3(0.0f), "_1e-21")}) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(12)};
    const float size = 0.05f * scene_size(scene);
    for (int q = 0; q < 300; ++q) {
      const Sphere sphere = q % 5 == 0 ? Sphere{make.vertex(), 0.0f} : make.sphere(size);
      INFO("sphere " << sphere.center.x << ' ' << sphere.center.y << ' ' << sphere.center.z << " r "
                     << sphere.radius);
      REQUIRE(collect_touching(bvh, sphere) == brute_force(scene, sphere));
      const Aabb box = make.box(size);
      REQUIRE(collect_touching(bvh, box) == brute_force(scene, box));
    }
  }
}

// The ray kernels this processor runs: the portable one always, the AVX one where it can.
std::vector<detail::RayKernel> ray_kernels() {
  std::vector<detail::RayKernel> kernels{detail::RayKernel::four_lane};
  if (detail::available(detail::RayKernel::eight_lane))
    kernels.push_back(detail::RayKernel::eight_lane);
  else
    WARN("no AVX here: only the portable ray kernel is tested");
  return kernels;
}

TEST_CASE("closest_hit equals brute force, any_hit agrees, with each ray kernel", "[bvh]") {
  REQUIRE(detail::available(detail::chosen_ray_kernel()));
  for (const detail::RayKernel kernel : ray_kernels()) {
    INFO("kernel " << static_cast<int>(kernel));
    for (const Scene& scene : all_scenes()) {
      INFO(scene.name);
      const Bvh bvh = build(scene.soup());
      QueryMaker make{scene, std::mt19937_64(12)};
      for (int q = 0; q < 300; ++q) {
        const Vec3 origin =
            make.vertex() + Vec3(uniform(make.random, -3, 3) * scene_size(scene) * 0.1f);
        const Vec3 target = make.vertex();
        Ray ray{origin, target - origin};
        if (ray.direction == Vec3(0.0f)) continue;
        if (q % 3 == 1) ray.t_max = 0.5f;
        if (q % 5 == 2) ray.t_min = 0.25f;
        if (q % 7 == 3) ray.t_min = -2.0f;  // also behind the origin: the signed widening
        const auto expected = brute_force_ray(scene, ray);
        const auto got = detail::closest_hit_with(kernel, bvh, ray);
        REQUIRE(got.has_value() == expected.has_value());
        if (got) {
          CHECK(got->t == expected->t);
          // A different id is fine only at an equal t (a shared edge or vertex).
          const auto at_id = intersect(ray, scene.soup().triangle(got->id));
          REQUIRE(at_id.has_value());
          CHECK(at_id->t == got->t);
        }
        CHECK(detail::any_hit_with(kernel, bvh, ray) == expected.has_value());
      }
    }
  }
}

TEST_CASE("axis-parallel rays along lattice lines and faces equal brute force", "[bvh]") {
  const Scene scene = lattice_soup(3000, 31);
  const Bvh bvh = build(scene.soup());
  for (const detail::RayKernel kernel : ray_kernels()) {
    std::mt19937_64 random(32);
    const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int q = 0; q < 3000; ++q) {
      // Origins on lattice points and half-lattice points: rays run along triangle edges and
      // inside triangle planes, and start on node box faces.
      const float step = q % 2 == 0 ? 1.0f : 0.5f;
      const Vec3 origin(step * float(lattice(random, -16, 16)),
                        step * float(lattice(random, -16, 16)),
                        step * float(lattice(random, -16, 16)));
      Ray ray{origin, axes[q % 6]};
      if (q % 4 == 3) ray.t_min = -3.0f;
      const auto expected = brute_force_ray(scene, ray);
      const auto got = detail::closest_hit_with(kernel, bvh, ray);
      REQUIRE(got.has_value() == expected.has_value());
      if (got) REQUIRE(got->t == expected->t);
    }
  }
}

TEST_CASE("for_each_touching stops when the visitor returns false", "[bvh]") {
  const Scene scene = random_soup(2000, 21);
  const Bvh bvh = build(scene.soup());
  const Aabb everything = Aabb::from_corners(Vec3(-20.0f), Vec3(20.0f));
  int visits = 0;
  const bool completed =
      for_each_touching(bvh, everything, [&](TriangleId) { return ++visits < 5; });
  CHECK_FALSE(completed);
  CHECK(visits == 5);
  QueryStats stats;
  CHECK(collect_touching(bvh, everything, &stats).size() == scene.size());
  CHECK(stats.triangles_inside == scene.size());  // the root lies inside: nothing is tested
  CHECK(stats.triangles_tested == 0);
}

TEST_CASE("batch queries answer each query as the single-query functions do", "[bvh]") {
  const Scene scene = lattice_soup(3000, 41);
  const Bvh bvh = build(scene.soup());
  QueryMaker make{scene, std::mt19937_64(42)};
  std::vector<Aabb> boxes;
  std::vector<Plane> planes;
  std::vector<Ray> rays;
  for (int i = 0; i < 200; ++i) {
    boxes.push_back(make.box(2.0f));
    planes.push_back(make.plane());
    rays.push_back(Ray{make.vertex() + Vec3(0.5f, 0.25f, 20.0f), Vec3(0.01f, 0.02f, -1.0f)});
  }
  const auto box_answers = collect_touching_batch(bvh, std::span<const Aabb>(boxes));
  const auto plane_answers = collect_touching_batch(bvh, std::span<const Plane>(planes));
  const auto hits = closest_hit_batch(bvh, rays);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    REQUIRE(box_answers[i] == brute_force(scene, boxes[i]));
    REQUIRE(plane_answers[i] == brute_force(scene, planes[i]));
    const auto expected = brute_force_ray(scene, rays[i]);
    REQUIRE(hits[i].has_value() == expected.has_value());
    if (expected) REQUIRE(hits[i]->t == expected->t);
  }
  planes[17].normal = Vec3(0.0f);
  CHECK_THROWS_WITH(collect_touching_batch(bvh, std::span<const Plane>(planes)),
                    Catch::Contains("batch query 17") && Catch::Contains("normal is zero"));
}

TEST_CASE("infinite box bounds and an infinite radius answer as half-spaces and all space",
          "[bvh]") {
  const Scene scene = lattice_soup(2000, 51);
  const Bvh bvh = build(scene.soup());
  constexpr float inf = std::numeric_limits<float>::infinity();
  const Aabb half_space{Vec3(-inf, -inf, 1.0f), Vec3(inf)};
  const Aabb finite_equivalent{Vec3(-100.0f, -100.0f, 1.0f), Vec3(100.0f)};
  CHECK(collect_touching(bvh, half_space) == brute_force(scene, finite_equivalent));
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf), Vec3(inf)}).size() == scene.size());
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf), Vec3(-inf, inf, inf)}).empty());
  CHECK(collect_touching(bvh, Aabb{Vec3(-inf, -inf, 50.0f), Vec3(inf)}).empty());
  CHECK(collect_touching(bvh, Sphere{Vec3(3.0f), inf}).size() == scene.size());
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(3.0f), -inf}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(inf), 1.0f}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Aabb{Vec3(std::nanf("")), Vec3(1.0f)}), InvalidInput);
}

TEST_CASE("wide nodes collapse the binary tree: 2 to 8 children, same leaves", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh bvh = build(soup, {.threads = 1});
    std::size_t binary_leaves = 0, wide_leaves = 0;
    for (const BvhNode& node : bvh.nodes) binary_leaves += node.is_leaf() ? 1u : 0u;
    for (const WideNode& node : bvh.wide) {
      const int used = std::popcount(node.used_mask());
      CHECK(used >= (bvh.nodes[0].is_leaf() ? 1 : 2));
      for (std::uint32_t child : node.child) wide_leaves += child == WideNode::leaf ? 1u : 0u;
    }
    CHECK(wide_leaves == binary_leaves);
    CHECK(bvh.wide.size() * 2 <= bvh.nodes.size());
    // The SIMD child tests and the child-by-child fallback give the same answers.
    const float size = scene_size(scene);
    for (std::size_t q = 0; q < 40; ++q) {
      const Vec3 center = scene.positions[(q * 7919) % scene.positions.size()];
      const Aabb box = Aabb::from_center_extents(center, Vec3(size * 0.02f * float(q % 5)));
      std::vector<TriangleId> scalar;
      for_each_touching(bvh, ScalarBoxQuery{make_query(bvh, box)}, [&](TriangleId id) {
        scalar.push_back(id);
        return true;
      });
      std::sort(scalar.begin(), scalar.end());
      CHECK(collect_touching(bvh, box) == scalar);
    }
  }
}

TEST_CASE("validate names a corrupted node", "[bvh]") {
  const Scene scene = all_scenes().front();
  const TriangleSoup soup = scene.soup();
  const Bvh good = build(soup, {.threads = 1});
  REQUIRE(good.wide.size() > 1);
  Bvh bad = good;
  bad.wide[1].bounds[1][0] = -std::numeric_limits<float>::max();  // child 0 ends left of all
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node"));
  bad = good;
  bad.wide[0].first[1] += 1;  // child 0 grows into child 1's slots
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node"));
  bad = good;
  bad.wide.pop_back();
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node"));
  bad = good;
  bad.nodes[1].bounds.max.x = bad.nodes[0].bounds.max.x + 1.0f;
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("node 1"));
  bad = good;
  std::swap(bad.triangles[0], bad.triangles[bad.size() - 1]);
  CHECK_THROWS_WITH(validate(bad, &soup), Catch::Contains("slot"));
}

TEST_CASE("empty soups build empty trees with empty answers", "[bvh]") {
  const Bvh bvh = build(TriangleSoup{});
  CHECK(bvh.empty());
  REQUIRE_NOTHROW(validate(bvh));
  CHECK(collect_touching(bvh, Aabb{Vec3(-1.0f), Vec3(1.0f)}).empty());
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 0}).empty());
  CHECK_FALSE(closest_hit(bvh, Ray{Vec3(0.0f), Vec3(0, 0, 1)}).has_value());
}

TEST_CASE("indexed soups answer in input triangle ids", "[bvh]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::uint32_t> indices{0, 1, 2, 0, 1, 3, 1, 2, 3, 0, 2, 3};
  const TriangleSoup soup{positions, indices};
  const Bvh bvh = build(soup, {.max_leaf_size = 1});
  REQUIRE_NOTHROW(validate(bvh, &soup));
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 0}) == std::vector<TriangleId>{0, 1, 2, 3});
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 1}) == std::vector<TriangleId>{1, 2, 3});
  CHECK(collect_touching(bvh, Aabb{Vec3(0.51f, 0.51f, 0.0f), Vec3(0.6f, 0.6f, 0.0f)}).empty());
  CHECK(collect_touching(bvh, Aabb{Vec3(0.5f, 0.5f, 0.0f), Vec3(0.5f, 0.5f, 0.0f)}) ==
        std::vector<TriangleId>{0, 2});
}

TEST_CASE("invalid soups, options and queries are rejected with the place named", "[bvh]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<std::uint32_t> bad_index{0, 1, 3};
  CHECK_THROWS_WITH(build(TriangleSoup{positions, bad_index}),
                    Catch::Contains("index 2") && Catch::Contains("triangle 0"));
  std::vector<Vec3> with_nan = positions;
  with_nan.push_back({0, 0, 0});
  with_nan.push_back({std::nanf(""), 0, 0});
  with_nan.push_back({1, 1, 1});
  CHECK_THROWS_WITH(build(TriangleSoup{with_nan}), Catch::Contains("triangle 1"));
  CHECK_THROWS_WITH(build(TriangleSoup{std::span<const Vec3>(positions).first(2)}),
                    Catch::Contains("multiple of 3"));
  CHECK_THROWS_AS(build(TriangleSoup{positions}, {.max_leaf_size = 0}), InvalidInput);
  const Bvh bvh = build(TriangleSoup{positions});
  CHECK_THROWS_AS(collect_touching(bvh, Plane{Vec3(0.0f), 1}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(0.0f), -1}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Aabb{Vec3(1.0f), Vec3(0.0f)}), InvalidInput);
  CHECK_THROWS_AS(closest_hit(bvh, Ray{Vec3(0.0f), Vec3(0.0f)}), InvalidInput);
}

TEST_CASE("rays with NaN, infinite or zero parts are rejected naming the part", "[bvh]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const Bvh bvh = build(TriangleSoup{positions});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Vec3 origin(0.25f, 0.25f, 1.0f), down(0.0f, 0.0f, -1.0f);
  struct Case {
    Ray ray;
    const char* names;
  };
  const std::vector<Case> bad{
      {{Vec3(nan, 0.25f, 1.0f), down}, "origin"},    {{Vec3(0.25f, inf, 1.0f), down}, "origin"},
      {{Vec3(0.25f, 0.25f, -inf), down}, "origin"},  {{origin, Vec3(nan, 0, -1)}, "direction"},
      {{origin, Vec3(0, -inf, -1)}, "direction"},    {{origin, Vec3(0, 0, nan)}, "direction"},
      {{origin, Vec3(0.0f)}, "direction is zero"},   {{origin, Vec3(-0.0f)}, "direction is zero"},
      {{origin, down, nan, 2.0f}, "t_min or t_max"}, {{origin, down, 0.0f, nan}, "t_min or t_max"},
  };
  for (const detail::RayKernel kernel : ray_kernels())
    for (const Case& c : bad) {
      INFO(c.names);
      CHECK_THROWS_WITH(detail::closest_hit_with(kernel, bvh, c.ray), Catch::Contains(c.names));
      CHECK_THROWS_WITH(detail::any_hit_with(kernel, bvh, c.ray), Catch::Contains(c.names));
    }
  // Valid: infinite t bounds, one zero (or negative zero) direction component, t_min > t_max.
  const auto hit = closest_hit(bvh, Ray{origin, down, -inf, inf});
  REQUIRE(hit.has_value());
  CHECK(hit->t == 1.0f);
  CHECK(any_hit(bvh, Ray{origin, Vec3(-0.0f, 0.0f, -1.0f)}));
  CHECK_FALSE(closest_hit(bvh, Ray{origin, down, 2.0f, 0.5f}).has_value());
}

}  // namespace
}  // namespace trisect::test
