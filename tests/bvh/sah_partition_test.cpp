// White-box tests of the SAH builder's cuts (src/bvh/sah_partition.hpp): the cut in parallel
// blocks puts every reference on the side the serial cut puts it, with the same bounds, and a
// cut that bins its halves as it makes them bins them as binning the halves afterwards does.
#include "bvh/sah_partition.hpp"
#include "bvh/sah_binning.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

using detail::BinMapping;
using detail::Binning;
using detail::Reference;
using detail::Split;

// `count` references with random boxes, a tenth of them repeating an earlier centroid exactly
// (ties at bin boundaries and between blocks).
std::vector<Reference> random_references(std::size_t count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> position(-100.0f, 100.0f), size(0.0f, 2.0f);
  std::vector<Reference> references;
  references.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Aabb box;
    if (i > 0 && random() % 10 == 0) {
      box = references[random() % i].box().to_aabb();
    } else {
      const Vec3 low{position(random), position(random), position(random)};
      box = {low, low + Vec3{size(random), size(random), size(random)}};
    }
    references.push_back(Reference::of(box, static_cast<TriangleId>(i)));
  }
  return references;
}

// The ids of references [begin, end), sorted.
std::vector<TriangleId> ids(const std::vector<Reference>& references, std::size_t begin,
                            std::size_t end) {
  std::vector<TriangleId> result;
  for (std::size_t i = begin; i < end; ++i) result.push_back(references[i].id());
  std::sort(result.begin(), result.end());
  return result;
}

bool same_box(const detail::Box4& a, const detail::Box4& b) {
  const Aabb x = a.to_aabb(), y = b.to_aabb();
  return x.min == y.min && x.max == y.max;
}

bool same_bounds(const detail::RangeBounds& a, const detail::RangeBounds& b) {
  return same_box(a.bounds, b.bounds) && same_box(a.centroids, b.centroids);
}

bool same_binning(const Binning& a, const Binning& b) {
  if (a.bin_count != b.bin_count) return false;
  for (int axis = 0; axis < 3; ++axis)
    for (std::uint32_t i = 0; i < a.bin_count; ++i) {
      if (a.counts[axis][i] != b.counts[axis][i]) return false;
      if (a.counts[axis][i] != 0 && !same_box(a.boxes[axis][i], b.boxes[axis][i])) return false;
    }
  return true;
}

// The mapping and best split of all of `references`, binned without sampling.
std::pair<BinMapping, Split> best_split_of(const std::vector<Reference>& references,
                                           std::uint32_t bins) {
  const detail::RangeBounds range = detail::bounds_of(references.data(), 0, references.size());
  const BinMapping mapping(range.centroids, bins);
  Binning binning(bins);
  detail::binning::bin_into(references.data(), 0, references.size(), mapping, binning);
  return {mapping, detail::best_split(binning, mapping)};
}

TEST_CASE("a cut in parallel blocks sides every reference as the serial cut does", "[bvh][sah]") {
  for (const std::size_t count : {std::size_t{70'000}, std::size_t{200'003}}) {
    INFO(count);
    const std::vector<Reference> references = random_references(count, 7);
    const auto [mapping, split] = best_split_of(references, 16);
    REQUIRE(split.axis >= 0);
    std::vector<Reference> serial = references, blocked = references;
    const detail::Partition expected = detail::partition(serial.data(), 0, count, mapping, split);
    const detail::Partition got = detail::cut(blocked.data(), 0, count, mapping, split);
    REQUIRE(got.middle == expected.middle);
    REQUIRE(expected.middle - 0 == split.left_count);
    CHECK(ids(blocked, 0, got.middle) == ids(serial, 0, expected.middle));
    CHECK(ids(blocked, got.middle, count) == ids(serial, expected.middle, count));
    CHECK(same_bounds(got.left, expected.left));
    CHECK(same_bounds(got.right, expected.right));
    for (std::size_t i = 0; i < count; ++i)
      REQUIRE((mapping.bin(blocked[i], split.axis) <= split.last_left_bin) == (i < got.middle));
  }
}

TEST_CASE("a cut that bins its halves bins them as binning them afterwards does", "[bvh][sah]") {
  for (const std::size_t count : {std::size_t{5'000}, std::size_t{100'000}}) {
    INFO(count);
    std::vector<Reference> references = random_references(count, 11);
    const auto [mapping, split] = best_split_of(references, 16);
    REQUIRE(split.axis >= 0);
    const detail::RangeBounds range = detail::bounds_of(references.data(), 0, count);
    const detail::BinnedCut binned =
        detail::cut_and_bin(references.data(), 0, count, range.centroids, mapping, split, 16);
    REQUIRE(binned.cut.middle == split.left_count);
    Binning left(16), right(16);
    detail::binning::bin_into(references.data(), 0, binned.cut.middle, binned.left_mapping, left);
    detail::binning::bin_into(references.data(), binned.cut.middle, count, binned.right_mapping,
                              right);
    CHECK(same_binning(*binned.left_bins, left));
    CHECK(same_binning(*binned.right_bins, right));
    // The side mappings cut the range's centroid bounds at the split's bin boundary: every
    // side's centroids but those the rounding puts past it lie inside, and the two meet there.
    const Vec3 left_high =
        to_vec3(binned.left_mapping.origin) + Vec3{16.0f / binned.left_mapping.scale_by_axis[0],
                                                   16.0f / binned.left_mapping.scale_by_axis[1],
                                                   16.0f / binned.left_mapping.scale_by_axis[2]};
    CHECK(binned.right_mapping.origin_by_axis[split.axis] ==
          Approx(left_high[split.axis]).epsilon(1e-5));
    CHECK(same_bounds(binned.cut.left, detail::bounds_of(references.data(), 0, binned.cut.middle)));
  }
}

}  // namespace
}  // namespace trisect::testing
