// sort_ids against std::sort: sizes on both sides of the radix threshold, id bounds needing
// one to four digit passes, duplicates, and already sorted or reversed input.
#include <trisect/bvh/detail/sort_ids.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

TEST_CASE("sort_ids sorts like std::sort for every size and id bound", "[bvh][sort]") {
  std::mt19937_64 random(3);
  for (const std::uint64_t bound :
       {1ull, 2ull, 255ull, 256ull, 257ull, 70000ull, 1ull << 21, (1ull << 24) + 1, 1ull << 32}) {
    for (const std::size_t size : {0u, 1u, 2u, 95u, 96u, 97u, 500u, 4096u, 100000u}) {
      INFO("bound " << bound << ", size " << size);
      std::uniform_int_distribution<std::uint64_t> pick(0, bound - 1);
      std::vector<TriangleId> ids(size);
      for (TriangleId& id : ids) id = static_cast<TriangleId>(pick(random));
      if (size > 10) ids[size / 2] = ids[size / 3];  // a duplicate
      for (int order = 0; order < 3; ++order) {
        std::vector<TriangleId> expected = ids;
        std::sort(expected.begin(), expected.end());
        if (order == 1) ids = expected;
        if (order == 2) std::reverse(ids.begin(), ids.end());
        std::vector<TriangleId> sorted = ids;
        detail::sort_ids(sorted, static_cast<std::size_t>(bound));
        CHECK(sorted == expected);
      }
    }
  }
}

}  // namespace
}  // namespace trisect::testing
