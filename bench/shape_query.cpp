// Shape queries: which triangles touch a closed capsule (the points within a radius of a
// segment), a closed oriented box or a view frustum, answered as sorted input ids.
//
// Queries (<shape>/<library>/bunny_x16/1pct), 1000 seeded shapes per batch, each about 1% of the
// scene's diagonal across (like the balls of sphere_query.cpp's 1pct):
//   capsule  one end uniform in the scene's bounds, the other 1% of the diagonal away in a
//            direction uniform on the sphere, the radius 0.5% of the diagonal.
//   obb      the centre uniform in the scene's bounds, a uniformly random rotation (a random
//            unit quaternion, from four normal deviates, made into a rotation matrix in double
//            whose columns, rounded to float, are the axes), each half extent uniform in
//            [0.25, 0.5] x 1% of the diagonal.
//   frustum  (variant `view`, 100 per batch) a camera 1.5 diagonals from the scene's centre in a
//            direction uniform on the sphere, looking at a point uniform in the bounds, a 5°
//            vertical field of view, aspect 1.5, near 1% and far 3 diagonals (view_frustum).
//            trisect only.
// One iteration answers the whole batch on one thread.
//
//   trisect             trisect::collect_touching(bvh, shape) per shape (CapsuleQuery,
//                       OrientedBoxQuery).
//   trisect_box_exact   what a user would do without the shape's query: trisect's box query
//                       (collect_touching(bvh, box)) of the shape's bounding box, then the exact
//                       trisect::intersects(triangle, shape) on every candidate. The capsule's
//                       box is the axis segment's box grown by the radius in double, then
//                       rounded outward by an ulp with std::nextafter; the oriented box's is
//                       trisect::bounds(box) (rounded outward).
//   fcl                 (optional) fcl::collide of fcl::BVHModel<OBBRSSd> (built once) with an
//                       fcl::Capsuled placed on the segment, or an fcl::Boxd placed on the
//                       oriented box, every contact, no contact points (peers/fcl_mesh.hpp);
//                       floating point, not exact, so it only counts.
// Counters: `ids`, the ids found in the whole batch. trisect and trisect_box_exact must give
// the same answers: they are compared once before timing, and a difference skips the
// benchmark with an error naming the first shape. The fcl row also reports trisect's total,
// `trisect_ids`, beside its own (not required to be equal).
//
// Box casts (cast/<library>/bunny_x16/box1pct/t1): 1000 seeded casts per batch, each an
// oriented box made exactly like obb's (ShapeKind<OrientedBox>::random, 1% of the diagonal,
// but seed 23), then a point uniform in the scene's bounds, and the motion from the box's
// centre towards that point, 10% of the diagonal long (in float); the first time t in [0, 1]
// at which box + t·motion touches the surface. One iteration casts the whole batch on one
// thread.
//   trisect  trisect::cast_box(bvh, box, motion) per cast (a loop, not the TBB cast_boxes):
//            exact.
//   fcl      (optional) fcl::continuousCollide of the model with the fcl::Boxd moved by the
//            translation, FCL's naive solver sampling t = i / 1000 (conservative advancement
//            finds no contact between a mesh and a shape in FCL 0.7.0; see
//            peers/fcl_mesh.hpp); approximate.
// Counters: `hits`, the casts that touch the surface, and `t_sum`, the sum of their times.
// Before timing, the fcl row casts the batch with both once and also reports `trisect_hits`
// and `disagreements`, the casts where one hits and the other does not or both hit at times
// more than 1e-3 apart (`hit_miss`, the first kind alone); differences do not fail it.
#include "bench_main.hpp"
#include "scenes.hpp"

#include <trisect/bvh/capsule_query.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/frustum_query.hpp>
#include <trisect/bvh/oriented_box_query.hpp>
#include <trisect/geometry/capsule_triangle.hpp>
#include <trisect/geometry/oriented_box_triangle.hpp>
#include <trisect/math/capsule.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/nearest/box_cast.hpp>

#ifdef TRISECT_BENCH_HAVE_FCL
#include "peers/fcl_mesh.hpp"
#endif

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using bench::Answers;
using bench::Batch;
using trisect::Capsule;
using trisect::Frustum;
using trisect::OrientedBox;

/// The scenes and size variants of the shape benchmarks.
const std::vector<std::string> shape_scenes{"bunny_x16"};
const std::vector<std::string> shape_variants{"1pct"};

// --- the shapes

/// What the benchmarks need of a shape: its name in the benchmark names, the seed of its batch,
/// and `random(random, bounds, size)`, one seeded shape about `size` across in `bounds`.
template <class Shape>
struct ShapeKind;

template <>
struct ShapeKind<Capsule> {
  static constexpr const char* name = "capsule";
  static constexpr std::uint64_t seed = 13;

  /// End a uniform in `bounds`, end b `size` away in a uniform direction, radius half `size`.
  static Capsule random(std::mt19937_64& random, const trisect::Aabb& bounds, float size) {
    const trisect::Vec3 a = bench::random_point(random, bounds);
    const trisect::Vec3 b = a + size * bench::random_direction(random);
    return {a, b, 0.5f * size};
  }
};

template <>
struct ShapeKind<OrientedBox> {
  static constexpr const char* name = "obb";
  static constexpr std::uint64_t seed = 17;

  /// The centre uniform in `bounds`; the axes the columns of the rotation matrix of a uniformly
  /// random unit quaternion (four normal deviates, normalized; in double), rounded to float;
  /// each half extent uniform in [0.25, 0.5] x `size`.
  static OrientedBox random(std::mt19937_64& random, const trisect::Aabb& bounds, float size) {
    OrientedBox box;
    box.center = bench::random_point(random, bounds);
    std::normal_distribution<double> normal;
    double w = 0, x = 0, y = 0, z = 0, norm = 0;
    while (norm < 1e-3) {
      w = normal(random), x = normal(random), y = normal(random), z = normal(random);
      norm = std::sqrt(w * w + x * x + y * y + z * z);
    }
    trisect::scenes::set_rotation(box.axes, w, x, y, z);
    for (int i = 0; i < 3; ++i)
      box.half_extents[i] = trisect::scenes::uniform(random, 0.25f, 0.5f) * size;
    return box;
  }
};

template <>
struct ShapeKind<Frustum> {
  static constexpr const char* name = "frustum";
  static constexpr std::uint64_t seed = 19;

  /// A camera 1.5 `size` (the diagonal) from the centre of `bounds` in a uniform direction,
  /// looking at a point uniform in `bounds`: 5° vertical field of view, aspect 1.5, near 0.01
  /// and far 3 times `size`.
  static Frustum random(std::mt19937_64& random, const trisect::Aabb& bounds, float size) {
    const trisect::Vec3 centre = 0.5f * (bounds.min + bounds.max);
    const trisect::Vec3 eye = centre + 1.5f * size * bench::random_direction(random);
    const trisect::Vec3 target = bench::random_point(random, bounds);
    const trisect::Vec3 up = std::fabs(target.y - eye.y) < 0.9f * glm::length(target - eye)
                                 ? trisect::Vec3(0, 1, 0)
                                 : trisect::Vec3(1, 0, 0);
    return trisect::view_frustum(eye, target - eye, up, 0.0873f, 1.5f, 0.01f * size, 3 * size);
  }
};

/// `batch_size(variant)` seeded shapes (`ShapeKind<Shape>::random`, the variant's fraction of
/// the diagonal across, in the scene's bounds); made on the first call and kept per scene and
/// variant.
template <class Shape>
const std::vector<Shape>& query_shapes(const std::string& scene_name, const std::string& variant) {
  static std::map<std::pair<std::string, std::string>, std::vector<Shape>> kept;
  std::vector<Shape>& shapes = kept[{scene_name, variant}];
  if (shapes.empty()) {
    const bench::Scene& chosen = bench::scene(scene_name);
    const trisect::Aabb bounds = chosen.bounds();
    const bool view = variant == "view";  // frustums: the diagonal sets the camera's distance
    const float size = view ? chosen.diagonal() : bench::percent_of(variant) * chosen.diagonal();
    std::mt19937_64 random(ShapeKind<Shape>::seed);
    for (std::size_t i = 0; i < (view ? std::size_t{100} : bench::batch_size(variant)); ++i)
      shapes.push_back(ShapeKind<Shape>::random(random, bounds, size));
  }
  return shapes;
}

/// A box holding every point of `capsule`: the axis segment's box grown by the radius in
/// double, rounded to float, then moved outward by an ulp (the rounding moved it by at most
/// half of one).
trisect::Aabb bounding_box(const Capsule& capsule) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  const trisect::Aabb axis = trisect::Aabb::from_corners(capsule.a, capsule.b);
  const double radius = capsule.radius;
  trisect::Aabb box = axis;
  for (int a = 0; a < 3; ++a) {
    box.min[a] = std::nextafter(static_cast<float>(double(axis.min[a]) - radius), -inf);
    box.max[a] = std::nextafter(static_cast<float>(double(axis.max[a]) + radius), inf);
  }
  return box;
}

/// A box holding every point of `box`: trisect's bounds, rounded outward.
trisect::Aabb bounding_box(const OrientedBox& box) { return trisect::bounds(box); }

std::size_t total_ids(const Answers& answers) {
  std::size_t total = 0;
  for (const auto& ids : answers) total += ids.size();
  return total;
}

// --- trisect

template <class Shape>
Batch trisect_batch(const std::string& scene_name, const std::string& variant) {
  return bench::collect_touching_batch(bench::trisect_bvh(scene_name),
                                       query_shapes<Shape>(scene_name, variant));
}

template <class Shape>
const Answers& trisect_answers(const std::string& scene_name, const std::string& variant) {
  return bench::kept_answers(std::string(ShapeKind<Shape>::name) + "/" + scene_name + "/" + variant,
                             [&] { return trisect_batch<Shape>(scene_name, variant); });
}

// --- trisect_box_exact

template <class Shape>
Batch box_exact_batch(const std::string& scene_name, const std::string& variant) {
  const bench::Scene& scene = bench::scene(scene_name);
  const trisect::Bvh& bvh = bench::trisect_bvh(scene_name);
  const std::vector<Shape>& shapes = query_shapes<Shape>(scene_name, variant);
  return [&scene, &bvh, &shapes] {
    Answers answers(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Shape& shape = shapes[i];
      std::vector<trisect::TriangleId> ids = trisect::collect_touching(bvh, bounding_box(shape));
      std::erase_if(ids, [&scene, &shape](trisect::TriangleId id) {
        return !trisect::intersects(scene.triangle(id), shape);
      });
      answers[i] = std::move(ids);  // still sorted
    }
    return answers;
  };
}

// --- registration

/// Registers `name` timing `make()()` (`make` runs on the benchmark's first run only). That
/// first run also answers the batch once untimed, for the `ids` counter and, given a
/// `reference`, to compare every answer with it: a difference skips the benchmark with an
/// error naming the first differing `shape_name`. Items processed are shapes.
void register_answers(const std::string& name, const std::string& shape_name,
                      std::function<Batch()> make, std::function<const Answers&()> reference) {
  struct Slot {
    Batch batch;
    double queries = 0, ids = 0;
    std::string error;
  };
  const auto slot = std::make_shared<Slot>();
  benchmark::RegisterBenchmark(name.c_str(), [slot, shape_name, make,
                                              reference](benchmark::State& state) {
    if (!slot->batch) {
      slot->batch = make();
      const Answers answers = slot->batch();
      slot->queries = static_cast<double>(answers.size());
      slot->ids = static_cast<double>(total_ids(answers));
      if (reference) {
        const Answers& expected = reference();
        for (std::size_t i = 0; i < std::max(answers.size(), expected.size()); ++i)
          if (i >= answers.size() || i >= expected.size() || answers[i] != expected[i]) {
            slot->error = shape_name + " " + std::to_string(i) + ": answer differs from trisect's";
            break;
          }
      }
    }
    if (!slot->error.empty()) {
      state.SkipWithError(slot->error.c_str());
      return;
    }
    for (auto _ : state) {
      Answers answers = slot->batch();
      benchmark::DoNotOptimize(answers.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(
        static_cast<std::int64_t>(static_cast<double>(state.iterations()) * slot->queries));
    state.counters["ids"] = slot->ids;
  })->Unit(benchmark::kMillisecond);
}

#ifdef TRISECT_BENCH_HAVE_FCL
/// Registers `name` timing FCL's count for every shape of the batch; counters `ids` (FCL's
/// total) and `trisect_ids` (trisect's). The model is built on the first run.
template <class Shape>
void register_fcl(const std::string& name, const std::string& scene_name,
                  const std::string& variant) {
  struct Slot {
    std::unique_ptr<const bench::fcl_peer::Model> model;
    double queries = 0, ids = 0, trisect_ids = 0;
  };
  const auto slot = std::make_shared<Slot>();
  benchmark::RegisterBenchmark(name.c_str(), [slot, scene_name, variant](benchmark::State& state) {
    const std::vector<Shape>& shapes = query_shapes<Shape>(scene_name, variant);
    const auto count = [&slot, &shapes] {
      std::size_t total = 0;
      for (const Shape& shape : shapes) total += slot->model->count_touching(shape);
      return total;
    };
    if (!slot->model) {
      slot->model = std::make_unique<const bench::fcl_peer::Model>(bench::scene(scene_name));
      slot->queries = static_cast<double>(shapes.size());
      slot->ids = static_cast<double>(count());
      slot->trisect_ids =
          static_cast<double>(total_ids(trisect_answers<Shape>(scene_name, variant)));
    }
    for (auto _ : state) {
      std::size_t total = count();
      benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(
        static_cast<std::int64_t>(static_cast<double>(state.iterations()) * slot->queries));
    state.counters["ids"] = slot->ids;
    state.counters["trisect_ids"] = slot->trisect_ids;
  })->Unit(benchmark::kMillisecond);
}
#endif

/// Registers the trisect, fcl and trisect_box_exact benchmarks of `Shape` on `scene`.
template <class Shape>
void register_shape(const std::string& scene, const std::string& variant) {
  const std::string shape_name = ShapeKind<Shape>::name;
  const auto name = [&](const char* library) {
    return bench::benchmark_name(shape_name, library, scene, variant, 1);
  };
  register_answers(name("trisect"), shape_name,
                   [scene, variant] { return trisect_batch<Shape>(scene, variant); }, {});
#ifdef TRISECT_BENCH_HAVE_FCL
  register_fcl<Shape>(name("fcl"), scene, variant);
#endif
  register_answers(
      name("trisect_box_exact"), shape_name,
      [scene, variant] { return box_exact_batch<Shape>(scene, variant); },
      [scene, variant]() -> const Answers& { return trisect_answers<Shape>(scene, variant); });
}

// --- box casts

/// One cast: the box and its motion.
struct Cast {
  OrientedBox box;
  trisect::Vec3 motion{0.0f};
};

constexpr std::uint64_t cast_seed = 23;
constexpr const char* cast_variant = "box1pct";
constexpr float cast_box_size = 0.01f;    // of the diagonal, like obb/1pct
constexpr float cast_motion_size = 0.1f;  // of the diagonal

/// 1000 seeded casts on `scene_name`: a box `ShapeKind<OrientedBox>::random` (1% of the
/// diagonal), then a point uniform in the bounds (drawn again while it is within 1e-6 of the
/// diagonal of the centre) and the motion towards it, 10% of the diagonal long; made on the
/// first call and kept per scene.
const std::vector<Cast>& query_casts(const std::string& scene_name) {
  static std::map<std::string, std::vector<Cast>> kept;
  std::vector<Cast>& casts = kept[scene_name];
  if (casts.empty()) {
    const bench::Scene& chosen = bench::scene(scene_name);
    const trisect::Aabb bounds = chosen.bounds();
    const float diagonal = chosen.diagonal();
    std::mt19937_64 random(cast_seed);
    for (std::size_t i = 0; i < 1000; ++i) {
      Cast cast;
      cast.box = ShapeKind<OrientedBox>::random(random, bounds, cast_box_size * diagonal);
      trisect::Vec3 towards(0.0f);
      float length = 0;
      while (!(length > 1e-6f * diagonal)) {
        towards = bench::random_point(random, bounds) - cast.box.center;
        length = glm::length(towards);
      }
      cast.motion = (cast_motion_size * diagonal / length) * towards;
      casts.push_back(cast);
    }
  }
  return casts;
}

/// The time of every cast, or nothing where it misses.
using CastTimes = std::vector<std::optional<double>>;

/// trisect's times of `casts`: `cast_box` one after the other on this thread.
CastTimes trisect_cast_times(const trisect::Bvh& bvh, const std::vector<Cast>& casts) {
  CastTimes times(casts.size());
  for (std::size_t i = 0; i < casts.size(); ++i)
    if (const auto hit = trisect::cast_box(bvh, casts[i].box, casts[i].motion)) times[i] = hit->t;
  return times;
}

/// The casts that hit and the sum of their times.
std::pair<double, double> hits_and_t_sum(const CastTimes& times) {
  double hits = 0, t_sum = 0;
  for (const auto& t : times)
    if (t) ++hits, t_sum += *t;
  return {hits, t_sum};
}

/// The timed loop of a cast benchmark: `time_of(cast)` (an optional time) on every cast of the
/// batch, the hits counted and their times summed so that nothing is optimised away; items are
/// casts.
template <class TimeOf>
void time_cast_batch(benchmark::State& state, const std::vector<Cast>& casts, TimeOf&& time_of) {
  for (auto _ : state) {
    std::size_t hits = 0;
    double t_sum = 0;
    for (const Cast& cast : casts)
      if (const std::optional<double> t = time_of(cast)) ++hits, t_sum += *t;
    benchmark::DoNotOptimize(hits);
    benchmark::DoNotOptimize(t_sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(casts.size()));
}

/// Registers `cast/trisect/<scene>/box1pct/t1`: `cast_box` on every cast of the batch, on one
/// thread; counters `hits` and `t_sum` from one untimed pass.
void register_trisect_casts(const std::string& scene_name) {
  struct Slot {
    bool ready = false;
    double hits = 0, t_sum = 0;
  };
  const auto slot = std::make_shared<Slot>();
  const std::string name = bench::benchmark_name("cast", "trisect", scene_name, cast_variant, 1);
  benchmark::RegisterBenchmark(name.c_str(), [slot, scene_name](benchmark::State& state) {
    const trisect::Bvh& bvh = bench::trisect_bvh(scene_name);
    const std::vector<Cast>& casts = query_casts(scene_name);
    if (!slot->ready) {
      std::tie(slot->hits, slot->t_sum) = hits_and_t_sum(trisect_cast_times(bvh, casts));
      slot->ready = true;
    }
    time_cast_batch(state, casts, [&](const Cast& cast) -> std::optional<double> {
      if (const auto hit = trisect::cast_box(bvh, cast.box, cast.motion)) return hit->t;
      return std::nullopt;
    });
    state.counters["hits"] = slot->hits;
    state.counters["t_sum"] = slot->t_sum;
  })->Unit(benchmark::kMillisecond);
}

#ifdef TRISECT_BENCH_HAVE_FCL
/// Registers `cast/fcl/<scene>/box1pct/t1`: FCL's `time_of_contact` on every cast of the batch.
/// Its first run builds the model and casts the batch once with FCL and with trisect, for the
/// counters `hits`, `t_sum` (FCL's), `trisect_hits`, `disagreements` and `hit_miss`.
void register_fcl_casts(const std::string& scene_name) {
  struct Slot {
    std::unique_ptr<const bench::fcl_peer::Model> model;
    double hits = 0, t_sum = 0, trisect_hits = 0, disagreements = 0, hit_miss = 0;
  };
  const auto slot = std::make_shared<Slot>();
  const std::string name = bench::benchmark_name("cast", "fcl", scene_name, cast_variant, 1);
  benchmark::RegisterBenchmark(name.c_str(), [slot, scene_name](benchmark::State& state) {
    const std::vector<Cast>& casts = query_casts(scene_name);
    if (!slot->model) {
      slot->model = std::make_unique<const bench::fcl_peer::Model>(bench::scene(scene_name));
      CastTimes fcl(casts.size());
      for (std::size_t i = 0; i < casts.size(); ++i)
        fcl[i] = slot->model->time_of_contact(casts[i].box, casts[i].motion);
      const CastTimes exact = trisect_cast_times(bench::trisect_bvh(scene_name), casts);
      std::tie(slot->hits, slot->t_sum) = hits_and_t_sum(fcl);
      slot->trisect_hits = hits_and_t_sum(exact).first;
      for (std::size_t i = 0; i < casts.size(); ++i) {
        if (fcl[i].has_value() != exact[i].has_value()) {
          ++slot->hit_miss, ++slot->disagreements;
        } else if (fcl[i] && std::fabs(*fcl[i] - *exact[i]) > 1e-3) {
          ++slot->disagreements;
        }
      }
    }
    time_cast_batch(state, casts, [&](const Cast& cast) -> std::optional<double> {
      return slot->model->time_of_contact(cast.box, cast.motion);
    });
    state.counters["hits"] = slot->hits;
    state.counters["t_sum"] = slot->t_sum;
    state.counters["trisect_hits"] = slot->trisect_hits;
    state.counters["disagreements"] = slot->disagreements;
    state.counters["hit_miss"] = slot->hit_miss;
  })->Unit(benchmark::kMillisecond);
}
#endif

}  // namespace

void bench::register_all() {
  const std::vector<std::string>& available = bench::scene_names();
  for (const std::string& scene : shape_scenes) {
    if (std::find(available.begin(), available.end(), scene) == available.end()) continue;
    for (const std::string& variant : shape_variants) {
      register_shape<Capsule>(scene, variant);
      register_shape<OrientedBox>(scene, variant);
    }
    register_answers(bench::benchmark_name("frustum", "trisect", scene, "view", 1), "frustum",
                     [scene] { return trisect_batch<Frustum>(scene, "view"); }, {});
    register_trisect_casts(scene);
#ifdef TRISECT_BENCH_HAVE_FCL
    register_fcl_casts(scene);
#endif
  }
}
