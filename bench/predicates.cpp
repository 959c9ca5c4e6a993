// Micro-benchmarks of single predicate calls: trisect's exact predicates (float inputs, double
// fast path, exact fallback) beside the classic float formulations in peers/float_predicates.hpp.
//
// Each operation gets 4096 pre-generated random cases with generic float coordinates, half of
// them touching and half not (decided exactly, then shuffled, so that branches are not
// predictable), cycled through one call per benchmark iteration. Names follow
// <operation>/<library>/<scene>/<variant>/t<threads>. Counters:
//   exact_fallbacks_per_call  trisect only: exact-arithmetic fallbacks per call
//   wrong_of_4096             answers over the case set that differ from the exact answer
#include <trisect/trisect.hpp>
#include "bench_main.hpp"

#include "peers/float_predicates.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using trisect::Vec3;

constexpr std::size_t case_count = 4096;  // a power of two: the index wraps with a mask
static_assert((case_count & (case_count - 1)) == 0);

class Random {
 public:
  explicit Random(unsigned seed) : engine_(seed) {}

  float uniform(float low, float high) {
    return std::uniform_real_distribution<float>(low, high)(engine_);
  }
  Vec3 vec(float low, float high) {
    const float x = uniform(low, high), y = uniform(low, high);
    return {x, y, uniform(low, high)};
  }
  // A plane normal well away from zero (a zero normal is invalid input).
  Vec3 normal() {
    for (;;) {
      const Vec3 n = vec(-1.0f, 1.0f);
      if (glm::dot(n, n) > 0.01f) return n;
    }
  }
  std::mt19937& engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

// case_count cases from `make`, exactly half of them with `is_touching` true, in random order.
template <class Case, class Make, class IsTouching>
std::vector<Case> mixed_cases(Random& random, Make make, IsTouching is_touching) {
  std::vector<Case> touching, apart;
  while (touching.size() < case_count / 2 || apart.size() < case_count / 2) {
    const Case c = make(random);
    std::vector<Case>& bucket = is_touching(c) ? touching : apart;
    if (bucket.size() < case_count / 2) bucket.push_back(c);
  }
  touching.insert(touching.end(), apart.begin(), apart.end());
  std::shuffle(touching.begin(), touching.end(), random.engine());
  return touching;
}

// Registers <operation>/trisect/... and <operation>/float_baseline/... over the same cases.
template <class Case, class Exact, class Peer>
void register_operation(const std::string& operation, std::vector<Case> generated, Exact exact,
                        Peer peer) {
  const auto cases = std::make_shared<const std::vector<Case>>(std::move(generated));
  double peer_wrong = 0;
  for (const Case& c : *cases)
    peer_wrong += static_cast<int>(peer(c)) != static_cast<int>(exact(c));

  const auto run = [cases](benchmark::State& state, auto predicate) {
    const Case* data = cases->data();
    std::size_t index = 0;
    for (auto _ : state) {
      auto result = predicate(data[index]);
      benchmark::DoNotOptimize(result);
      index = (index + 1) & (case_count - 1);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  };
  const std::string suffix = "/random/mixed/t1";
  benchmark::RegisterBenchmark(
      (operation + "/trisect" + suffix).c_str(), [run, exact](benchmark::State& state) {
        trisect::exact::reset_fallback_count();
        run(state, exact);
        state.counters["exact_fallbacks_per_call"] =
            benchmark::Counter(static_cast<double>(trisect::exact::fallback_count()),
                               benchmark::Counter::kAvgIterations);
        state.counters["wrong_of_4096"] = 0;
      });
  benchmark::RegisterBenchmark((operation + "/float_baseline" + suffix).c_str(),
                               [run, peer, peer_wrong](benchmark::State& state) {
                                 run(state, peer);
                                 state.counters["wrong_of_4096"] = peer_wrong;
                               });
}

struct PointCase {
  trisect::Plane plane;
  Vec3 point;
};
struct BoxPlaneCase {
  trisect::Aabb box;
  trisect::Plane plane;
};
struct TrianglePlaneCase {
  trisect::Triangle triangle;
  trisect::Plane plane;
};
struct TriangleBoxCase {
  trisect::Triangle triangle;
  trisect::Aabb box;
};
struct TriangleSphereCase {
  trisect::Triangle triangle;
  trisect::Sphere sphere;
};

trisect::Triangle triangle_near(Random& random, const Vec3& around) {
  const Vec3 center = around + random.vec(-1.0f, 1.0f);
  const Vec3 a = center + random.vec(-0.5f, 0.5f), b = center + random.vec(-0.5f, 0.5f);
  return {a, b, center + random.vec(-0.5f, 0.5f)};
}

}  // namespace

void bench::register_all() {
  Random random(20240611u);

  register_operation(
      "plane_point",
      mixed_cases<PointCase>(
          random,
          [](Random& r) {
            const Vec3 normal = r.normal();
            const float d = r.uniform(-1.0f, 1.0f);
            return PointCase{{normal, d}, r.vec(-2.0f, 2.0f)};
          },
          [](const PointCase& c) {
            return trisect::classify(c.plane, c.point) != trisect::Side::below;
          }),
      [](const PointCase& c) { return trisect::classify(c.plane, c.point); },
      [](const PointCase& c) {
        return float_baseline::plane_side(c.plane.normal, c.plane.d, c.point);
      });

  register_operation(
      "aabb_plane",
      mixed_cases<BoxPlaneCase>(
          random,
          [](Random& r) {
            const Vec3 center = r.vec(-1.0f, 1.0f), extents = r.vec(0.01f, 0.5f);
            const Vec3 normal = r.normal();
            const float reach = glm::dot(glm::abs(normal), extents);
            const float d = glm::dot(normal, center) + r.uniform(-2.0f, 2.0f) * reach;
            return BoxPlaneCase{trisect::Aabb::from_center_extents(center, extents), {normal, d}};
          },
          [](const BoxPlaneCase& c) { return trisect::intersects(c.box, c.plane); }),
      [](const BoxPlaneCase& c) { return trisect::intersects(c.box, c.plane); },
      [](const BoxPlaneCase& c) {
        return float_baseline::aabb_plane(c.box.min, c.box.max, c.plane.normal, c.plane.d);
      });

  register_operation(
      "plane_triangle",
      mixed_cases<TrianglePlaneCase>(
          random,
          [](Random& r) {
            const trisect::Triangle triangle = triangle_near(r, Vec3(0.0f));
            const Vec3 normal = r.normal();
            const float d =
                glm::dot(normal, triangle.a) + r.uniform(-0.7f, 0.7f) * glm::length(normal);
            return TrianglePlaneCase{triangle, {normal, d}};
          },
          [](const TrianglePlaneCase& c) { return trisect::intersects(c.triangle, c.plane); }),
      [](const TrianglePlaneCase& c) { return trisect::intersects(c.triangle, c.plane); },
      [](const TrianglePlaneCase& c) {
        const trisect::Triangle& t = c.triangle;
        return float_baseline::triangle_plane(t.a, t.b, t.c, c.plane.normal, c.plane.d);
      });

  register_operation(
      "aabb_triangle",
      mixed_cases<TriangleBoxCase>(
          random,
          [](Random& r) {
            const Vec3 center = r.vec(-1.0f, 1.0f), extents = r.vec(0.05f, 0.5f);
            return TriangleBoxCase{triangle_near(r, center),
                                   trisect::Aabb::from_center_extents(center, extents)};
          },
          [](const TriangleBoxCase& c) { return trisect::intersects(c.triangle, c.box); }),
      [](const TriangleBoxCase& c) { return trisect::intersects(c.triangle, c.box); },
      [](const TriangleBoxCase& c) {
        const trisect::Triangle& t = c.triangle;
        return float_baseline::triangle_box(c.box.min, c.box.max, t.a, t.b, t.c);
      });

  register_operation(
      "sphere_triangle",
      mixed_cases<TriangleSphereCase>(
          random,
          [](Random& r) {
            const Vec3 center = r.vec(-1.0f, 1.0f);
            const float radius = r.uniform(0.05f, 0.5f);
            return TriangleSphereCase{triangle_near(r, center), {center, radius}};
          },
          [](const TriangleSphereCase& c) { return trisect::intersects(c.triangle, c.sphere); }),
      [](const TriangleSphereCase& c) { return trisect::intersects(c.triangle, c.sphere); },
      [](const TriangleSphereCase& c) {
        const trisect::Triangle& t = c.triangle;
        return float_baseline::triangle_sphere(t.a, t.b, t.c, c.sphere.center, c.sphere.radius);
      });

  // Case generation decided every case exactly; the benchmarks count their own fallbacks.
  trisect::exact::reset_fallback_count();
}
