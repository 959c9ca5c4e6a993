// Slicing against an independent oracle (exact rational segments, brute-force chaining) and
// against analytic shapes: closure, orientation, lengths and areas, STL soups, open and
// non-manifold meshes, planes through vertices and flat faces, thread counts, the BVH path.
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/slice/slice.hpp>

#include "support/property.hpp"
#include "support/scenes.hpp"
#include "support/slice_oracle.hpp"

#include <catch2/catch.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <span>

namespace trisect {
namespace {

using oracle::ExactSegment;

// An owning indexed mesh.
struct IndexedMesh {
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> indices;
  [[nodiscard]] TriangleSoup soup() const { return {positions, indices}; }
  [[nodiscard]] std::vector<Vec3> unindexed() const {
    std::vector<Vec3> soup;
    for (std::uint32_t index : indices) soup.push_back(positions[index]);
    return soup;
  }
  void flip(std::size_t triangle) {
    std::swap(indices[3 * triangle + 1], indices[3 * triangle + 2]);
  }
};

// An axis-aligned box [0, sx] x [0, sy] x [0, sz], outward-facing (counter-clockwise seen from
// outside), each face split in two triangles.
IndexedMesh box(float sx, float sy, float sz) {
  return {{{0, 0, 0},
           {sx, 0, 0},
           {sx, sy, 0},
           {0, sy, 0},
           {0, 0, sz},
           {sx, 0, sz},
           {sx, sy, sz},
           {0, sy, sz}},
          {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
           1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7}};
}

// A torus around the z axis (radii `major` > `minor`), outward-facing, with rings at z = 0 on
// the outer and inner equators.
IndexedMesh torus(float major, float minor, int around, int tube) {
  IndexedMesh mesh;
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < tube; ++j) {
      const double u = 2 * std::numbers::pi * i / around, v = 2 * std::numbers::pi * j / tube;
      const double r = double(major) + double(minor) * std::cos(v);
      mesh.positions.emplace_back(float(r * std::cos(u)), float(r * std::sin(u)),
                                  float(double(minor) * std::sin(v)));
    }
  const auto at = [&](int i, int j) { return std::uint32_t((i % around) * tube + (j % tube)); };
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < tube; ++j) {
      const std::uint32_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
    }
  return mesh;
}

float largest_coordinate(const TriangleSoup& soup) {
  float largest = 0;
  for (std::size_t t = 0; t < soup.size(); ++t) {
    const Triangle triangle = soup.triangle(t);
    for (const Vec3& v : {triangle.a, triangle.b, triangle.c})
      largest = std::max({largest, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  }
  return largest;
}

// `point` equals the exact point bit for bit when that is representable, else lies within
// 1e-6 × `scale` of it per coordinate.
bool close_to(const Vec3& point, const oracle::QVec3& exact, float scale) {
  const oracle::QVec3 p = oracle::rational(point);
  bool representable = true;
  for (std::size_t i = 0; i < 3; ++i)
    representable = representable && oracle::rational(float(exact[i].get_d())) == exact[i];
  if (representable) return p == exact;
  for (std::size_t i = 0; i < 3; ++i)
    if (abs(p[i] - exact[i]) > mpq_class(1e-6) * oracle::rational(scale)) return false;
  return true;
}

// Checks one section against the oracle: the same segments (each once), each contour a chain
// joined at edges with exactly two contributing triangles, maximal, and as many contours as
// the oracle's components. With `oriented`, every segment must run in its own direction.
void check_section(const TriangleSoup& soup, const Plane& plane, const Section& section,
                   bool oriented) {
  const std::vector<ExactSegment> expected = oracle::exact_segments(soup, plane);
  const auto uses = oracle::edge_uses(expected);
  std::map<TriangleId, const ExactSegment*> by_triangle;
  for (const ExactSegment& segment : expected) by_triangle[segment.triangle] = &segment;
  const float scale = largest_coordinate(soup);

  std::vector<TriangleId> seen;
  TriangleId previous_smallest = 0;
  for (std::size_t c = 0; c < section.contours.size(); ++c) {
    const Contour& contour = section.contours[c];
    const std::size_t n = contour.triangles.size();
    REQUIRE(n > 0);
    REQUIRE(contour.points.size() == (contour.closed ? n : n + 1));
    const TriangleId smallest =
        *std::min_element(contour.triangles.begin(), contour.triangles.end());
    if (c > 0) CHECK(smallest > previous_smallest);  // contours by their smallest id
    previous_smallest = smallest;
    if (contour.closed) CHECK(contour.triangles[0] == smallest);
    std::array<float, 6> first_entry{}, exit{};
    double length = 0;
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(by_triangle.count(contour.triangles[i]) == 1);
      const ExactSegment& segment = *by_triangle[contour.triangles[i]];
      seen.push_back(segment.triangle);
      const Vec3 a = contour.points[i], b = contour.points[(i + 1) % contour.points.size()];
      const bool forward = close_to(a, segment.from, scale) && close_to(b, segment.to, scale);
      const bool backward = close_to(a, segment.to, scale) && close_to(b, segment.from, scale);
      CHECK((forward || (!oriented && backward)));
      const auto entry = oracle::edge_key(forward ? segment.from_edge : segment.to_edge);
      if (i == 0)
        first_entry = entry;
      else
        CHECK((entry == exit && uses.at(entry) == 2));  // joined to the previous segment
      exit = oracle::edge_key(forward ? segment.to_edge : segment.from_edge);
      length += glm::length(glm::dvec3(b) - glm::dvec3(a));
    }
    if (contour.closed) {
      CHECK((exit == first_entry && uses.at(exit) == 2));
    } else {  // maximal: both ends at edges that do not join
      CHECK(uses.at(first_entry) != 2);
      CHECK(uses.at(exit) != 2);
      CHECK(contour.area == 0);
    }
    CHECK(contour.length == Approx(length).epsilon(1e-12));
  }
  std::sort(seen.begin(), seen.end());
  std::vector<TriangleId> expected_ids;
  for (const ExactSegment& segment : expected) expected_ids.push_back(segment.triangle);
  CHECK(seen == expected_ids);
  CHECK(section.contours.size() == oracle::contour_count(expected));
}

TEST_CASE("slice: a cube cut through its middle, top and bottom faces") {
  const IndexedMesh cube = box(1, 1, 1);
  const Vec3 up(0, 0, 1);
  const float offsets[] = {0.5f, 1.0f, 0.0f, 0.25f, 0.5f};
  const std::vector<Section> sections = slice(cube.soup(), up, offsets);
  REQUIRE(sections.size() == 5);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(sections[i].d == offsets[i]);
    check_section(cube.soup(), Plane{up, offsets[i]}, sections[i], true);
  }
  for (std::size_t i : {0u, 1u, 3u, 4u}) {  // the middle and the top face give the square
    REQUIRE(sections[i].contours.size() == 1);
    const Contour& square = sections[i].contours[0];
    CHECK(square.closed);
    CHECK(square.area == 1.0);  // counter-clockwise seen from +z
    CHECK(square.length == 4.0);
    for (const Vec3& point : square.points) CHECK(point.z == offsets[i]);
  }
  CHECK(sections[2].contours.empty());  // the bottom face: the section just below it
  CHECK(sections[4].contours[0].points == sections[0].contours[0].points);  // repeats

  // Seen from below, the same square is counter-clockwise again.
  const Section below = slice(cube.soup(), Plane{Vec3(0, 0, -2), -1.0f});
  REQUIRE(below.contours.size() == 1);
  CHECK(below.contours[0].area == 1.0);
  check_section(cube.soup(), Plane{Vec3(0, 0, -2), -1.0f}, below, true);
}

TEST_CASE("slice: an inside-out cube gives a clockwise square") {
  IndexedMesh cube = box(2, 3, 1);
  for (std::size_t t = 0; t < 12; ++t) cube.flip(t);
  const Section section = slice(cube.soup(), Plane{Vec3(0, 0, 1), 0.5f});
  REQUIRE(section.contours.size() == 1);
  CHECK(section.contours[0].area == -6.0);
  check_section(cube.soup(), Plane{Vec3(0, 0, 1), 0.5f}, section, true);
}

TEST_CASE("slice: a torus through its hole gives two loops of opposite orientation") {
  const IndexedMesh ring = torus(2.0f, 0.5f, 64, 32);
  for (float z : {0.0f, 0.1f, -0.3f}) {
    const Plane plane{Vec3(0, 0, 1), z};
    const Section section = slice(ring.soup(), plane);
    check_section(ring.soup(), plane, section, true);
    REQUIRE(section.contours.size() == 2);
    const double half = std::sqrt(0.25 - double(z) * double(z));
    const double outer = std::numbers::pi * (2 + half) * (2 + half);
    const double inner = std::numbers::pi * (2 - half) * (2 - half);
    double positive = 0, negative = 0;
    for (const Contour& contour : section.contours) {
      CHECK(contour.closed);
      (contour.area > 0 ? positive : negative) = contour.area;
    }
    CHECK(positive == Approx(outer).epsilon(0.02));
    CHECK(negative == Approx(-inner).epsilon(0.02));
  }
}

TEST_CASE("slice: an STL soup chains exactly like its indexed mesh") {
  const IndexedMesh ring = torus(3.0f, 1.0f, 40, 24);
  const std::vector<Vec3> soup = ring.unindexed();
  const Vec3 normal(0.3f, -0.2f, 1.0f);
  const std::vector<float> offsets = layer_offsets(extent_along(ring.soup(), normal), 9);
  const std::vector<Section> indexed = slice(ring.soup(), normal, offsets);
  const std::vector<Section> plain = slice(TriangleSoup{soup}, normal, offsets);
  REQUIRE(indexed.size() == plain.size());
  for (std::size_t i = 0; i < indexed.size(); ++i) {
    REQUIRE(indexed[i].contours.size() == plain[i].contours.size());
    for (std::size_t c = 0; c < indexed[i].contours.size(); ++c) {
      CHECK(indexed[i].contours[c].points == plain[i].contours[c].points);
      CHECK(indexed[i].contours[c].triangles == plain[i].contours[c].triangles);
      CHECK(indexed[i].contours[c].closed);
    }
    check_section(TriangleSoup{soup}, Plane{normal, offsets[i]}, plain[i], true);
  }
}

TEST_CASE("slice: -0 and 0 are one coordinate when chaining a soup") {
  const IndexedMesh cube = box(1, 1, 1);
  std::vector<Vec3> soup = cube.unindexed();
  for (std::size_t corner = 0; corner < soup.size(); corner += 2)
    for (int axis = 0; axis < 3; ++axis)
      if (soup[corner][axis] == 0) soup[corner][axis] = -0.0f;
  for (const Vec3& normal : {Vec3(0, 0, 1), Vec3(0.25f, 0.5f, 1)}) {
    const Plane plane{normal, 0.75f};
    const Section section = slice(TriangleSoup{soup}, plane);
    REQUIRE(section.contours.size() == 1);
    CHECK(section.contours[0].closed);
    CHECK(section.contours[0].points == slice(cube.soup(), plane).contours[0].points);
    check_section(TriangleSoup{soup}, plane, section, true);
  }
}

TEST_CASE("slice: open, non-manifold and flipped meshes") {
  const Plane middle{Vec3(0, 0, 1), 0.5f};
  SECTION("a cube without one side face gives one open contour") {
    IndexedMesh cube = box(1, 1, 1);
    cube.indices.erase(cube.indices.begin() + 12, cube.indices.begin() + 18);  // the y = 0 face
    const Section section = slice(cube.soup(), middle);
    check_section(cube.soup(), middle, section, true);
    REQUIRE(section.contours.size() == 1);
    CHECK_FALSE(section.contours[0].closed);
    CHECK(section.contours[0].points.size() == 7);
    CHECK(section.contours[0].length == 3.0);
  }
  SECTION("a fin on a cube edge stops the chains there") {
    IndexedMesh cube = box(1, 1, 1);
    cube.positions.push_back({2, -1, 0.5f});
    cube.indices.insert(cube.indices.end(), {1, 5, 8});  // a third triangle on the edge 1-5
    const Section section = slice(cube.soup(), middle);
    check_section(cube.soup(), middle, section, false);
    for (const Contour& contour : section.contours) CHECK_FALSE(contour.closed);
  }
  SECTION("a flipped triangle keeps the contour closed") {
    IndexedMesh cube = box(1, 1, 1);
    cube.flip(6);
    const Section section = slice(cube.soup(), middle);
    check_section(cube.soup(), middle, section, false);
    REQUIRE(section.contours.size() == 1);
    CHECK(section.contours[0].closed);
  }
  SECTION("triangles with a repeated vertex contribute nothing") {
    IndexedMesh cube = box(1, 1, 1);
    cube.indices.insert(cube.indices.end(), {0, 0, 6});
    const Section section = slice(cube.soup(), middle);
    check_section(cube.soup(), middle, section, true);
    REQUIRE(section.contours.size() == 1);
    CHECK(section.contours[0].closed);
  }
}

TEST_CASE("slice: lattice soups with planes through vertices agree with the exact oracle") {
  std::mt19937_64 random(11);
  for (int round = 0; round < 40; ++round) {
    const testing::Scene scene = testing::lattice_soup(150, 100 + std::uint64_t(round));
    std::uniform_int_distribution<int> small(-2, 2), offset(-8, 8);
    Vec3 normal(float(small(random)), float(small(random)), float(small(random)));
    if (normal == Vec3(0.0f)) normal.z = 1;
    const float offsets[] = {float(offset(random)), float(offset(random)) + 0.5f};
    const std::vector<Section> sections = slice(scene.soup(), normal, offsets);
    for (std::size_t i = 0; i < 2; ++i)
      check_section(scene.soup(), Plane{normal, offsets[i]}, sections[i], false);
  }
}

TEST_CASE("slice: edges nearly parallel to the plane, far from the origin and tiny") {
  for (const testing::Scene& scene :
       {testing::transformed(testing::noisy_sphere(24, 48, 3), 1.0f, Vec3(1e6f, -1e6f, 3e5f),
                             "far"),
        testing::transformed(testing::noisy_sphere(24, 48, 4), 1e-6f, Vec3(0), "tiny"),
        testing::needles(300, 5)}) {
    const Vec3 normal(1e-4f, 2e-4f, 1.0f);
    const std::vector<float> offsets = layer_offsets(extent_along(scene.soup(), normal), 7);
    const std::vector<Section> sections = slice(scene.soup(), normal, offsets);
    for (std::size_t i = 0; i < offsets.size(); ++i)
      check_section(scene.soup(), Plane{normal, offsets[i]}, sections[i], false);
  }
  // An edge rising by 2^-20 over a length of 1e6: the naive formula in float loses the point.
  const std::vector<Vec3> sliver{{0, 0, 0}, {1e6f, 0, 0x1p-20f}, {0, 1, -1}};
  const Plane plane{Vec3(0, 0, 1), 0x1p-21f};
  const Section section = slice(TriangleSoup{sliver}, plane);
  check_section(TriangleSoup{sliver}, plane, section, true);
}

TEST_CASE("slice: identical for any thread count and through the BVH") {
  const testing::Scene scene = testing::noisy_sphere(60, 120, 9);
  const Vec3 normal(0.2f, 1.0f, -0.4f);
  const std::vector<float> offsets = layer_offsets(extent_along(scene.soup(), normal), 25);
  const Bvh bvh = build(scene.soup());
  const auto run = [&](int threads, const Bvh* with) {
    SliceOptions options;
    options.threads = threads;
    options.bvh = with;
    options.bvh_plane_limit = 100;
    SliceStats stats;
    std::vector<Section> sections = slice(scene.soup(), normal, offsets, options, &stats);
    CHECK(stats.path == (with != nullptr ? SlicePath::bvh : SlicePath::sweep));
    CHECK(stats.contours > 0);
    return sections;
  };
  const std::vector<Section> reference = run(1, nullptr);
  for (const auto& other : {run(2, nullptr), run(8, nullptr), run(1, &bvh), run(2, &bvh)}) {
    REQUIRE(other.size() == reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i) {
      REQUIRE(other[i].contours.size() == reference[i].contours.size());
      for (std::size_t c = 0; c < reference[i].contours.size(); ++c) {
        CHECK(other[i].contours[c].points == reference[i].contours[c].points);
        CHECK(other[i].contours[c].triangles == reference[i].contours[c].triangles);
        CHECK(other[i].contours[c].area == reference[i].contours[c].area);
      }
    }
  }
  for (std::size_t i = 0; i < offsets.size(); i += 6)
    check_section(scene.soup(), Plane{normal, offsets[i]}, reference[i], true);
}

// The sections of `soup` by normal·x = d for each of `offsets`, through the BVH (few planes).
std::vector<Section> slice_through_bvh(const TriangleSoup& soup, const Vec3& normal,
                                       std::span<const float> offsets) {
  const Bvh bvh = build(soup);
  SliceOptions options;
  options.bvh = &bvh;
  options.bvh_plane_limit = offsets.size();
  SliceStats stats;
  std::vector<Section> sections = slice(soup, normal, offsets, options, &stats);
  CHECK(stats.path == SlicePath::bvh);
  return sections;
}

TEST_CASE("slice through the BVH: vertices on axis planes count as above") {
  // The BVH path decides every vertex's side itself (the sweep's vertex pass never leaves an
  // axis plane undecided): a vertex on the plane is above, so the top face gives the square
  // and the bottom face nothing.
  const IndexedMesh cube = box(1, 2, 3);
  for (int axis = 0; axis < 3; ++axis) {
    for (const float sign : {1.0f, -2.0f}) {
      Vec3 normal(0.0f);
      normal[axis] = sign;
      const float top = sign * cube.positions[6][axis];
      const float offsets[] = {top, 0.0f, top / 2};
      const std::vector<Section> sections = slice_through_bvh(cube.soup(), normal, offsets);
      for (std::size_t i = 0; i < 3; ++i)
        check_section(cube.soup(), Plane{normal, offsets[i]}, sections[i], true);
      // Seen along a positive normal the top face is at the largest offset; along a negative
      // one the faces swap roles.
      CHECK(sections[0].contours.size() == (sign > 0 ? 1u : 0u));
      CHECK(sections[1].contours.size() == (sign > 0 ? 0u : 1u));
      CHECK(sections[2].contours.size() == 1u);
    }
  }
  std::mt19937_64 random(12);
  for (int round = 0; round < 20; ++round) {
    const testing::Scene scene = testing::lattice_soup(150, 200 + std::uint64_t(round));
    Vec3 normal(0.0f);
    normal[round % 3] = round % 2 == 0 ? 1.0f : -0.5f;
    std::uniform_int_distribution<int> offset(-4, 4);
    const float offsets[] = {float(offset(random)), float(offset(random)) * 0.5f};
    const std::vector<Section> sections = slice_through_bvh(scene.soup(), normal, offsets);
    for (std::size_t i = 0; i < 2; ++i)
      check_section(scene.soup(), Plane{normal, offsets[i]}, sections[i], false);
  }
}

TEST_CASE("slice through the BVH: vertices within rounding of an oblique plane") {
  // n·v for v = (X, y, -X) with |y| below half an ulp of X: in double, X + y rounds to X and
  // the sum comes out 0, while the exact value is y. With d = 0 a vertex with y < 0 is below
  // (double: on the plane, above); with d = y / 2 > 0 a vertex with y > 0 is above (double:
  // below). Each such vertex is the apex of two triangles sharing an edge with it, the other
  // vertices clearly on the other side: the exact sides give a chain of two segments, the
  // rounded ones nothing.
  const Vec3 normal(1.0f, 1.0f, 1.0f);
  for (const float big : {0x1p30f, 0x1p60f, 0x1p100f}) {
    for (const float tiny : {-0x1p-30f, 0x1p-30f, -0x1p-60f, 0x1p-60f}) {
      const float away = tiny < 0 ? 1.0f : -1.0f;  // the other vertices' side
      const std::vector<Vec3> positions{
          {big, tiny, -big}, {away, away, away}, {away, 2 * away, away}, {away, away, 2 * away}};
      const std::vector<std::uint32_t> indices{0, 1, 2, 1, 0, 3};
      const TriangleSoup soup{positions, indices};
      const float offsets[] = {0.0f, tiny / 2};
      INFO("X " << big << ", y " << tiny);
      const std::vector<Section> sections = slice_through_bvh(soup, normal, offsets);
      for (std::size_t i = 0; i < 2; ++i) {
        const Plane plane{normal, offsets[i]};
        check_section(soup, plane, sections[i], true);
        const bool apex_below = tiny < offsets[i];
        if (apex_below == (away < 0)) continue;  // all on one side
        REQUIRE(sections[i].contours.size() == 1u);
        CHECK(sections[i].contours[0].triangles.size() == 2u);
      }
      CHECK(slice(soup, normal, offsets)[0].contours.size() == sections[0].contours.size());
    }
  }
}

TEST_CASE("slice: one plane's triangles are the BVH plane query's contributing ones") {
  const testing::Scene scene = testing::lattice_soup(2000, 21);
  const Bvh bvh = build(scene.soup());
  for (float d : {-3.0f, 0.0f, 0.5f, 2.0f}) {
    const Plane plane{Vec3(1, 1, 0), d};
    std::vector<TriangleId> in_contours;
    for (const Contour& contour : slice(scene.soup(), plane).contours)
      in_contours.insert(in_contours.end(), contour.triangles.begin(), contour.triangles.end());
    std::sort(in_contours.begin(), in_contours.end());
    std::vector<TriangleId> contributing;
    for (const ExactSegment& segment : oracle::exact_segments(scene.soup(), plane))
      contributing.push_back(segment.triangle);
    const std::vector<TriangleId> touching = collect_touching(bvh, plane);
    CHECK(in_contours == contributing);
    CHECK(
        std::includes(touching.begin(), touching.end(), contributing.begin(), contributing.end()));
  }
}

TEST_CASE("slice: closed shared meshes give closed contours, also through vertices") {
  for (const testing::Scene& mesh : testing::shared_mesh_scenes()) {
    const bool closed_mesh = mesh.name == "spot" || mesh.name == "cow" || mesh.name == "fandisk";
    for (const Vec3& normal : {Vec3(0, 0, 1), Vec3(0.3f, 0.8f, -0.2f)}) {
      std::vector<float> offsets = layer_offsets(extent_along(mesh.soup(), normal), 16);
      for (std::size_t t = 0; t < mesh.size(); t += mesh.size() / 8)  // vertex heights
        offsets.push_back(mesh.soup().triangle(t).a.z);
      const std::vector<Section> sections = slice(mesh.soup(), normal, offsets);
      std::size_t open = 0;
      for (const Section& section : sections)
        for (const Contour& contour : section.contours) open += contour.closed ? 0u : 1u;
      INFO(mesh.name);
      if (closed_mesh) CHECK(open == 0);
      // Every fifth section against the exact oracle; every fifteenth in the sanitizer run.
      const std::size_t stride = testing::reduced_run() ? 15 : 5;
      for (std::size_t i = 0; i < sections.size(); i += stride)
        check_section(mesh.soup(), Plane{normal, offsets[i]}, sections[i], false);
    }
  }
}

TEST_CASE("slice: invalid input is refused with a message") {
  const IndexedMesh cube = box(1, 1, 1);
  const float good[] = {0.5f};
  const float nan[] = {std::nanf("")};
  const float inf[] = {std::numeric_limits<float>::infinity()};
  CHECK_THROWS_WITH(slice(cube.soup(), Vec3(0), good), Catch::Contains("normal is zero"));
  CHECK_THROWS_WITH(slice(cube.soup(), Vec3(0, std::nanf(""), 1), good),
                    Catch::Contains("normal is not finite"));
  CHECK_THROWS_WITH(slice(cube.soup(), Vec3(0, 0, 1), nan), Catch::Contains("offset 0"));
  CHECK_THROWS_AS(slice(cube.soup(), Vec3(0, 0, 1), inf), InvalidInput);
  CHECK_THROWS_AS(step_offsets(Extent{0, 1}, 0.0f), InvalidInput);
  CHECK_THROWS_AS(step_offsets(Extent{0, 1}, 1e-9f, 1000), InvalidInput);
  CHECK(slice(TriangleSoup{}, Vec3(0, 0, 1), good).at(0).contours.empty());
  CHECK(slice(cube.soup(), Vec3(0, 0, 1), std::span<const float>{}).empty());
}

TEST_CASE("slice: an invalid soup is refused as validate refuses it, before other problems") {
  const float good[] = {0.5f};
  const auto message_of = [](const auto& call) -> std::string {
    try {
      call();
    } catch (const InvalidInput& error) {
      return error.what();
    }
    return "no error";
  };
  IndexedMesh nan_vertex = box(1, 1, 1), bad_index = box(1, 1, 1), short_indices = box(1, 1, 1);
  nan_vertex.positions[5].y = std::nanf("");
  bad_index.indices[7] = 1000;
  short_indices.indices.pop_back();
  for (const IndexedMesh* mesh : {&nan_vertex, &bad_index, &short_indices}) {
    const TriangleSoup soup = mesh->soup();
    const std::string expected = message_of([&] { validate(soup); });
    CHECK(expected != "no error");
    CHECK(message_of([&] { (void)slice(soup, Vec3(0, 0, 1), good); }) == expected);
    CHECK(message_of([&] { (void)slice(soup, Vec3(0.3f, 0.5f, 0.8f), good); }) == expected);
    CHECK(message_of([&] { (void)slice(soup, Vec3(0), good); }) == expected);
    CHECK(message_of([&] { (void)slice(soup, Vec3(0, 0, 1), std::span<const float>{}); }) ==
          expected);
  }
  const std::vector<Vec3> stl_nan{{0, 0, 0}, {1, 0, 1}, {0, 1, INFINITY}};
  CHECK_THROWS_WITH(slice(TriangleSoup{stl_nan}, Vec3(0, 0, 1), good),
                    Catch::Contains("triangle 0"));
}

TEST_CASE("slice: layer and step offsets sit at layer centres inside the extent") {
  CHECK(layer_offsets(Extent{0, 1}, 4) == std::vector<float>{0.125f, 0.375f, 0.625f, 0.875f});
  CHECK(step_offsets(Extent{0, 1}, 0.25f) == std::vector<float>{0.125f, 0.375f, 0.625f, 0.875f});
  const double step = 0.3f;  // the float step, as the offsets use it
  CHECK(step_offsets(Extent{0, 1}, 0.3f) ==
        std::vector<float>{float(0.5 * step), float(1.5 * step), float(2.5 * step)});
  CHECK(step_offsets(Extent{2, 2}, 1.0f) == std::vector<float>{2.0f});
  const IndexedMesh cube = box(1, 2, 4);
  const Extent along_z = extent_along(cube.soup(), Vec3(0, 0, 2));
  CHECK(along_z.low == 0);
  CHECK(along_z.high == 8);
}

}  // namespace
}  // namespace trisect
