#pragma once
/// \file
/// Random wide nodes of a built BVH and random used children of them, for tests of the node
/// masks against the exact tests of the decoded child boxes.

#include <trisect/bvh/bvh.hpp>

#include <bit>
#include <cstddef>
#include <random>

namespace trisect::testing {

/// Picks wide nodes of a non-empty BVH, and used lanes of a node, uniformly.
class NodePicker {
 public:
  explicit NodePicker(const Bvh& bvh) : bvh_(bvh), pick_node_(0, bvh.wide.size() - 1) {}

  /// A wide node of the BVH.
  [[nodiscard]] const WideNode& node(std::mt19937_64& random) {
    return bvh_.wide[pick_node_(random)];
  }

  /// The number of used lanes of `node`: they are lanes 0 to that number - 1.
  [[nodiscard]] static int used_lanes(const WideNode& node) {
    return std::popcount(unsigned{node.used_mask()});
  }

  /// A used lane of `node`.
  [[nodiscard]] static int used_lane(const WideNode& node, std::mt19937_64& random) {
    return std::uniform_int_distribution<int>(0, used_lanes(node) - 1)(random);
  }

 private:
  const Bvh& bvh_;
  std::uniform_int_distribution<std::size_t> pick_node_;
};

}  // namespace trisect::testing
