// White-box tests of the SAH builder's eight-lane binning kernels (src/bvh/sah_binning_lanes.cpp):
// each bins a range exactly as the portable loop does, the same counts and the same boxes,
// for every range length around its steps of eight, ties at bin boundaries, coincident
// centroids and huge and subnormal coordinates.
#include "bvh/sah_binning.hpp"
#include "bvh/instruction_sets.hpp"
#include "bvh/sah_reference.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

using detail::BinMapping;
using detail::Binning;
using detail::Reference;

// `count` references: random boxes, a tenth repeating an earlier box exactly, a tenth with one
// coordinate at ±FLT_MAX or subnormal, ids up to the largest (whose bits are a NaN as a float).
std::vector<Reference> mixed_references(std::size_t count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> position(-100.0f, 100.0f), size(0.0f, 2.0f);
  const float extremes[] = {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(), 0.0f, -0.0f};
  std::vector<Reference> references;
  for (std::size_t i = 0; i < count; ++i) {
    Aabb box;
    const auto kind = random() % 10;
    if (i > 0 && kind == 0) {
      box = references[random() % i].box().to_aabb();
    } else {
      Vec3 low{position(random), position(random), position(random)};
      if (kind == 1) low[static_cast<int>(random() % 3)] = extremes[random() % 5];
      box = {low, low + Vec3{size(random), size(random), size(random)}};
      if (kind == 1) box.max = glm::max(box.max, low);
    }
    const auto id = i % 7 == 3 ? std::numeric_limits<TriangleId>::max() - static_cast<TriangleId>(i)
                               : static_cast<TriangleId>(i);
    references.push_back(Reference::of(box, id));
  }
  return references;
}

bool same_binning(const Binning& a, const Binning& b) {
  if (a.bin_count != b.bin_count) return false;
  for (int axis = 0; axis < 3; ++axis)
    for (std::uint32_t i = 0; i < a.bin_count; ++i) {
      if (a.counts[axis][i] != b.counts[axis][i]) return false;
      const Aabb x = a.boxes[axis][i].to_aabb(), y = b.boxes[axis][i].to_aabb();
      if (!(x.min == y.min && x.max == y.max)) return false;
    }
  return true;
}

TEST_CASE("the eight-lane binning kernels bin as the portable loop does", "[bvh][sah]") {
  if (!detail::lanes_binning_available()) {
    WARN("this processor runs no eight-lane binning kernel; nothing to compare");
    return;
  }
  std::vector<detail::LanesKernel> kernels{detail::LanesKernel::avx2};
  if (detail::processor_has_avx512()) kernels.push_back(detail::LanesKernel::widest);
  const std::vector<Reference> references = mixed_references(3000, 5);
  for (const detail::LanesKernel kernel : kernels)
    for (const std::uint32_t bins : {4u, 17u, 32u, 64u})
      for (const std::size_t begin : {std::size_t{0}, std::size_t{3}})
        for (const std::size_t length : {std::size_t{1}, std::size_t{7}, std::size_t{8},
                                         std::size_t{9}, std::size_t{255}, std::size_t{2993}}) {
          const std::size_t end = begin + length;
          INFO("kernel " << static_cast<int>(kernel) << ", " << bins << " bins, [" << begin << ", "
                         << end << ")");
          // The range's own mapping, and one from a few references only, so that many
          // centroids fall outside it and clamp into the end bins.
          const detail::RangeBounds range = detail::bounds_of(references.data(), begin, end);
          const detail::RangeBounds part = detail::bounds_of(references.data(), begin, begin + 1);
          for (const BinMapping& mapping :
               {BinMapping(range.centroids, bins), BinMapping(part.centroids, bins)}) {
            Binning expected(bins), got(bins);
            for (std::size_t i = begin; i != end; ++i)
              detail::binning::bin_one(references[i], mapping, expected);
            detail::bin_in_lanes(references.data(), begin, end, mapping, got, kernel);
            CHECK(same_binning(got, expected));
          }
        }
}

}  // namespace
}  // namespace trisect::testing
