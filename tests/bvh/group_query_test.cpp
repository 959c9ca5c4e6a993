// The leaf-group tests of the box, plane and sphere queries (`touching_lanes`) against their own
// one-triangle tests, lane by lane: groups of 1 to 4 triangles on a lattice full of exact
// ties (vertices on box faces and on planes), with NaN past the last lane, which must not
// matter.
#include <trisect/bvh/box_query.hpp>
#include <trisect/bvh/plane_query.hpp>
#include <trisect/bvh/sphere_query.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <iterator>
#include <limits>
#include <random>

namespace trisect::testing {
namespace {

// Up to four triangles, structure-of-arrays as a leaf stores them, NaN after them.
struct PackedGroup {
  std::array<float, 9 * 4 + 3> floats;
  int count;

  PackedGroup(const Triangle* triangles, int n) : count(n) {
    floats.fill(std::numeric_limits<float>::quiet_NaN());
    for (int lane = 0; lane < n; ++lane) {
      const Vec3 vertices[3] = {triangles[lane].a, triangles[lane].b, triangles[lane].c};
      for (int j = 0; j < 9; ++j)
        floats[static_cast<std::size_t>(j * n + lane)] = vertices[j / 3][j % 3];
    }
  }
  [[nodiscard]] TriangleGroup group() const { return {floats.data(), count}; }
};

// A lattice point: coordinates in {-2, -1.5, ..., 2}, so that ties with the boxes and planes
// below are common.
Vec3 lattice_point(std::mt19937_64& random) {
  std::uniform_int_distribution<int> step(-4, 4);
  return {0.5f * float(step(random)), 0.5f * float(step(random)), 0.5f * float(step(random))};
}

// Counts of lanes tested and lanes touching.
struct Tally {
  int lanes = 0, touched = 0;
};

template <class Query>
void check_lanes(const Query& query, const Triangle* triangles, int count, Tally& tally) {
  const PackedGroup packed(triangles, count);
  const unsigned lanes = query.touching_lanes(packed.group());
  INFO("count " << count);
  CHECK(lanes >> count == 0);
  for (int lane = 0; lane < count; ++lane) {
    const bool expected = query.touches(triangles[lane]);
    CHECK(((lanes >> lane) & 1u) == (expected ? 1u : 0u));
    tally.touched += expected ? 1 : 0;
    ++tally.lanes;
  }
}

TEST_CASE("box and plane queries test a leaf group as they test each triangle",
          "[bvh][group_query]") {
  std::mt19937_64 random(23);
  Tally box_tally, plane_tally;
  const Aabb region{Vec3(-2.0f), Vec3(2.0f)};
  for (int i = 0; i < 20000; ++i) {
    Triangle triangles[4];
    for (Triangle& t : triangles)
      t = {lattice_point(random), lattice_point(random), lattice_point(random)};
    if (i % 5 == 0) triangles[1] = triangles[0];                       // a repeat
    if (i % 7 == 0) triangles[2].c = triangles[2].b = triangles[2].a;  // a point
    const int count = 1 + i % 4;
    const Vec3 corner = lattice_point(random), other = lattice_point(random);
    const BoxQuery box{{glm::min(corner, other), glm::max(corner, other)}};
    check_lanes(box, triangles, count, box_tally);
    const Vec3 normal = lattice_point(random);
    if (normal == Vec3(0.0f)) continue;
    const Plane plane{normal, 0.5f * float(i % 5 - 2)};
    check_lanes(PlaneQuery::within(plane, region, region), triangles, count, plane_tally);
  }
  // Both answers occur often, so a mask that is always empty or always full fails.
  CHECK(box_tally.touched > 5000);
  CHECK(plane_tally.touched > 5000);
  CHECK(box_tally.lanes - box_tally.touched > 5000);
  CHECK(plane_tally.lanes - plane_tally.touched > 5000);
}

TEST_CASE("sphere queries test a leaf group as they test each triangle", "[bvh][group_query]") {
  std::mt19937_64 random(29);
  std::uniform_real_distribution<float> uniform(-2.0f, 2.0f);
  const auto uniform_point = [&] {
    return Vec3(uniform(random), uniform(random), uniform(random));
  };
  // Lattice radii tie with lattice vertices (distances 0.5, 1, 1.5, ...); 1e-20 is below the
  // radius from which the float test accepts a vertex as inside; sqrt(2) rounds to a float.
  const float radii[] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 1.41421356f, 1e-20f, 0.3f};
  Tally lattice, uniform_tally;
  for (int i = 0; i < 20000; ++i) {
    const bool on_lattice = i % 2 == 0;
    const auto point = [&] { return on_lattice ? lattice_point(random) : uniform_point(); };
    Triangle triangles[4];
    for (Triangle& t : triangles) t = {point(), point(), point()};
    if (i % 7 == 0) triangles[2].c = triangles[2].b = triangles[2].a;  // a point
    const int count = 1 + i % 4;
    const float radius = radii[static_cast<std::size_t>(i / 2) % std::size(radii)];
    const SphereQuery query = SphereQuery::of(Sphere{point(), radius});
    check_lanes(query, triangles, count, on_lattice ? lattice : uniform_tally);
  }
  CHECK(lattice.touched > 3000);
  CHECK(uniform_tally.touched > 3000);
  CHECK(lattice.lanes - lattice.touched > 3000);
  CHECK(uniform_tally.lanes - uniform_tally.touched > 3000);
}

}  // namespace
}  // namespace trisect::testing
