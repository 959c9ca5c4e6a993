// White-box tests of the SAH builder's cut in parallel blocks (src/bvh/sah_partition.hpp): it
// puts every reference on the side the serial cut puts it, with the same bounds, and leaves
// the references in the same order for any thread count.
#include "bvh/sah_partition.hpp"
#include "bvh/sah_binning.hpp"

#include <tbb/global_control.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

using detail::BinMapping;
using detail::Reference;
using detail::Split;

// `count` references with random boxes, a tenth of them repeating an earlier box exactly (ties
// at bin boundaries and between blocks).
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
std::vector<TriangleId> sorted_ids(const std::vector<Reference>& references, std::size_t begin,
                                   std::size_t end) {
  std::vector<TriangleId> result;
  for (std::size_t i = begin; i < end; ++i) result.push_back(references[i].id());
  std::sort(result.begin(), result.end());
  return result;
}

std::vector<TriangleId> ids_in_order(const std::vector<Reference>& references) {
  std::vector<TriangleId> result;
  for (const Reference& reference : references) result.push_back(reference.id());
  return result;
}

bool same_box(const detail::Box4& a, const detail::Box4& b) {
  const Aabb x = a.to_aabb(), y = b.to_aabb();
  return x.min == y.min && x.max == y.max;
}

bool same_bounds(const detail::RangeBounds& a, const detail::RangeBounds& b) {
  return same_box(a.bounds, b.bounds) && same_box(a.centroids, b.centroids);
}

TEST_CASE("a cut in parallel blocks sides every reference as the serial cut does", "[bvh][sah]") {
  // Below the threshold (serial), exactly whole blocks, a ragged last block; the split's left
  // side small, about half, and everything but a few references.
  for (const std::size_t count :
       {std::size_t{1'000}, detail::parallel_partition_threshold, std::size_t{200'003}}) {
    const std::vector<Reference> references = random_references(count, 7);
    const detail::RangeBounds range = detail::bounds_of(references.data(), 0, count);
    const BinMapping mapping(range.centroids, 16);
    for (const std::uint32_t last_left_bin : {0u, 7u, 14u}) {
      INFO(count << " references, left bins 0.." << last_left_bin);
      const Split split{0, last_left_bin, 0, 0, 0, 0};
      std::vector<Reference> serial = references, blocked = references;
      const detail::Partition expected = detail::partition(serial.data(), 0, count, mapping, split);
      const detail::Partition got = detail::cut(blocked.data(), 0, count, mapping, split);
      REQUIRE(got.middle == expected.middle);
      CHECK(sorted_ids(blocked, 0, got.middle) == sorted_ids(serial, 0, expected.middle));
      CHECK(sorted_ids(blocked, got.middle, count) == sorted_ids(serial, expected.middle, count));
      CHECK(same_bounds(got.left, expected.left));
      CHECK(same_bounds(got.right, expected.right));
      for (std::size_t i = 0; i < count; ++i)
        REQUIRE((mapping.bin(blocked[i], 0) <= last_left_bin) == (i < got.middle));
      // The order is the one thread's, whatever the number of threads.
      std::vector<Reference> one_thread = references;
      {
        const tbb::global_control only_one(tbb::global_control::max_allowed_parallelism, 1);
        detail::cut(one_thread.data(), 0, count, mapping, split);
      }
      CHECK(ids_in_order(one_thread) == ids_in_order(blocked));
    }
  }
}

}  // namespace
}  // namespace trisect::testing
