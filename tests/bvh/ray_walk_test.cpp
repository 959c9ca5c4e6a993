// The ordered walk and what it serves beyond closest_hit / any_hit: every hit along a ray
// (for_each_hit), ray streams (closest_hits, any_hits), and a nearest query written as a
// visitor of the walk, each against an exact or brute-force answer.
#include "support/exact_ray_oracle.hpp"
#include "support/property.hpp"
#include "support/query_maker.hpp"
#include "support/ray_check.hpp"
#include "support/ray_kernels.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ordered_walk.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/bvh/ray_stream.hpp>
#include <trisect/math/validate.hpp>

#include <tbb/task_arena.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace trisect::testing {
namespace {

// Rays through vertices of `scene` (ties of the triangles around them), some with bounded or
// empty t intervals.
std::vector<Ray> rays_through_vertices(const Scene& scene, int count, std::uint64_t seed) {
  QueryMaker make{scene, std::mt19937_64(seed)};
  const float size = scene_size(scene);
  std::vector<Ray> rays;
  while (static_cast<int>(rays.size()) < count) {
    const Vec3 origin = make.vertex() + Vec3(uniform(make.random, -3, 3) * size * 0.1f);
    Ray ray{origin, make.vertex() - origin};
    if (ray.direction == Vec3(0.0f)) continue;
    const auto q = rays.size();
    if (q % 3 == 1) ray.t_max = 0.5f;
    if (q % 5 == 2) ray.t_min = 0.25f;
    if (q % 11 == 4) ray.t_min = 2.0f;  // t_min > t_max for some: empty
    rays.push_back(ray);
  }
  return rays;
}

TEST_CASE("for_each_hit reports every triangle the exact oracle says the ray hits", "[bvh]") {
  const Scene lattice = lattice_soup(2000, 61);
  const std::vector<Scene> scenes = all_scenes();
  for (const Scene* each : {&lattice, &scenes.front()}) {
    const Scene& scene = *each;
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    for (const detail::RayKernel kernel : ray_kernels()) {
      INFO("kernel " << static_cast<int>(kernel));
      // The oracle tests every triangle per ray: a third of the rays in the sanitizer run.
      for (const Ray& ray : rays_through_vertices(scene, testing::reduced_run() ? 20 : 60, 62)) {
        std::map<TriangleId, double> expected;
        for (TriangleId id = 0; id < scene.soup().size(); ++id)
          if (const auto hit = oracle::hit(ray, scene.soup().triangle(id)))
            expected[id] = hit->t.get_d();
        std::map<TriangleId, double> got;
        const auto visit = [&](const Hit& hit) {
          CHECK(got.count(hit.id) == 0);  // once per triangle
          got[hit.id] = hit.t;
          return true;
        };
        CHECK(detail::for_each_hit_with(kernel, bvh, ray, detail::HitCallback(visit)));
        REQUIRE(got.size() == expected.size());
        for (const auto& [id, t] : expected) {
          REQUIRE(got.count(id) == 1);
          CHECK(std::fabs(got[id] - t) <= t_tolerance * std::fabs(t));
        }
        // Stopping at the first hit: one call, and the walk says it was stopped.
        int calls = 0;
        const bool completed = for_each_hit(bvh, ray, [&](const Hit&) { return ++calls > 1; });
        CHECK(calls == std::min<int>(1, static_cast<int>(expected.size())));
        CHECK(completed == expected.empty());
      }
    }
  }
}

TEST_CASE("ray streams answer exactly as the single-ray calls, on any number of threads", "[bvh]") {
  const Scene lattice = lattice_soup(3000, 71);
  const std::vector<Scene> scenes = all_scenes();
  for (const Scene* each : {&lattice, &scenes.back()}) {
    const Scene& scene = *each;
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    const std::vector<Ray> rays = rays_through_vertices(scene, 1500, 72);
    for (const int threads : {1, 2}) {
      INFO(threads << " threads");
      std::vector<std::optional<Hit>> hits(rays.size());
      std::vector<std::uint8_t> any(rays.size(), 7);
      tbb::task_arena(threads).execute([&] {
        closest_hits(bvh, rays, hits);
        any_hits(bvh, rays, any);
      });
      for (std::size_t i = 0; i < rays.size(); ++i) {
        INFO("ray " << i);
        const auto expected = closest_hit(bvh, rays[i]);  // checked against the exact oracle
        REQUIRE(hits[i].has_value() == expected.has_value());
        if (expected) {
          CHECK(hits[i]->id == expected->id);
          CHECK(hits[i]->t == expected->t);
          CHECK(hits[i]->u == expected->u);
          CHECK(hits[i]->v == expected->v);
        }
        CHECK(any[i] == (any_hit(bvh, rays[i]) ? 1 : 0));
      }
    }
  }
}

TEST_CASE("ray streams reject an invalid ray by index, and a short answer span", "[bvh]") {
  const Bvh bvh = build(lattice_soup(100, 81).soup());
  std::vector<Ray> rays(40, Ray{Vec3(0.0f), Vec3(0, 0, 1)});
  rays[23].direction = Vec3(0.0f);
  std::vector<std::optional<Hit>> hits(rays.size(), Hit{1, 2, 3, 4});
  std::vector<std::uint8_t> any(rays.size(), 9);
  CHECK_THROWS_WITH(closest_hits(bvh, rays, hits), Catch::Contains("ray 23"));
  CHECK_THROWS_WITH(any_hits(bvh, rays, any), Catch::Contains("ray 23"));
  // Nothing was written before the check.
  CHECK(std::all_of(hits.begin(), hits.end(), [](const auto& hit) { return hit && hit->id == 2; }));
  CHECK(std::all_of(any.begin(), any.end(), [](std::uint8_t value) { return value == 9; }));
  rays[23].direction = Vec3(0, 0, 1);
  hits.pop_back();
  CHECK_THROWS_WITH(closest_hits(bvh, rays, hits), Catch::Contains("40 rays but room for 39"));
  // Empty streams and trees are fine.
  CHECK_NOTHROW(closest_hits(bvh, {}, {}));
  std::vector<std::optional<Hit>> none(rays.size(), Hit{1, 2, 3, 4});
  closest_hits(Bvh{}, rays, none);
  CHECK(std::none_of(none.begin(), none.end(), [](const auto& hit) { return hit.has_value(); }));
}

// A nearest query written as a visitor of the ordered walk: the vertex nearest to a point
// (ties: the smallest triangle id, then vertex a, b, c), keys the squared distance from the
// point to each child box, rounded down, the bound the best squared distance, rounded up.
class NearestVertex {
 public:
  NearestVertex(const Bvh& bvh, Vec3 point) : bvh_(bvh), point_(point) {}

  [[nodiscard]] float bound() const { return bound_; }

  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const {
    unsigned mask = 0;
    for (int i = 0; i < WideNode::width; ++i) {
      const Aabb box = node.child_bounds(i);
      double squared = 0;
      for (int axis = 0; axis < 3; ++axis) {
        const double below = double(box.min[axis]) - double(point_[axis]);
        const double above = double(point_[axis]) - double(box.max[axis]);
        const double gap = std::max({below, above, 0.0});
        squared += gap * gap;
      }
      keys[i] = std::nextafter(static_cast<float>(squared), 0.0f);
      if (keys[i] <= bound_) mask |= 1u << i;
    }
    return mask;
  }

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t slot = begin; slot < end; ++slot) {
      const Triangle triangle = bvh_.triangles.triangle(slot);
      for (int vertex = 0; vertex < 3; ++vertex) {
        const Vec3 corner = vertex == 0 ? triangle.a : vertex == 1 ? triangle.b : triangle.c;
        const glm::dvec3 d = glm::dvec3(corner) - glm::dvec3(point_);
        const Best candidate{glm::dot(d, d), bvh_.ids[slot], vertex};
        if (candidate < best_) {
          best_ = candidate;
          bound_ = std::nextafter(static_cast<float>(best_.squared),
                                  std::numeric_limits<float>::infinity());
        }
      }
    }
    return true;
  }

  struct Best {
    double squared = std::numeric_limits<double>::infinity();
    TriangleId id = 0;
    int vertex = 0;
    bool operator<(const Best& other) const {
      return std::tie(squared, id, vertex) < std::tie(other.squared, other.id, other.vertex);
    }
  };
  [[nodiscard]] const Best& best() const { return best_; }

 private:
  const Bvh& bvh_;
  Vec3 point_;
  float bound_ = std::numeric_limits<float>::infinity();
  Best best_;
};

TEST_CASE("a nearest query is a short visitor of the ordered walk", "[bvh]") {
  const Scene scene = lattice_soup(3000, 91);  // lattice vertices: many exact ties
  const Bvh bvh = build(scene.soup());
  QueryMaker make{scene, std::mt19937_64(92)};
  QueryStats stats;
  for (int q = 0; q < 300; ++q) {
    const Vec3 point = q % 2 == 0 ? make.vertex() : make.vertex() + Vec3(0.5f, 0.25f, 0.5f);
    NearestVertex visitor(bvh, point);
    ordered_walk(bvh, visitor, &stats);
    NearestVertex::Best expected;
    for (TriangleId id = 0; id < scene.soup().size(); ++id) {
      const Triangle triangle = scene.soup().triangle(id);
      for (int vertex = 0; vertex < 3; ++vertex) {
        const Vec3 corner = vertex == 0 ? triangle.a : vertex == 1 ? triangle.b : triangle.c;
        const glm::dvec3 d = glm::dvec3(corner) - glm::dvec3(point);
        expected = std::min(expected, NearestVertex::Best{glm::dot(d, d), id, vertex});
      }
    }
    INFO("point " << q);
    CHECK(visitor.best().squared == expected.squared);
    CHECK(visitor.best().id == expected.id);
    CHECK(visitor.best().vertex == expected.vertex);
  }
  // The shrinking bound prunes: far fewer triangles visited than 300 brute-force passes.
  CHECK(stats.triangles_tested < 300 * scene.soup().size() / 10);
}

}  // namespace
}  // namespace trisect::testing
