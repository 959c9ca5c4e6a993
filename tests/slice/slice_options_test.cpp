// SliceOptions::threads is checked (issue 22 item 3: 65537 crashed inside TBB) and the offsets
// of --layers and --step are computed without overflow (item 6).
#include <trisect/math/validate.hpp>
#include <trisect/slice/slice.hpp>

#include <catch2/catch.hpp>

#include <cfloat>
#include <vector>

namespace trisect {
namespace {

// A tetrahedron with every face cut by z = 0.5.
const std::vector<Vec3> tetrahedron{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0},
                                    {0, 1, 0}, {0, 0, 1}, {0, 0, 0}, {0, 0, 1},
                                    {1, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}};

TEST_CASE("slice takes 0 to max_slice_threads threads, the same answer for each", "[slice]") {
  const TriangleSoup soup{tetrahedron};
  const std::vector<float> offsets{0.5f, 0.25f};
  const std::vector<Section> reference = slice(soup, Vec3(0, 0, 1), offsets);
  REQUIRE(reference.size() == 2);
  REQUIRE(reference[0].contours.size() == 1);
  for (const int threads : {1, 2, 3, 64, max_slice_threads}) {
    SliceOptions options;
    options.threads = threads;
    const std::vector<Section> sections = slice(soup, Vec3(0, 0, 1), offsets, options);
    REQUIRE(sections.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      REQUIRE(sections[i].contours.size() == reference[i].contours.size());
      CHECK(sections[i].contours[0].points == reference[i].contours[0].points);
      CHECK(sections[i].contours[0].triangles == reference[i].contours[0].triangles);
    }
  }
  for (const int threads : {-1, max_slice_threads + 1, 65537, 1 << 30}) {
    SliceOptions options;
    options.threads = threads;
    CHECK_THROWS_AS(slice(soup, Vec3(0, 0, 1), offsets, options), InvalidInput);
  }
}

TEST_CASE("a step longer than the extent gives one plane at its centre, inside it", "[slice]") {
  CHECK(step_offsets(Extent{0, 1}, 5.0f) == std::vector<float>{0.5f});
  CHECK(step_offsets(Extent{0, 1}, 2.0f) == std::vector<float>{0.5f});
  CHECK(step_offsets(Extent{0, 1}, 1.5f) == std::vector<float>{0.75f});
  CHECK(step_offsets(Extent{-4, 2}, 100.0f) == std::vector<float>{-1.0f});
  CHECK(step_offsets(Extent{3, 3}, 1.0f) == std::vector<float>{3.0f});
}

TEST_CASE("an extent beyond the float range gives offsets clamped to -+FLT_MAX", "[slice]") {
  const std::vector<Vec3> huge{
      {-FLT_MAX, -FLT_MAX, -FLT_MAX}, {FLT_MAX, FLT_MAX, FLT_MAX}, {FLT_MAX, -FLT_MAX, 0}};
  const Extent extent = extent_along(TriangleSoup{huge}, Vec3(1, 1, 1));
  CHECK(extent.low == -3.0 * double(FLT_MAX));
  CHECK(extent.high == 3.0 * double(FLT_MAX));
  CHECK(layer_offsets(extent, 1) == std::vector<float>{0.0f});
  CHECK(layer_offsets(extent, 3) == std::vector<float>{-FLT_MAX, 0.0f, FLT_MAX});
  // Centres at -2.5, -1.5, -0.5, 0.5, 1.5 and 2.5 FLT_MAX.
  CHECK(step_offsets(extent, FLT_MAX) ==
        std::vector<float>{-FLT_MAX, -FLT_MAX, -FLT_MAX / 2, FLT_MAX / 2, FLT_MAX, FLT_MAX});
}

}  // namespace
}  // namespace trisect
