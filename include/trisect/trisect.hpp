#pragma once
/// \file
/// Umbrella header: the whole public API, layer by layer (math, geometry, mesh, bvh, slice,
/// overlap, broadphase, io): every installed header but those in detail/ folders, which hold
/// what inline templates need and are not API (the package test checks that this list is
/// complete). Everything but io is in the `trisect::trisect` library; the mesh files of io
/// (`load_mesh`, `read_file`) and tree files (`save_bvh`, `load_bvh`) need `trisect::io` linked as
/// well.

#include "trisect/error.hpp"

#include "trisect/math/aabb.hpp"
#include "trisect/math/capsule.hpp"
#include "trisect/math/edge_group.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/frustum.hpp"
#include "trisect/math/oriented_box.hpp"
#include "trisect/math/plane.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/sphere.hpp"
#include "trisect/math/transform.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"
#include "trisect/math/vec.hpp"

#include "trisect/geometry/aabb_plane.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/geometry/capsule_triangle.hpp"
#include "trisect/geometry/frustum_triangle.hpp"
#include "trisect/geometry/oriented_box_triangle.hpp"
#include "trisect/geometry/plane_point.hpp"
#include "trisect/geometry/plane_triangle.hpp"
#include "trisect/geometry/point_triangle_distance.hpp"
#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/geometry/ray_edge_filter.hpp"
#include "trisect/geometry/ray_triangle.hpp"
#include "trisect/geometry/self_overlap.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/geometry/squared_distance.hpp"
#include "trisect/geometry/triangle_distance.hpp"
#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/geometry/triangle_triangle.hpp"

#include "trisect/mesh/topology.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include "trisect/bvh/batch.hpp"
#include "trisect/bvh/box_query.hpp"
#include "trisect/bvh/build.hpp"
#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/bvh_array.hpp"
#include "trisect/bvh/capsule_query.hpp"
#include "trisect/bvh/collect.hpp"
#include "trisect/bvh/frustum_query.hpp"
#include "trisect/bvh/leaf_triangles.hpp"
#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/bvh/oriented_box_query.hpp"
#include "trisect/bvh/plane_query.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/bvh/ray_leaves.hpp"
#include "trisect/bvh/ray_node.hpp"
#include "trisect/bvh/ray_query.hpp"
#include "trisect/bvh/ray_stream.hpp"
#include "trisect/bvh/refit.hpp"
#include "trisect/bvh/sphere_query.hpp"
#include "trisect/bvh/traverse.hpp"
#include "trisect/bvh/triangle_query.hpp"
#include "trisect/bvh/wide_node.hpp"

#include "trisect/slice/slice.hpp"

#include "trisect/overlap/clearance.hpp"
#include "trisect/overlap/overlap.hpp"

#include "trisect/nearest/closest_point.hpp"
#include "trisect/nearest/inside.hpp"
#include "trisect/nearest/k_nearest.hpp"
#include "trisect/nearest/mesh_distance.hpp"

#include "trisect/broadphase/broadphase.hpp"
#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/broadphase/fat_box.hpp"
#include "trisect/broadphase/proxy.hpp"
#include "trisect/broadphase/ray_cursor.hpp"
#include "trisect/broadphase/traversal_stack.hpp"

#include "trisect/io/bvh_file.hpp"
#include "trisect/io/load_mesh.hpp"
#include "trisect/io/mesh.hpp"
#include "trisect/io/read_file.hpp"
#include "trisect/io/text_token.hpp"
