// Rays: closest hit (ray_closest) and any hit (ray_any), one ray at a time, and closest hits
// of a whole stream of rays (ray_stream) on one thread (t1) and on all (t2).
//
// Rays, 4096 per iteration, t in [0, +inf):
//   primary  from a camera outside the bounds (at the bounds' centre plus one diagonal length
//            along (1, 0.6, 0.8)), looking at the centre, through a 64 x 64 grid on the image
//            plane framing the projection of the bounds' corners (so some rays miss);
//   random   origins uniform in the bounds, directions uniform on the sphere.
//
//   trisect        trisect::closest_hit / trisect::any_hit (watertight, exact fallbacks).
//   trisect_avx2   the same with the AVX2 kernel forced (registered only where the processor
//                  has AVX-512, whose kernel `trisect` then runs), so that both kernels run on
//                  the same machine in the same run.
//   trisect_float  the same on the same tree built with its float ray nodes
//                  (BuildOptions::ray_nodes, Bvh::ray_nodes): the rays' own walk over float
//                  boxes above the bottom nodes, quantised ones there (issue 36).
//   trisect_leaves the same on the same tree built with its ray leaves
//                  (BuildOptions::ray_leaves, Bvh::ray_leaves): the float pre-test on stored
//                  edges and normals instead of the vertices (issue 36).
//   embree         rtcIntersect1 / rtcOccluded1 on a triangle scene built once with
//                  RTC_BUILD_QUALITY_HIGH (Embree's best tree, spatial splits) and default scene
//                  flags (RTC_SCENE_FLAG_ROBUST off: Embree's fastest mode), threads=1 device.
//   embree_robust  the same with RTC_SCENE_FLAG_ROBUST, Embree's watertight mode, the closer
//                  match to trisect's guarantees.
// Streams (ray_stream, the same rays, closest hits), inside a tbb::task_arena of N threads:
//   trisect        trisect::closest_hits over the whole stream (it splits it among the threads).
//   embree_1       rtcIntersect1 per ray, the stream split into blocks of 256 by
//                  tbb::parallel_for; embree_8 / embree_16 rtcIntersect8 / rtcIntersect16 on
//                  packets of consecutive rays; embree_1M rtcIntersect1M on each block. Context
//                  flag COHERENT for primary rays, INCOHERENT for random ones. Scene as embree.
//                  With N > 1 a threads=N Embree device is kept alive (Embree caps the
//                  process's TBB concurrency at its largest device's).
// Counters:
//   triangles_per_query  fraction of rays that hit (closest: found a hit; any: occluded)
//   disagreements        peers: rays where the peer's answer differs from trisect's (hit vs
//                        miss, or for closest a different triangle at a t differing by more
//                        than 1e-5 relative); checked once, untimed.
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"
#include "thread_arena.hpp"

#include <trisect/bvh/ray_query.hpp>

#include <trisect/bvh/ray_stream.hpp>

#include "bvh/ray_kernels.hpp"  // the kernels one by one (src/, internal)

#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using trisect::Ray;
using trisect::Vec3;

constexpr int grid = 64;
constexpr std::size_t ray_count = std::size_t{grid} * grid;
constexpr float infinity = std::numeric_limits<float>::infinity();

struct RayAnswer {
  bool hit = false;
  std::uint32_t id = 0;
  float t = 0;
};
using Answers = std::vector<RayAnswer>;
using Batch = std::function<void(Answers&)>;

const std::vector<Ray>& rays(const std::string& scene_name, const std::string& variant) {
  static std::map<std::pair<std::string, std::string>, std::vector<Ray>> cache;
  auto& list = cache[{scene_name, variant}];
  if (!list.empty()) return list;
  const trisect::Aabb bounds = bench::scene(scene_name).bounds();
  const Vec3 center = bounds.center();
  const float diagonal = glm::length(bounds.max - bounds.min);
  if (variant == "primary") {
    const Vec3 eye = center + diagonal * glm::normalize(Vec3(1.0f, 0.6f, 0.8f));
    const Vec3 forward = glm::normalize(center - eye);
    const Vec3 right = glm::normalize(glm::cross(forward, Vec3(0, 0, 1)));
    const Vec3 up = glm::cross(right, forward);
    // Frame the grid tightly around the projection of the bounds' 8 corners.
    float u_min = infinity, u_max = -infinity, v_min = infinity, v_max = -infinity;
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 p((corner & 1) != 0 ? bounds.max.x : bounds.min.x,
                   (corner & 2) != 0 ? bounds.max.y : bounds.min.y,
                   (corner & 4) != 0 ? bounds.max.z : bounds.min.z);
      const Vec3 q = p - eye;
      const float depth = glm::dot(q, forward);
      u_min = std::min(u_min, glm::dot(q, right) / depth);
      u_max = std::max(u_max, glm::dot(q, right) / depth);
      v_min = std::min(v_min, glm::dot(q, up) / depth);
      v_max = std::max(v_max, glm::dot(q, up) / depth);
    }
    for (int y = 0; y < grid; ++y)
      for (int x = 0; x < grid; ++x) {
        const float u = u_min + (u_max - u_min) * (static_cast<float>(x) + 0.5f) / grid;
        const float v = v_min + (v_max - v_min) * (static_cast<float>(y) + 0.5f) / grid;
        list.push_back(Ray{eye, forward + u * right + v * up, 0.0f, infinity});
      }
  } else {
    std::mt19937_64 random(17);
    for (std::size_t i = 0; i < ray_count; ++i) {
      const Vec3 origin = bench::random_point(random, bounds);
      list.push_back(Ray{origin, bench::random_direction(random), 0.0f, infinity});
    }
  }
  return list;
}

// The trees rays walk: the benchmark's own (`bench::trisect_bvh`), or the same tree built with
// one of the rays' views, as a user would build it.
enum class RayTree {
  plain,
  float_nodes,  // BuildOptions::ray_nodes: the rays' own walk over float boxes
  ray_leaves,   // BuildOptions::ray_leaves: the pre-test on stored edges and normals
};

// The tree `tree` of `scene_name`. Views are built apart rather than copied, so that every
// tree's arrays are fresh allocations of the same kind.
const trisect::Bvh& ray_tree(const std::string& scene_name, RayTree tree) {
  if (tree == RayTree::plain) return bench::trisect_bvh(scene_name);
  static std::map<std::pair<std::string, RayTree>, trisect::Bvh> cache;
  auto [at, added] = cache.try_emplace({scene_name, tree});
  if (added)
    at->second = trisect::build(
        bench::scene(scene_name).soup(),
        {.ray_nodes = tree == RayTree::float_nodes, .ray_leaves = tree == RayTree::ray_leaves});
  return at->second;
}

// trisect's rays on `tree` with `kernel` (the one `closest_hit` and `any_hit` choose, by
// default).
Batch trisect_batch(const std::string& scene_name, const std::string& variant, bool closest,
                    RayTree tree = RayTree::plain,
                    trisect::detail::RayKernel kernel = trisect::detail::chosen_ray_kernel()) {
  const trisect::Bvh& bvh = ray_tree(scene_name, tree);
  const std::vector<Ray>& list = rays(scene_name, variant);
  if (closest)
    return [&bvh, &list, kernel](Answers& answers) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        const auto hit = trisect::detail::closest_hit_with(kernel, bvh, list[i]);
        answers[i] = hit ? RayAnswer{true, hit->id, static_cast<float>(hit->t)} : RayAnswer{};
      }
    };
  return [&bvh, &list, kernel](Answers& answers) {
    for (std::size_t i = 0; i < list.size(); ++i)
      answers[i] = RayAnswer{trisect::detail::any_hit_with(kernel, bvh, list[i]), 0, 0};
  };
}

RTCRay to_embree(const Ray& ray) {
  RTCRay r{};
  r.org_x = ray.origin.x;
  r.org_y = ray.origin.y;
  r.org_z = ray.origin.z;
  r.tnear = ray.t_min;
  r.dir_x = ray.direction.x;
  r.dir_y = ray.direction.y;
  r.dir_z = ray.direction.z;
  r.time = 0;
  r.tfar = ray.t_max;
  r.mask = ~0u;
  r.id = 0;
  r.flags = 0;
  return r;
}

// Answers rays [begin, end) with rtcIntersect1, one ray at a time.
void embree_closest_hits(RTCScene scene, RTCIntersectContext& context, const std::vector<Ray>& list,
                         std::size_t begin, std::size_t end, Answers& answers) {
  for (std::size_t i = begin; i < end; ++i) {
    RTCRayHit rayhit{};
    rayhit.ray = to_embree(list[i]);
    rayhit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rayhit.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &context, &rayhit);
    answers[i] = rayhit.hit.geomID != RTC_INVALID_GEOMETRY_ID
                     ? RayAnswer{true, rayhit.hit.primID, rayhit.ray.tfar}
                     : RayAnswer{};
  }
}

Batch embree_batch(const std::string& scene_name, const std::string& variant, bool closest,
                   bool robust) {
  RTCScene scene = bench::embree::cached_triangle_scene(
      scene_name, RTC_BUILD_QUALITY_HIGH, robust ? RTC_SCENE_FLAG_ROBUST : RTC_SCENE_FLAG_NONE);
  const std::vector<Ray>& list = rays(scene_name, variant);
  if (closest)
    return [scene, &list](Answers& answers) {
      RTCIntersectContext context;
      rtcInitIntersectContext(&context);
      embree_closest_hits(scene, context, list, 0, list.size(), answers);
    };
  return [scene, &list](Answers& answers) {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    for (std::size_t i = 0; i < list.size(); ++i) {
      RTCRay ray = to_embree(list[i]);
      rtcOccluded1(scene, &context, &ray);
      answers[i] = RayAnswer{ray.tfar < 0, 0, 0};
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Streams

constexpr std::size_t stream_block = 256;

RayAnswer from_hit(const std::optional<trisect::Hit>& hit) {
  return hit ? RayAnswer{true, hit->id, static_cast<float>(hit->t)} : RayAnswer{};
}

// Answers rays [begin, end) with Embree packets of `width` rays (8 or 16).
template <class RayHitN, int width, class Intersect>
void embree_packets(RTCScene scene, RTCIntersectContext& context, const std::vector<Ray>& list,
                    std::size_t begin, std::size_t end, Answers& answers, Intersect intersect) {
  for (std::size_t first = begin; first < end; first += width) {
    RayHitN packet{};
    alignas(64) int valid[static_cast<std::size_t>(width)];
    for (int k = 0; k < width; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k);
      valid[k] = i < end ? -1 : 0;
      const Ray& ray = list[std::min(i, end - 1)];
      packet.ray.org_x[k] = ray.origin.x;
      packet.ray.org_y[k] = ray.origin.y;
      packet.ray.org_z[k] = ray.origin.z;
      packet.ray.dir_x[k] = ray.direction.x;
      packet.ray.dir_y[k] = ray.direction.y;
      packet.ray.dir_z[k] = ray.direction.z;
      packet.ray.tnear[k] = ray.t_min;
      packet.ray.tfar[k] = ray.t_max;
      packet.ray.mask[k] = ~0u;
      packet.hit.geomID[k] = RTC_INVALID_GEOMETRY_ID;
      packet.hit.instID[0][k] = RTC_INVALID_GEOMETRY_ID;
    }
    intersect(valid, scene, &context, &packet);
    for (int k = 0; k < width && first + static_cast<std::size_t>(k) < end; ++k)
      answers[first + static_cast<std::size_t>(k)] =
          packet.hit.geomID[k] != RTC_INVALID_GEOMETRY_ID
              ? RayAnswer{true, packet.hit.primID[k], packet.ray.tfar[k]}
              : RayAnswer{};
  }
}

// Answers rays [begin, end) with rtcIntersect1M on one array.
void embree_stream(RTCScene scene, RTCIntersectContext& context, const std::vector<Ray>& list,
                   std::size_t begin, std::size_t end, Answers& answers) {
  std::vector<RTCRayHit> rayhits(end - begin);
  for (std::size_t i = begin; i < end; ++i) {
    RTCRayHit& rayhit = rayhits[i - begin];
    rayhit = RTCRayHit{};
    rayhit.ray = to_embree(list[i]);
    rayhit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rayhit.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  }
  rtcIntersect1M(scene, &context, rayhits.data(), static_cast<unsigned>(rayhits.size()),
                 sizeof(RTCRayHit));
  for (std::size_t i = begin; i < end; ++i) {
    const RTCRayHit& rayhit = rayhits[i - begin];
    answers[i] = rayhit.hit.geomID != RTC_INVALID_GEOMETRY_ID
                     ? RayAnswer{true, rayhit.hit.primID, rayhit.ray.tfar}
                     : RayAnswer{};
  }
}

Batch stream_batch(const std::string& scene_name, const std::string& variant,
                   const std::string& library, unsigned threads) {
  const std::vector<Ray>& list = rays(scene_name, variant);
  tbb::task_arena& threads_arena = bench::arena(threads);
  if (library == "trisect") {
    const trisect::Bvh& bvh = bench::trisect_bvh(scene_name);
    auto hits = std::make_shared<std::vector<std::optional<trisect::Hit>>>(list.size());
    return [&bvh, &list, &threads_arena, hits](Answers& answers) {
      threads_arena.execute([&] { trisect::closest_hits(bvh, list, *hits); });
      for (std::size_t i = 0; i < list.size(); ++i) answers[i] = from_hit((*hits)[i]);
    };
  }
  RTCScene scene = bench::embree::cached_triangle_scene(scene_name, RTC_BUILD_QUALITY_HIGH);
  const bool coherent = variant == "primary";
  return [scene, &list, &threads_arena, library, coherent](Answers& answers) {
    threads_arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, list.size(), stream_block),
                        [&](const auto& range) {
                          RTCIntersectContext context;
                          rtcInitIntersectContext(&context);
                          context.flags = coherent ? RTC_INTERSECT_CONTEXT_FLAG_COHERENT
                                                   : RTC_INTERSECT_CONTEXT_FLAG_INCOHERENT;
                          const std::size_t begin = range.begin(), end = range.end();
                          if (library == "embree_8") {
                            embree_packets<RTCRayHit8, 8>(scene, context, list, begin, end, answers,
                                                          rtcIntersect8);
                          } else if (library == "embree_16") {
                            embree_packets<RTCRayHit16, 16>(scene, context, list, begin, end,
                                                            answers, rtcIntersect16);
                          } else if (library == "embree_1M") {
                            embree_stream(scene, context, list, begin, end, answers);
                          } else {
                            embree_closest_hits(scene, context, list, begin, end, answers);
                          }
                        });
    });
  };
}

const Answers& trisect_answers(const std::string& scene_name, const std::string& variant,
                               bool closest) {
  static std::map<std::tuple<std::string, std::string, bool>, Answers> cache;
  auto& answers = cache[{scene_name, variant, closest}];
  if (answers.empty()) {
    answers.resize(rays(scene_name, variant).size());
    trisect_batch(scene_name, variant, closest)(answers);
  }
  return answers;
}

bool disagree(const RayAnswer& peer, const RayAnswer& reference) {
  if (peer.hit != reference.hit) return true;
  if (!peer.hit || peer.id == reference.id) return false;
  return std::fabs(peer.t - reference.t) > 1e-5f * std::fabs(reference.t);
}

// trisect's walk per ray over the benchmark's rays (untimed): wide nodes entered and
// triangles in the leaves visited.
trisect::QueryStats walk_counts(const std::string& scene_name, const std::string& variant,
                                bool closest) {
  const trisect::Bvh& bvh = bench::trisect_bvh(scene_name);
  trisect::QueryStats stats;
  for (const Ray& ray : rays(scene_name, variant)) {
    if (closest)
      benchmark::DoNotOptimize(trisect::closest_hit(bvh, ray, &stats));
    else
      benchmark::DoNotOptimize(trisect::any_hit(bvh, ray, &stats));
  }
  return stats;
}

// Registers one ray benchmark; `make` runs on its first run, like bench::register_batch. With
// `counts`, the counters nodes_per_ray and triangles_per_ray report what it returns per ray.
void register_rays(const std::string& name, std::function<Batch()> make,
                   std::function<const Answers&()> reference,
                   std::function<trisect::QueryStats()> counts = {}) {
  struct Slot {
    Batch batch;
    Answers answers;
    double hit_fraction = 0, disagreements = 0;
    trisect::QueryStats stats;
  };
  const auto slot = std::make_shared<Slot>();
  benchmark::RegisterBenchmark(name.c_str(), [slot, make, reference,
                                              counts](benchmark::State& state) {
    if (!slot->batch) {
      slot->batch = make();
      slot->answers.resize(ray_count);
      slot->batch(slot->answers);
      double hits = 0;
      for (const RayAnswer& a : slot->answers) hits += a.hit;
      slot->hit_fraction = hits / double(ray_count);
      if (reference) {
        const Answers& expected = reference();
        for (std::size_t i = 0; i < ray_count; ++i)
          slot->disagreements += disagree(slot->answers[i], expected[i]);
      }
      if (counts) slot->stats = counts();
    }
    for (auto _ : state) {
      slot->batch(slot->answers);
      benchmark::DoNotOptimize(slot->answers.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ray_count));
    state.counters["triangles_per_query"] = slot->hit_fraction;
    if (reference) state.counters["disagreements"] = slot->disagreements;
    if (counts) {
      state.counters["nodes_per_ray"] = double(slot->stats.nodes_visited) / double(ray_count);
      state.counters["triangles_per_ray"] =
          double(slot->stats.triangles_tested) / double(ray_count);
    }
  })->Unit(benchmark::kMillisecond);
}

}  // namespace

void bench::register_all() {
  for (const std::string& scene : bench::scene_names()) {
    if (scene != "bunny_x16" && scene != "sphere_1m") continue;
    for (const std::string variant : {"primary", "random"})
      for (const unsigned threads : {1u, 2u})
        for (const std::string library :
             {"trisect", "embree_1", "embree_8", "embree_16", "embree_1M"}) {
          const auto reference = [scene, variant]() -> const std::vector<RayAnswer>& {
            return trisect_answers(scene, variant, true);
          };
          register_rays(
              bench::benchmark_name("ray_stream", library, scene, variant, threads),
              [scene, variant, library, threads] {
                return stream_batch(scene, variant, library, threads);
              },
              reference);
        }
  }
  for (const bool closest : {true, false}) {
    const std::string operation = closest ? "ray_closest" : "ray_any";
    for (const std::string& scene : bench::scene_names())
      for (const std::string variant : {"primary", "random"}) {
        const auto name = [&](const char* library) {
          return bench::benchmark_name(operation, library, scene, variant, 1);
        };
        const auto reference = [scene, variant, closest]() -> const std::vector<RayAnswer>& {
          return trisect_answers(scene, variant, closest);
        };
        register_rays(
            name("trisect"),
            [scene, variant, closest] { return trisect_batch(scene, variant, closest); }, {},
            [scene, variant, closest] { return walk_counts(scene, variant, closest); });
        if (trisect::detail::chosen_ray_kernel() == trisect::detail::RayKernel::mask_register)
          register_rays(
              name("trisect_avx2"),
              [scene, variant, closest] {
                return trisect_batch(scene, variant, closest, RayTree::plain,
                                     trisect::detail::RayKernel::eight_lane);
              },
              reference);
        register_rays(
            name("trisect_float"),
            [scene, variant, closest] {
              return trisect_batch(scene, variant, closest, RayTree::float_nodes);
            },
            reference);
        register_rays(
            name("trisect_leaves"),
            [scene, variant, closest] {
              return trisect_batch(scene, variant, closest, RayTree::ray_leaves);
            },
            reference);
        register_rays(
            name("embree"),
            [scene, variant, closest] { return embree_batch(scene, variant, closest, false); },
            reference);
        register_rays(
            name("embree_robust"),
            [scene, variant, closest] { return embree_batch(scene, variant, closest, true); },
            reference);
      }
  }
}
