// Ray queries (closest_hit, any_hit) with each ray kernel against the exact brute-force
// oracle; the closed t interval at both ends; invalid rays.
#include "support/property.hpp"
#include "support/query_maker.hpp"
#include "support/ray_check.hpp"
#include "support/ray_kernels.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/geometry/ray_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <utility>

namespace trisect::testing {
namespace {

// Every ray of `rays` on `scene` with each kernel, walking the float ray nodes and (with them
// taken away) the quantised wide nodes, with the ray leaves and (on the wide nodes) without:
// closest_hit and any_hit against the exact oracle (see support/ray_check.hpp). Returns the number
// of rays that hit.
template <class MakeRay>
int check_rays(const Scene& scene, int count, MakeRay&& make_ray) {
  const Bvh with_ray_nodes = build(scene.soup(), {.ray_nodes = true, .ray_leaves = true});
  REQUIRE(with_ray_nodes.has_ray_nodes());
  REQUIRE(with_ray_nodes.has_ray_leaves());
  const Bvh wide_with_leaves = [&] {
    Bvh copy = with_ray_nodes;
    copy.ray_nodes = {};
    return copy;
  }();
  const Bvh wide_only = [&] {
    Bvh copy = wide_with_leaves;
    copy.ray_leaves = {};
    return copy;
  }();
  REQUIRE(!wide_only.has_ray_nodes());
  REQUIRE(!wide_only.has_ray_leaves());
  int hits = 0;
  for (const auto& [bvh, nodes] : {std::pair{&with_ray_nodes, "ray nodes and ray leaves"},
                                   std::pair{&wide_with_leaves, "wide nodes and ray leaves"},
                                   std::pair{&wide_only, "wide nodes"}})
    for (const detail::RayKernel kernel : ray_kernels()) {
      INFO("kernel " << static_cast<int>(kernel) << " on the " << nodes);
      for (int q = 0; q < count; ++q) {
        const Ray ray = make_ray(q);
        INFO("ray " << q << ": " << ray.origin.x << ' ' << ray.origin.y << ' ' << ray.origin.z
                    << " dir " << ray.direction.x << ' ' << ray.direction.y << ' '
                    << ray.direction.z << " t " << ray.t_min << ".." << ray.t_max);
        const auto got = detail::closest_hit_with(kernel, *bvh, ray);
        const auto exact = oracle::closest_hits(scene.soup(), ray);
        check_closest_hit(scene.soup(), ray, exact, got);
        CHECK(detail::any_hit_with(kernel, *bvh, ray) == exact.has_value());
        hits += got ? 1 : 0;
      }
    }
  return hits;
}

TEST_CASE("closest_hit and any_hit equal the exact oracle with each ray kernel", "[bvh]") {
  REQUIRE(detail::available(detail::chosen_ray_kernel()));
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    QueryMaker make{scene, std::mt19937_64(12)};
    const float size = scene_size(scene);
    // The oracle tests every triangle per ray; the sanitizer run checks a seventh of the rays.
    const int hits = check_rays(scene, testing::reduced_run() ? 40 : 300, [&](int q) {
      Ray ray;
      do {
        const Vec3 origin = make.vertex() + Vec3(uniform(make.random, -3, 3) * size * 0.1f);
        ray = Ray{origin, make.vertex() - origin};  // through a vertex: a tie of its triangles
      } while (ray.direction == Vec3(0.0f));
      if (q % 3 == 1) ray.t_max = 0.5f;
      if (q % 5 == 2) ray.t_min = 0.25f;
      if (q % 7 == 3) ray.t_min = -2.0f;  // also behind the origin: the signed widening
      return ray;
    });
    CHECK(hits > 0);
  }
}

TEST_CASE("axis-parallel rays along lattice lines and faces equal the exact oracle", "[bvh]") {
  const Scene scene = lattice_soup(3000, 31);
  std::mt19937_64 random(32);
  const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  // Origins on lattice points and half-lattice points: rays run along triangle edges and
  // inside triangle planes, and start on node box faces. A third of them in the sanitizer run.
  CHECK(check_rays(scene, testing::reduced_run() ? 1000 : 3000, [&](int q) {
          const float step = q % 2 == 0 ? 1.0f : 0.5f;
          const Vec3 origin(step * float(lattice(random, -16, 16)),
                            step * float(lattice(random, -16, 16)),
                            step * float(lattice(random, -16, 16)));
          Ray ray{origin, axes[q % 6]};
          if (q % 4 == 3) ray.t_min = -3.0f;
          return ray;
        }) > 0);
}

TEST_CASE("the t interval is closed at both ends, in the nodes and in the triangles", "[bvh]") {
  // A triangle in z = 0 below a ray from z = 2 going down at speed 1/2 (hit at t = 4), and a
  // second one farther down. Its leaf box is flat: the node's entry is t = 4 too.
  const std::vector<Vec3> positions{{0, 0, 0},  {4, 0, 0},  {0, 2, 0},
                                    {0, 0, -1}, {4, 0, -1}, {0, 2, -1}};
  const Bvh bvh = build(TriangleSoup{positions}, {.max_leaf_size = 1});
  const Vec3 origin(2.0f, 0.5f, 2.0f), down(0.0f, 0.0f, -0.5f);
  const float before = std::nextafter(4.0f, 0.0f), after = std::nextafter(4.0f, 5.0f);
  for (const detail::RayKernel kernel : ray_kernels()) {
    INFO("kernel " << static_cast<int>(kernel));
    for (const Ray& ray : {Ray{origin, down, 0.0f, 4.0f}, Ray{origin, down, 4.0f, 4.0f},
                           Ray{origin, down, 4.0f, 5.0f}}) {
      INFO("t from " << ray.t_min << " to " << ray.t_max);
      const auto hit = detail::closest_hit_with(kernel, bvh, ray);
      REQUIRE(hit.has_value());
      CHECK(hit->id == 0);
      CHECK(hit->t == 4.0);
      CHECK(hit->u == 0.5f);   // the weight of b = (4, 0, 0)
      CHECK(hit->v == 0.25f);  // the weight of c = (0, 2, 0)
      CHECK(detail::any_hit_with(kernel, bvh, ray));
    }
    for (const Ray& ray : {Ray{origin, down, 0.0f, before}, Ray{origin, down, after, 5.0f}}) {
      INFO("t from " << ray.t_min << " to " << ray.t_max);
      CHECK_FALSE(detail::closest_hit_with(kernel, bvh, ray).has_value());
      CHECK_FALSE(detail::any_hit_with(kernel, bvh, ray));
    }
    // The far triangle's t = 6 ends an interval that starts past the near one.
    const auto far = detail::closest_hit_with(kernel, bvh, Ray{origin, down, after, 6.0f});
    REQUIRE(far.has_value());
    CHECK(far->id == 1);
    CHECK(far->t == 6.0);
  }
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
  CHECK(hit->t == 1.0);
  CHECK(any_hit(bvh, Ray{origin, Vec3(-0.0f, 0.0f, -1.0f)}));
  CHECK_FALSE(closest_hit(bvh, Ray{origin, down, 2.0f, 0.5f}).has_value());
}

}  // namespace
}  // namespace trisect::testing
