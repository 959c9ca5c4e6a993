// Ray queries of DynamicAabbTree against the exact oracle: random rays, rays that graze a box's
// corners, edges and faces within rounding, and the near ties of issue 22.
#include "broadphase/random_boxes.hpp"
#include "broadphase/ray_box_oracle.hpp"
#include "broadphase/tree_answer.hpp"

#include <trisect/broadphase/dynamic_aabb_tree.hpp>
#include <trisect/math/exact.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float infinity = std::numeric_limits<float>::infinity();

std::vector<ProxyId> oracle_answer(const DynamicAabbTree& tree, const std::vector<ProxyId>& ids,
                                   const Ray& ray) {
  std::vector<ProxyId> expected;
  for (const ProxyId id : ids)
    if (exact_ray_meets_box(ray, tree.fat_box(id))) expected.push_back(id);
  std::sort(expected.begin(), expected.end());
  return expected;
}

// ±m·2^e with m uniform in [1, 2) and e uniform in [-spread, spread].
float random_scaled(std::mt19937_64& random, int spread) {
  const float mantissa = std::uniform_real_distribution<float>(1.0f, 2.0f)(random);
  const int exponent = std::uniform_int_distribution<int>(-spread, spread)(random);
  const float sign = std::uniform_int_distribution<int>(0, 1)(random) == 0 ? -1.0f : 1.0f;
  return sign * std::ldexp(mantissa, exponent);
}

// A box with corners of mixed magnitudes; flat on an axis now and then.
Aabb random_scaled_box(std::mt19937_64& random) {
  Aabb box;
  for (int axis = 0; axis < 3; ++axis) {
    const float low = random_scaled(random, 24);
    const bool flat = std::uniform_int_distribution<int>(0, 7)(random) == 0;
    const float extent = flat ? 0.0f : std::fabs(random_scaled(random, 24));
    box.min[axis] = low;
    box.max[axis] = std::max(low, low + extent);
  }
  return box;
}

// A point of the box's boundary: a corner, a point of an edge, or of a face.
Vec3 boundary_point(std::mt19937_64& random, const Aabb& box) {
  const int free_axes = std::uniform_int_distribution<int>(0, 2)(random);
  Vec3 point;
  for (int axis = 0; axis < 3; ++axis) {
    const bool is_free = axis < free_axes;
    const float low = box.min[axis], high = box.max[axis];
    point[axis] = is_free ? std::uniform_real_distribution<float>(low, high)(random)
                          : (std::uniform_int_distribution<int>(0, 1)(random) == 0 ? low : high);
  }
  return point;
}

// A ray through a boundary point of `box` at a parameter t0, its origin rounded to float: it
// touches the box, misses it or enters it by a hair. Its bounds are [0, inf], (-inf, inf), or
// end or start at t0 (a near tie of the bound too). A direction component is zero now and then.
Ray grazing_ray(std::mt19937_64& random, const Aabb& box) {
  const Vec3 target = boundary_point(random, box);
  Vec3 direction;
  for (int axis = 0; axis < 3; ++axis) direction[axis] = random_scaled(random, 24);
  if (std::uniform_int_distribution<int>(0, 5)(random) == 0)
    direction[std::uniform_int_distribution<int>(0, 2)(random)] = 0;
  const float t0 = std::fabs(random_scaled(random, 6));
  Vec3 origin;
  for (int axis = 0; axis < 3; ++axis)
    origin[axis] = float(double(target[axis]) - double(t0) * double(direction[axis]));
  switch (std::uniform_int_distribution<int>(0, 3)(random)) {
    case 0:
      return Ray{origin, direction, 0.0f, infinity};
    case 1:
      return Ray{origin, direction, -infinity, infinity};
    case 2:
      return Ray{origin, direction, 0.0f, t0};
    default:
      return Ray{origin, direction, t0, infinity};
  }
}

// A ray through a float point T at t0 = 1 + a·2^-s, which no double holds (issue 22's first
// case is one): per axis, with D = ±m·2^e and a·m below 2^24, O = -(t0 - 1)·D and T = D, or
// O = -D and T = (t0 - 1)·D, are floats with O + t0·D = T exactly. A zero direction on y or z
// now and then (T = O there).
struct TieRay {
  Ray ray;
  Vec3 target;
};

TieRay tie_ray(std::mt19937_64& random) {
  const auto draw = [&random](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  const int a = 2 * draw(0, 511) + 1, s = draw(30, 75);
  TieRay tie{Ray{}, Vec3(0.0f)};
  for (int axis = 0; axis < 3; ++axis) {
    const float sign = draw(0, 1) == 0 ? -1.0f : 1.0f;
    const float direction = sign * std::ldexp(float(draw(1, 4096)), draw(-20, 40));
    const float offset = direction * std::ldexp(float(a), -s);  // exact: a·m < 2^22
    const bool is_zero = axis > 0 && draw(0, 9) == 0;
    const bool is_first_form = draw(0, 1) == 0;
    tie.ray.direction[axis] = is_zero ? 0.0f : direction;
    tie.ray.origin[axis] = is_zero ? offset : (is_first_form ? -offset : -direction);
    tie.target[axis] = is_zero ? offset : (is_first_form ? direction : offset);
  }
  return tie;
}

// A box with T on its boundary: the ray enters it at t0 through the face of one axis and
// leaves it at t0 through the face of another (when it moves along both), and the third axis
// has T as either bound or inside. Then, two times in three, the entry or exit face is nudged by
// one float step in or out: the ray touches the box's edge or corner exactly at t0, or misses it or
// enters it by far less than a double's rounding.
Aabb tie_box(std::mt19937_64& random, const TieRay& tie) {
  const auto draw = [&random](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  const int entry_axis = draw(0, 2), exit_axis = (entry_axis + draw(1, 2)) % 3;
  Aabb box;
  for (int axis = 0; axis < 3; ++axis) {
    const float t = tie.target[axis];
    const bool forward = tie.ray.direction[axis] > 0;
    int role = draw(0, 2);  // 0: T is the min, 1: the max, 2: inside
    if (axis == entry_axis) role = forward ? 0 : 1;
    if (axis == exit_axis) role = forward ? 1 : 0;
    box.min[axis] = role == 0 ? t : t - std::fabs(random_scaled(random, 30));
    box.max[axis] = role == 1 ? t : t + std::fabs(random_scaled(random, 30));
  }
  const int nudge = draw(0, 2);  // 0: none, 1: the entry face, 2: the exit face
  const int axis = nudge == 1 ? entry_axis : exit_axis;
  if (nudge > 0) {
    const bool is_min = (nudge == 1) == (tie.ray.direction[axis] > 0);
    float& bound = is_min ? box.min[axis] : box.max[axis];
    bound = std::nextafter(bound, draw(0, 1) == 0 ? -infinity : infinity);
    if (box.min[axis] > box.max[axis]) std::swap(box.min[axis], box.max[axis]);
  }
  return box;
}

// Each ray aims at one box of its batch: how often it meets that box, by kind of ray.
struct AimTally {
  std::size_t met = 0, rays = 0;
  void add(const std::vector<ProxyId>& answer, ProxyId aimed_at) {
    met += std::binary_search(answer.begin(), answer.end(), aimed_at) ? 1u : 0u;
    ++rays;
  }
  // Neither answer is rare: the rays are near ties.
  [[nodiscard]] bool is_mixed() const { return met > rays / 10 && met < rays - rays / 10; }
};

}  // namespace

TEST_CASE("DynamicAabbTree ray queries are exact at issue 22's near ties", "[broadphase]") {
  DynamicAabbTree tree(FatBoxOptions{0.0f, 0.0f});
  // The ray touches the box's edge at t = 1 + 3·2^-55 (x enters, y leaves there).
  const Aabb edge_box{Vec3(0x3p54f, -1.0f, -1.0f), Vec3(0x3p55f, 0x3p-35f, 1.0f)};
  const ProxyId edge = tree.create_proxy(edge_box);
  const Ray touching{Vec3(-4.5f, -0x1p20f, 0.0f), Vec3(0x3p54f, 0x1p20f, 0.0f)};
  REQUIRE(exact_ray_meets_box(touching, edge_box));
  // The ray never reaches this box (rounded double said it does).
  const Aabb far_box{Vec3(1.0f, -1.0f, -0x1.4484cp-100f), Vec3(1.0f, -0x1.ep-1f, 0x1.93e594p+71f)};
  const ProxyId far = tree.create_proxy(far_box);
  const Ray passing{Vec3(-0x1.bbab88p+0f, 0x1.93e594p+70f, 0x1.93e594p+70f),
                    Vec3(0x1.5dd5c4p+1f, -0x1.93e594p+70f, 0.0f)};
  REQUIRE_FALSE(exact_ray_meets_box(passing, far_box));
  REQUIRE(exact_ray_meets_box(passing, edge_box) == false);
  REQUIRE(exact_ray_meets_box(touching, far_box) == false);
  CHECK(tree_answer(tree, touching) == std::vector<ProxyId>{edge});
  CHECK(tree_answer(tree, passing).empty());
  // Closed at both ends of [t_min, t_max]: the touching ray ending (starting) exactly at its
  // touching parameter, which a float cannot hold, is cut just before (after) it.
  const Ray ending{touching.origin, touching.direction, 0.0f, 1.0f};
  const Ray starting{touching.origin, touching.direction, std::nextafter(1.0f, 2.0f), infinity};
  CHECK(tree_answer(tree, ending).empty());
  CHECK(tree_answer(tree, starting).empty());
  CHECK_FALSE(exact_ray_meets_box(ending, edge_box));
  CHECK_FALSE(exact_ray_meets_box(starting, edge_box));
  (void)far;
}

TEST_CASE("DynamicAabbTree ray queries equal the exact oracle on grazing rays", "[broadphase]") {
  std::mt19937_64 random(57);
  exact::reset_fallback_count();
  AimTally grazing, ties_before, ties_at;
  for (int batch = 0; batch < 150; ++batch) {
    DynamicAabbTree tree(FatBoxOptions{0.0f, 0.0f});
    std::vector<ProxyId> ids;  // even: a grazed box, odd: a box at a tie ray's target
    std::vector<Aabb> boxes;
    std::vector<TieRay> ties;
    for (int i = 0; i < 16; ++i) {
      boxes.push_back(random_scaled_box(random));
      ids.push_back(tree.create_proxy(boxes.back()));
      ties.push_back(tie_ray(random));
      ids.push_back(tree.create_proxy(tie_box(random, ties.back())));
    }
    INFO("batch " << batch);
    for (std::size_t i = 0; i < 16; ++i) {
      const Ray ray = grazing_ray(random, boxes[i]);
      const std::vector<ProxyId> answer = tree_answer(tree, ray);
      REQUIRE(answer == oracle_answer(tree, ids, ray));
      grazing.add(answer, ids[2 * i]);
      for (const float t_max : {infinity, 1.0f}) {  // 1: just before t0
        const Ray tie{ties[i].ray.origin, ties[i].ray.direction, 0.0f, t_max};
        const std::vector<ProxyId> tie_answer = tree_answer(tree, tie);
        REQUIRE(tie_answer == oracle_answer(tree, ids, tie));
        (t_max == 1.0f ? ties_before : ties_at).add(tie_answer, ids[2 * i + 1]);
      }
    }
  }
  INFO("grazing " << grazing.met << "/" << grazing.rays << ", ties " << ties_at.met << "/"
                  << ties_at.rays << ", ending before " << ties_before.met);
  CHECK(grazing.is_mixed());
  CHECK(ties_at.is_mixed());
  CHECK(ties_before.met < ties_at.met);
  CHECK(exact::fallback_count() > 0);  // the exact path decided some
}

TEST_CASE("DynamicAabbTree ray queries equal the exact oracle on random rays", "[broadphase]") {
  std::mt19937_64 random(3);
  DynamicAabbTree tree;
  std::vector<ProxyId> ids;
  for (int i = 0; i < 500; ++i) ids.push_back(tree.create_proxy(random_box(random, 20.0f)));
  for (int q = 0; q < 200; ++q) {
    Ray ray{random_point(random, 25.0f), random_point(random, 1.0f), 0.0f,
            q % 2 == 0 ? infinity : 20.0f};
    if (q % 5 == 0) ray.direction.y = 0;  // a direction along which the ray does not move
    if (q % 7 == 0) std::swap(ray.t_min, ray.t_max);  // empty: t_min > t_max
    if (ray.direction == Vec3(0.0f)) continue;
    REQUIRE(tree_answer(tree, ray) == oracle_answer(tree, ids, ray));
  }
}

TEST_CASE("The ray filter decides only what the exact oracle says, at the float range's ends",
          "[broadphase]") {
  // Directions with subnormal and huge components, boxes out to ±FLT_MAX, open and flipped
  // parameter bounds: every box the filter decides, it decides as the oracle does.
  std::mt19937_64 random(61);
  constexpr float largest = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const auto pick = [&](std::initializer_list<float> values) {
    return *std::next(values.begin(),
                      std::uniform_int_distribution<int>(0, int(values.size()) - 1)(random));
  };
  int decided = 0, undecided = 0;
  for (int k = 0; k < 20000; ++k) {
    Vec3 origin, direction, low, high;
    for (int axis = 0; axis < 3; ++axis) {
      origin[axis] = pick({0.0f, 1.0f, -largest, largest, tiny, random_scaled(random, 100)});
      direction[axis] = pick({0.0f, tiny, -tiny, 1.0f, -largest, random_scaled(random, 120)});
      const float a = pick({-largest, largest, 0.0f, tiny, random_scaled(random, 100)});
      const float b = pick({-largest, largest, 1.0f, -tiny, random_scaled(random, 100)});
      low[axis] = std::min(a, b);
      high[axis] = std::max(a, b);
    }
    if (direction == Vec3(0.0f)) direction.x = 1.0f;
    const Ray ray{origin, direction, pick({0.0f, -infinity, 1.0f, 2.0f}),
                  pick({infinity, 1.0f, 0.5f, largest})};
    const Aabb box{low, high};
    const detail::RayBoxFilter filter(ray);
    const int decision = filter.decide(box);
    const bool expected = exact_ray_meets_box(ray, box);
    INFO("case " << k);
    if (decision != 0) REQUIRE((decision > 0) == expected);
    REQUIRE(filter.meets(box) == expected);
    (decision != 0 ? decided : undecided) += 1;
  }
  CHECK(decided > 10 * undecided);  // the exact path is the exception
}

}  // namespace trisect::testing
