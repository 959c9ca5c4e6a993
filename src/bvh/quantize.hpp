#pragma once
// Writing child boxes onto a wide node's 8-bit grid (see WideNode). Internal to the builders.

#include "trisect/bvh/wide_node.hpp"

namespace trisect::detail {

/// Sets `node`'s origin, exponents, faces and used mask from the child boxes
/// `boxes[0 .. count)` (1 <= count <= 8; finite, non-empty; the other boxes are read but not
/// used, and must be set to finite values), leaving `child` and `first`
/// alone. On each axis the grid starts at the lowest face and takes the smallest step whose
/// 255 steps reach the highest face; each face is then the grid point nearest to it on the
/// outside, checked on the decoded value, so that every decoded box contains its given box
/// however the decode is evaluated (see WideNode). Unused lanes get faces 0.
void quantize_children(WideNode& node, const Aabb (&boxes)[WideNode::width], int count);

}  // namespace trisect::detail
