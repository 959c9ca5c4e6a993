#pragma once
/// \file
/// Whether two trees are the same, bit for bit: for refit and file round trips.

#include <trisect/bvh/bvh.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>

namespace trisect::testing {

/// Two wide nodes equal bit for bit, but for the sign of a zero grid origin: a box's lowest face
/// may be 0 from one triangle and -0 from another, and which one a minimum keeps depends on the
/// order of the operands.
inline bool same_node(const WideNode& a, const WideNode& b) {
  constexpr std::size_t after_origin = offsetof(WideNode, exponent);
  return a.origin[0] == b.origin[0] && a.origin[1] == b.origin[1] && a.origin[2] == b.origin[2] &&
         std::memcmp(reinterpret_cast<const char*>(&a) + after_origin,
                     reinterpret_cast<const char*>(&b) + after_origin,
                     sizeof(WideNode) - after_origin) == 0;
}

/// Two ray nodes with equal boxes (as floats: a decoded face may be 0 in one and -0 in the
/// other, as `same_node` allows) and the same references.
inline bool same_ray_node(const RayNode& a, const RayNode& b) {
  for (int row = 0; row < 6; ++row)
    for (int lane = 0; lane < RayNode::width; ++lane)
      if (!(a.bounds[row][lane] == b.bounds[row][lane])) return false;
  return std::equal(std::begin(a.ref), std::end(a.ref), std::begin(b.ref));
}

/// Every array of `a` and `b` equal, bit for bit (the nodes as `same_node` and
/// `same_ray_node` say).
inline bool same_tree(const Bvh& a, const Bvh& b) {
  const auto same = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.bytes()) == 0;
  };
  return a.root_bounds == b.root_bounds && a.wide.size() == b.wide.size() &&
         std::equal(a.wide.begin(), a.wide.end(), b.wide.begin(), same_node) &&
         a.ray_nodes.size() == b.ray_nodes.size() &&
         std::equal(a.ray_nodes.begin(), a.ray_nodes.end(), b.ray_nodes.begin(), same_ray_node) &&
         same(a.ids, b.ids) &&
         same(a.triangles.coordinate_array(), b.triangles.coordinate_array()) &&
         same(a.triangles.leaf_start_array(), b.triangles.leaf_start_array());
}

}  // namespace trisect::testing
