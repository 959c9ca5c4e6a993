// The leaves as the ray test reads them, made from the leaf storage.
#include "trisect/bvh/ray_leaves.hpp"

#include "default_init_allocator.hpp"
#include "huge_pages.hpp"

#include <vector>

namespace trisect {

RayLeaves RayLeaves::of(const LeafTriangles& triangles) {
  // Not zeroed, and on huge pages before first written: rays read the leaves at random.
  std::vector<float, detail::DefaultInitAllocator<float>> values;
  detail::resize_on_huge_pages(values, EdgeGroup::rows * triangles.size() + EdgeGroup::width - 1);
  std::fill(values.end() - (EdgeGroup::width - 1), values.end(), 0.0f);
  triangles.for_each_leaf_parallel([&](LeafRange leaf) {
    triangles.for_each_group(leaf.begin, leaf.end, [&](std::uint32_t first, TriangleGroup group) {
      float* at = values.data() + EdgeGroup::rows * std::size_t{first};
      for (int lane = 0; lane < group.count; ++lane)
        EdgeGroup::write_lane(at, group.count, lane, group.triangle(lane));
    });
  });
  RayLeaves leaves;
  leaves.size_ = triangles.size();
  leaves.values_ = std::move(values);
  return leaves;
}

}  // namespace trisect
