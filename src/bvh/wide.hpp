#pragma once
// Collapsing a binary BVH into 8-wide nodes.

#include "trisect/bvh/bvh.hpp"

#include <vector>

namespace trisect::detail {

/// The 8-wide form of the binary tree `nodes` (depth-first, as `Bvh::nodes`; not empty):
/// each wide node takes a binary node's two children and keeps opening its largest inner child
/// (by surface area) until it has eight children or only leaves, the greedy collapse of
/// Wald et al. ("Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). Children
/// stay in slot order; wide nodes are stored depth-first. A binary root that is a leaf gives
/// one wide node with that leaf as its only child. Deterministic.
[[nodiscard]] std::vector<WideNode> collapse_to_wide(const std::vector<BvhNode>& nodes);

}  // namespace trisect::detail
