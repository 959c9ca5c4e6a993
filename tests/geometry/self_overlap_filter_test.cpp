// The four-lane float filter of the self-overlap rule (geometry/detail/self_overlap_filter.hpp)
// against the exact rule and the exact clipping oracle, on neighbour pairs of every kind: a
// shared vertex or edge, coplanar, folded back, tiny dihedral angles, zero-area, flipped, and
// coordinates near FLT_MAX and in the subnormal range.
#include "support/describe.hpp"
#include "support/exact_oracle.hpp"

#include <trisect/geometry/detail/self_overlap_filter.hpp>
#include <trisect/geometry/self_overlap.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

/// How often each verdict came up.
struct Tally {
  int apart = 0, straddling = 0, projected = 0, left = 0;
};

/// The filter's answer for each of the first `count` lanes, ss[lane] against ts[lane] (apart:
/// false; straddling: two orientations; apart in projection: false; else the exact rule),
/// checked against the exact rule, the rule without the two-orientation shortcut (both far
/// parts, as before it) and the clipping oracle. The lanes past `count` repeat the first, as
/// the self query fills them, and must come out neither apart nor straddling.
void require_filter_exact(const std::array<Triangle, 4>& ss, const std::array<Triangle, 4>& ts,
                          int count, Tally& tally) {
  std::array<detail::PackedTriangle, 4> s_packed{}, t_packed{};
  const detail::PackedTriangle *s_rows[4], *t_rows[4];
  for (int lane = 0; lane < 4; ++lane) {
    const std::size_t from = lane < count ? std::size_t(lane) : 0;
    s_packed[std::size_t(lane)] = detail::PackedTriangle::of(ss[from]);
    t_packed[std::size_t(lane)] = detail::PackedTriangle::of(ts[from]);
    REQUIRE(s_packed[std::size_t(lane)].triangle() == ss[from]);
    s_rows[lane] = &s_packed[std::size_t(lane)];
    t_rows[lane] = &t_packed[std::size_t(lane)];
  }
  const unsigned lanes = (1u << count) - 1u;
  const detail::LaneVerdicts verdicts = detail::LaneVerdicts::of(
      detail::TriangleLanes::gather(s_rows), detail::TriangleLanes::gather(t_rows), lanes);
  REQUIRE((verdicts.apart & ~lanes) == 0);
  REQUIRE((verdicts.straddling & (~lanes | verdicts.apart)) == 0);
  for (int lane = 0; lane < count; ++lane) {
    const Triangle &s = ss[std::size_t(lane)], &t = ts[std::size_t(lane)];
    INFO("lane " << lane << ": " << describe(s) << " " << describe(t));
    const bool exact = intersects_beyond_shared_vertices(s, t);
    REQUIRE(exact == oracle::touches_beyond_shared(s, t));
    if ((verdicts.apart >> lane & 1u) != 0) {
      ++tally.apart;
      REQUIRE_FALSE(exact);
    } else if ((verdicts.straddling >> lane & 1u) != 0) {
      ++tally.straddling;
      REQUIRE(detail::lane_straddling_meet(s, t, verdicts, lane) == exact);
      // The rule before the shortcut: the far part of each against the other.
      int m = 0;
      while ((verdicts.s_shared[m] >> lane & 1u) == 0) ++m;
      const Vec3 sv[3] = {s.a, s.b, s.c};
      const Vec3& v = sv[m];
      const bool far_parts =
          detail::far_part_meets(v, detail::without(s, v), t, detail::ApproximateNormal::of(t)) ||
          detail::far_part_meets(v, detail::without(t, v), s, detail::ApproximateNormal::of(s));
      REQUIRE(far_parts == exact);
    } else if (detail::lane_projected_apart(s, s_packed[std::size_t(lane)].plane(), t, verdicts,
                                            lane)) {
      ++tally.projected;
      REQUIRE_FALSE(exact);
    } else {
      ++tally.left;
    }
  }
}

/// `s` in every lane against `ts`, as `require_filter_exact` checks them.
void require_filter_exact(const Triangle& s, const std::array<Triangle, 4>& ts, int count,
                          Tally& tally) {
  require_filter_exact({s, s, s, s}, ts, count, tally);
}

/// Random neighbour pairs around a vertex at `centre`, edges of about `scale`.
class NeighbourMaker {
 public:
  NeighbourMaker(std::uint64_t seed, Vec3 centre, float scale)
      : random_(seed), centre_(centre), scale_(scale) {}

  /// A point near the centre (finite).
  Vec3 point() {
    for (;;) {
      const Vec3 p = any_point();
      if (finite(p)) return p;
    }
  }

  /// A triangle with a vertex at the centre.
  Triangle fan_triangle() { return rotate({centre_, point(), point()}); }

  /// A second triangle for `s` (finite), of `any_neighbour`'s kinds.
  Triangle neighbour(const Triangle& s) {
    for (;;) {
      const Triangle t = any_neighbour(s);
      if (finite(t.a) && finite(t.b) && finite(t.c)) return t;
    }
  }

 private:
  static bool finite(const Vec3& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
  }

  /// A point near the centre: random, or on a small lattice (ties and coplanar cases); may
  /// overflow near FLT_MAX.
  Vec3 any_point() {
    if (chance(0.3)) {
      return centre_ + scale_ * Vec3(float(integer(-2, 2)), float(integer(-2, 2)),
                                     chance(0.5) ? 0.0f : float(integer(-2, 2)));
    }
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    return centre_ + scale_ * Vec3(unit(random_), unit(random_), unit(random_));
  }

  /// A second triangle for `s`: sharing a vertex or an edge, folded back onto it, coplanar,
  /// at a tiny dihedral angle, zero-area, flipped, or the same positions.
  Triangle any_neighbour(const Triangle& s) {
    const Vec3 sv[3] = {s.a, s.b, s.c};
    const Vec3 &u = sv[integer(0, 2)], &w = sv[integer(0, 2)];
    Triangle t{};
    switch (integer(0, 8)) {
      case 0:  // a shared vertex
        t = {u, point(), point()};
        break;
      case 1:  // a shared edge
        t = {s.a, s.b, point()};
        break;
      case 2:  // folded back: the third vertex mirrored into the plane of s, or past it
        t = {s.b, s.a, s.c + (chance(0.5) ? 0.5f : -0.25f) * (s.c - 0.5f * (s.a + s.b))};
        break;
      case 3: {  // in the plane of s: a lattice combination of its vertices
        const Vec3 p =
            s.a + float(integer(-1, 2)) * (s.b - s.a) + float(integer(-1, 2)) * (s.c - s.a);
        t = {u, p, chance(0.5) ? w : s.a + 0.5f * (s.b - s.a) - 0.5f * (s.c - s.a)};
        break;
      }
      case 4: {  // a tiny dihedral angle across the edge ab
        const Vec3 off = s.c + (s.a - s.c) + (s.b - s.c);  // c reflected through the edge
        const Vec3 nudge(std::nextafter(off.x, off.x + 1.0f), off.y, off.z);
        t = {s.a, s.b, chance(0.5) ? nudge : off};
        break;
      }
      case 5:  // zero-area: a repeated vertex or a point on an edge
        t = chance(0.5) ? Triangle{u, u, point()} : Triangle{u, w, 0.5f * (u + w)};
        break;
      case 6:  // flipped: s with two vertices swapped, or its vertices in another order
        t = chance(0.5) ? Triangle{s.b, s.a, s.c} : Triangle{s.c, s.a, s.b};
        break;
      case 7:  // a shared vertex, the rest straddling the plane of s
        t = {u, u + (u - point()), point()};
        break;
      default:
        t = {point(), point(), point()};
        break;
    }
    return rotate(t);
  }

  bool chance(double p) { return std::bernoulli_distribution(p)(random_); }
  int integer(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }
  Triangle rotate(const Triangle& t) {
    switch (integer(0, 2)) {
      case 0:
        return t;
      case 1:
        return {t.b, t.c, t.a};
      default:
        return {t.c, t.a, t.b};
    }
  }

  std::mt19937_64 random_;
  Vec3 centre_;
  float scale_;
};

/// `cases` batches of neighbour pairs, each of 1 to 4 lanes, for first triangles of a fan
/// (often zero-area too): the same first triangle in every lane, or one of its own in each
/// (as a self query gathers them), checked by `require_filter_exact`.
Tally run_cases(std::uint64_t seed, Vec3 centre, float scale, int cases) {
  NeighbourMaker maker(seed, centre, scale);
  Tally tally;
  for (int c = 0; c < cases; ++c) {
    std::array<Triangle, 4> ss{}, ts{};
    for (std::size_t lane = 0; lane < 4; ++lane) {
      ss[lane] = lane == 0 || c % 2 == 0 ? maker.fan_triangle() : ss[0];
      if ((c + int(lane)) % 17 == 0) ss[lane].c = ss[lane].b;  // zero-area s
      ts[lane] = maker.neighbour(ss[lane]);
    }
    require_filter_exact(ss, ts, 1 + c % 4, tally);
  }
  return tally;
}

}  // namespace

TEST_CASE("self-overlap filter: verdicts match the exact rule on neighbour pairs",
          "[geometry][triangle_triangle][self_overlap_filter]") {
  const Tally tally = run_cases(0x5e1f'0001ULL, Vec3(0.25f, -0.5f, 1.0f), 0.01f, 6000);
  // Every verdict is exercised.
  CHECK(tally.apart > 1000);
  CHECK(tally.straddling > 50);
  CHECK(tally.projected > 50);
  CHECK(tally.left > 100);
}

TEST_CASE("self-overlap filter: far from the origin, huge and subnormal coordinates",
          "[geometry][triangle_triangle][self_overlap_filter]") {
  SECTION("near 1e6") { run_cases(0x5e1f'0002ULL, Vec3(1e6f, -1e6f, 3e5f), 0.01f, 1500); }
  SECTION("near FLT_MAX: differences and products overflow") {
    const float big = std::numeric_limits<float>::max();
    run_cases(0x5e1f'0003ULL, Vec3(0.0f), 0.5f * big, 1500);
    run_cases(0x5e1f'0004ULL, Vec3(0.5f * big, -0.5f * big, 0.0f), 0.4f * big, 1500);
  }
  SECTION("huge but finite products") { run_cases(0x5e1f'0005ULL, Vec3(1e12f), 1e12f, 1500); }
  SECTION("subnormal and tiny: products underflow") {
    run_cases(0x5e1f'0006ULL, Vec3(0.0f), 1e-40f, 1500);
    run_cases(0x5e1f'0007ULL, Vec3(1e-30f), 1e-25f, 1500);
    run_cases(0x5e1f'0008ULL, Vec3(1.0f), 1e-6f, 1500);
  }
}

TEST_CASE("self-overlap filter: a flat fan with edges in line, as in a subdivided mesh",
          "[geometry][triangle_triangle][self_overlap_filter]") {
  // Six triangles around the origin in the plane z = 0.1 x + 0.2 y (rounded), opposite edges
  // in line: every pair shares the centre, an edge, or (opposite) only the centre.
  std::vector<Vec3> ring;
  const float dx[6] = {1, 1, 0, -1, -1, 0}, dy[6] = {0, 1, 1, 0, -1, -1};
  for (int k = 0; k < 6; ++k) ring.push_back({dx[k], dy[k], 0.1f * dx[k] + 0.2f * dy[k]});
  const Vec3 centre(0, 0, 0);
  std::vector<Triangle> fan;
  for (int k = 0; k < 6; ++k)
    fan.push_back({centre, ring[std::size_t(k)], ring[std::size_t((k + 1) % 6)]});
  Tally tally;
  for (const Triangle& s : fan) {
    for (int first = 0; first < 6; first += 3) {
      std::array<Triangle, 4> ts{};
      for (int lane = 0; lane < 3; ++lane) ts[std::size_t(lane)] = fan[std::size_t(first + lane)];
      require_filter_exact(s, ts, 3, tally);
    }
  }
  CHECK(tally.projected + tally.apart > 0);
}

TEST_CASE("self-overlap filter: chosen cases",
          "[geometry][triangle_triangle][self_overlap_filter]") {
  const Triangle flat{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  const float big = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  Tally tally;
  // A crease, a flat quad, a fold, an overlap across the edge, the same positions, a fan
  // neighbour through the face, one below the plane, a point-triangle at the shared vertex.
  require_filter_exact(
      flat,
      {Triangle{{4, 0, 0}, {0, 4, 0}, {4, 4, 3}}, Triangle{{4, 0, 0}, {0, 4, 0}, {4, 4, 0}},
       Triangle{{4, 0, 0}, {0, 4, 0}, {1, 1, 0}}, Triangle{{0, 4, 0}, {4, 0, 0}, {3, -1, 0}}},
      4, tally);
  require_filter_exact(
      flat,
      {Triangle{flat.c, flat.a, flat.b}, Triangle{{0, 0, 0}, {2, 2, -1}, {2, 2, 1}},
       Triangle{{0, 0, 0}, {-4, 0, -1}, {0, -4, -3}}, Triangle{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
      4, tally);
  // Both straddling at a shared vertex: the rays along the planes' line point the same way
  // (meet) or opposite ways (apart).
  require_filter_exact(
      Triangle{{0, 0, 0}, {1, 1, 1}, {1, -1, 1}},
      {Triangle{{0, 0, 0}, {1, 0, 2}, {1, 0, -2}}, Triangle{{0, 0, 0}, {-1, 0, 2}, {-1, 0, -2}},
       Triangle{{0, 0, 0}, {1, 2, 0}, {1, -2, 0}}, Triangle{{0, 0, 0}, {-1, 2, 0}, {-1, -2, 0}}},
      4, tally);
  CHECK(tally.straddling >= 2);
  // Extremes: a vertex at ±FLT_MAX, at the smallest subnormal.
  require_filter_exact(Triangle{{0, 0, 0}, {big, 0, 0}, {0, big, 0}},
                       {Triangle{{0, 0, 0}, {-big, 0, 1}, {0, -big, 1}},
                        Triangle{{big, 0, 0}, {0, big, 0}, {big, big, -big}},
                        Triangle{{0, 0, 0}, {big, big, 0}, {1, 1, 0}},
                        Triangle{{-big, -big, -big}, {big, big, big}, {0, 0, 0}}},
                       4, tally);
  require_filter_exact(Triangle{{0, 0, 0}, {tiny, 0, 0}, {0, tiny, 0}},
                       {Triangle{{0, 0, 0}, {-tiny, 0, tiny}, {0, -tiny, tiny}},
                        Triangle{{tiny, 0, 0}, {0, tiny, 0}, {tiny, tiny, tiny}},
                        Triangle{{0, 0, 0}, {tiny, tiny, 0}, {tiny, 0, -tiny}},
                        Triangle{{tiny, 0, 0}, {0, tiny, 0}, {0, 0, 0}}},
                       4, tally);
}

}  // namespace trisect::testing
