// Rays where rounding decides: aimed exactly at vertices and edges of open and closed meshes,
// starting on triangles, with t_min or t_max at the exact hit t, large triangles hit near the
// origin, tiny and huge directions. Every answer, with each ray kernel, equals the exact oracle
// (support/ray_check.hpp): zero disagreements.
#include "support/property.hpp"
#include "support/ray_check.hpp"
#include "support/ray_kernels.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ray_query.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

namespace trisect::testing {
namespace {

constexpr float infinity = std::numeric_limits<float>::infinity();

std::string describe(const Ray& ray) {
  std::ostringstream text;
  text.precision(9);
  text << "ray " << ray.origin.x << ' ' << ray.origin.y << ' ' << ray.origin.z << " dir "
       << ray.direction.x << ' ' << ray.direction.y << ' ' << ray.direction.z << " t " << ray.t_min
       << ".." << ray.t_max;
  return text.str();
}

// A soup's tree twice: as built by default (rays pre-test the stored vertices) and with ray
// leaves (rays pre-test the stored edges and normals).
struct RayTrees {
  Bvh plain, with_ray_leaves;
};

RayTrees trees_of(const TriangleSoup& soup) {
  RayTrees trees{build(soup), build(soup, {.ray_leaves = true})};
  REQUIRE(trees.with_ray_leaves.has_ray_leaves());
  return trees;
}

// closest_hit and any_hit of `ray`, with each kernel on both trees, against the exact oracle;
// returns the float nearest the exact closest t, if the ray hits.
std::optional<float> check_ray(const TriangleSoup& soup, const RayTrees& trees, const Ray& ray) {
  INFO(describe(ray));
  const auto exact = oracle::closest_hits(soup, ray);
  for (const Bvh* bvh : {&trees.plain, &trees.with_ray_leaves})
    for (const detail::RayKernel kernel : ray_kernels()) {
      INFO("kernel " << static_cast<int>(kernel) << (bvh->has_ray_leaves() ? ", ray leaves" : ""));
      check_closest_hit(soup, ray, exact, detail::closest_hit_with(kernel, *bvh, ray));
      CHECK(detail::any_hit_with(kernel, *bvh, ray) == exact.has_value());
    }
  if (!exact) return std::nullopt;
  return static_cast<float>(exact->t.get_d());
}

// Rays from around the scene at its vertices and at the midpoints of its edges (rounded:
// within an ulp of the edge, on either side), then the same rays with t_max and t_min set to
// the float nearest the exact hit t and to its neighbours.
void check_vertex_and_edge_rays(const Scene& scene, int count, std::uint64_t seed) {
  const TriangleSoup soup = scene.soup();
  const RayTrees trees = trees_of(soup);
  std::mt19937_64 random(seed);
  Aabb box = Aabb::empty();
  for (const Vec3& p : scene.positions) box.extend(p);
  const Vec3 size = box.max - box.min;
  for (int q = 0; q < count; ++q) {
    const std::size_t corner = random() % scene.positions.size();
    Vec3 target = scene.positions[corner];
    if (q % 2 == 1) target = 0.5f * (target + scene.positions[corner / 3 * 3 + (corner + 1) % 3]);
    const Vec3 origin =
        box.min + size * Vec3(uniform(random, -0.5f, 1.5f), uniform(random, -0.5f, 1.5f),
                              uniform(random, -0.5f, 1.5f));
    Ray ray{origin, target - origin};
    if (ray.direction == Vec3(0.0f)) continue;
    const auto t = check_ray(soup, trees, ray);
    if (!t) continue;
    for (const float bound : {*t, std::nextafter(*t, -infinity), std::nextafter(*t, infinity)}) {
      check_ray(soup, trees, Ray{origin, ray.direction, 0.0f, bound});
      check_ray(soup, trees, Ray{origin, ray.direction, bound, infinity});
    }
  }
}

TEST_CASE("rays at vertices and edges, with bounds at the exact hit t, equal the exact oracle",
          "[ray][exact]") {
  std::vector<Scene> scenes{noisy_sphere(20, 30, 3), lattice_soup(2000, 4), random_soup(2000, 5),
                            needles(500, 6)};
  const std::size_t generated = scenes.size();
  for (Scene& mesh : shared_mesh_scenes()) scenes.push_back(std::move(mesh));
  for (std::size_t index = 0; index < scenes.size(); ++index) {
    const Scene& scene = scenes[index];
    INFO(scene.name);
    // The oracle tests every triangle per ray: the sanitizer run (testing::reduced_run) checks
    // half of the rays on the generated scenes and a quarter on the shared meshes (up to 70k
    // triangles).
    const int divisor = !testing::reduced_run() ? 1 : (index >= generated ? 4 : 2);
    check_vertex_and_edge_rays(scene, (scene.name.starts_with("needles") ? 100 : 20) / divisor, 11);
    check_vertex_and_edge_rays(transformed(scene, 1.0f, Vec3(1e6f, -1e6f, 1e6f), "_far"),
                               12 / divisor, 12);
    check_vertex_and_edge_rays(transformed(scene, 1e-6f, Vec3(0.0f), "_tiny"), 12 / divisor, 13);
  }
}

TEST_CASE("rays starting on a triangle report t = 0 exactly", "[ray][exact]") {
  const Scene scene = noisy_sphere(20, 30, 21);
  const TriangleSoup soup = scene.soup();
  const RayTrees trees = trees_of(soup);
  std::mt19937_64 random(22);
  for (int q = 0; q < 200; ++q) {
    const std::size_t corner = random() % scene.positions.size();
    // On a vertex, or at a rounded edge midpoint (on the edge or within an ulp of it).
    Vec3 origin = scene.positions[corner];
    if (q % 2 == 1) origin = 0.5f * (origin + scene.positions[corner / 3 * 3 + (corner + 1) % 3]);
    const Vec3 direction(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
    if (direction == Vec3(0.0f)) continue;
    const Ray ray{origin, direction};
    check_ray(soup, trees, ray);
    if (q % 2 == 0) {  // a vertex: every triangle around it is hit at t = 0
      const auto hit = closest_hit(trees.plain, ray);
      REQUIRE(hit.has_value());
      CHECK(hit->t == 0.0);
    }
  }
}

TEST_CASE("a large triangle hit near the ray's origin gives t to 1e-6", "[ray][exact]") {
  const std::vector<Vec3> positions{{-3e6f, -3e6f, 0.0f}, {3e6f, -3e6f, 0.0f}, {0.0f, 3e6f, 0.0f}};
  const TriangleSoup soup{positions};
  const RayTrees trees = trees_of(soup);
  for (const float height : {1e-3f, 1e-6f, 3e-9f, 1.0f})
    for (const Vec3 direction : {Vec3(0, 0, -1), Vec3(0.3f, -0.2f, -1e-3f), Vec3(1e3f, 0, -1)}) {
      const Ray ray{Vec3(12.5f, -7.25f, height), direction};
      check_ray(soup, trees, ray);
      REQUIRE(closest_hit(trees.plain, ray).has_value());
    }
}

TEST_CASE("tiny and huge directions hit where exact arithmetic says", "[ray][exact]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const TriangleSoup soup{positions};
  const RayTrees trees = trees_of(soup);
  // The case: a direction of 1e-40 along z from z = 1e-39 hits at t = 10, about.
  const Ray tiny{Vec3(0.25f, 0.25f, 1e-39f), Vec3(0.0f, 0.0f, -1e-40f)};
  check_ray(soup, trees, tiny);
  const auto hit = closest_hit(trees.plain, tiny);
  REQUIRE(hit.has_value());
  CHECK(std::fabs(hit->t - double(1e-39f) / double(1e-40f)) <= 1e-6 * hit->t);
  // t beyond the float range: a direction of 2^-140 from height 1.
  const Ray beyond{Vec3(0.25f, 0.25f, 1.0f), Vec3(0.0f, 0.0f, -0x1p-140f)};
  check_ray(soup, trees, beyond);
  REQUIRE(closest_hit(trees.plain, beyond).has_value());
  CHECK(closest_hit(trees.plain, beyond)->t == 0x1p140);
  // Directions of every scale, with tiny components beside large ones.
  std::mt19937_64 random(31);
  for (int q = 0; q < 300; ++q) {
    const float scale = std::ldexp(1.0f, lattice(random, -148, 120));
    const Vec3 toward(uniform(random, -0.2f, 1.2f), uniform(random, -0.2f, 1.2f), 0.0f);
    const Vec3 origin(uniform(random, -2, 2), uniform(random, -2, 2), uniform(random, -2, 2));
    Vec3 direction = (toward - origin) * scale;
    if (q % 3 == 0) direction.x = std::ldexp(1.0f, -149);
    if (direction == Vec3(0.0f) || !std::isfinite(direction.x + direction.y + direction.z))
      continue;
    check_ray(soup, trees, Ray{origin, direction});
  }
}

}  // namespace
}  // namespace trisect::testing
