#pragma once
// Embree 3 as a benchmark peer: devices with a given thread count, triangle scenes and
// user-geometry scenes (per-primitive boxes, for rtcCollide) over bench::Scene, the bytes a
// triangle scene keeps, and the SAH cost of the 8-wide BVH that Embree's own builder
// (rtcBuildBVH) makes over the triangles' boxes.
//
// Threads: with Embree's TBB tasking, "threads=N" caps the process-wide TBB concurrency at the
// largest N of all live devices (a tbb::global_control), which also caps trisect's TBB work.
// So a benchmark that times Embree at N threads holds exactly one device, made for it and
// released when it ends; the query benchmarks share one threads=1 device for the whole run.
#include "embree_peer.hpp"
#include "scenes.hpp"

#include <embree3/rtcore.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace bench::embree {

// Devices, scenes and buffers come from the one Embree wrapper (src/embree_peer).
using trisect::embree::Device;
using trisect::embree::MeshBuffers;
using trisect::embree::SceneHandle;
using trisect::embree::set_corners;
using trisect::embree::to_bounds;
using trisect::embree::triangle_scene;
using trisect::embree::user_box_scene;

namespace detail {
// Bytes the device holds: Embree reports every allocation (positive) and release (negative)
// to the memory monitor, including those of its tasking threads.
inline std::atomic<std::int64_t> device_bytes{0};
inline bool count_bytes(void*, ssize_t bytes, bool) {
  device_bytes += static_cast<std::int64_t>(bytes);
  return true;
}
}  // namespace detail

/// Bytes that a triangle scene over `mesh` built on `device` at `quality` keeps after its
/// commit (what Embree allocated minus what it released during the build: its BVH and leaf
/// data, not the shared vertex and index buffers), measured with the device's memory monitor.
inline std::int64_t triangle_scene_bytes(RTCDevice device, const MeshBuffers& mesh,
                                         RTCBuildQuality quality) {
  rtcSetDeviceMemoryMonitorFunction(device, detail::count_bytes, nullptr);
  detail::device_bytes = 0;
  const SceneHandle scene = triangle_scene(device, mesh, quality);
  const std::int64_t kept = detail::device_bytes;
  rtcSetDeviceMemoryMonitorFunction(device, nullptr, nullptr);
  return kept;
}

/// The boxes of the scene's triangles.
inline std::vector<RTCBounds> triangle_boxes(const Scene& scene) {
  std::vector<RTCBounds> boxes(scene.size());
  for (std::size_t i = 0; i < scene.size(); ++i) boxes[i] = to_bounds(scene.triangle(i).bounds());
  return boxes;
}

// ---------------------------------------------------------------------------------------------
// SAH cost of Embree's builder, for comparison with trisect::statistics(bvh).sah_cost.
//
// rtcBuildBVH runs the builder Embree uses for its own BVHs (RTC_BUILD_QUALITY_MEDIUM: binned
// SAH; LOW: Morton) over one RTCBuildPrimitive per triangle (its bounding box), with the same
// parameters as trisect's defaults: branching factor 8 (trisect's wide nodes), leaves of 1..8
// primitives, traversal and intersection cost 1 (per triangle). The callbacks record the tree,
// whose cost is computed exactly as trisect::statistics does it over trisect's wide nodes: with A
// the trisect::Aabb::half_area of a node's box, cost = sum over inner nodes of 1 * A(node) /
// A(root) + sum over leaves of count * A(leaf) / A(root). A node's box is the one Embree hands
// to setNodeBounds for it (the root's is the union of all triangle boxes). The lane-priced cost
// charges a leaf ceil(count / 4) * 4 instead of count; with `block_size` 4 the builder itself
// prices leaves that way (sahBlockSize 4, intersection cost 4 per block of four).

/// The SAH cost of a tree, with leaves priced per triangle and per lane of groups of four.
struct BuilderCost {
  double sah_cost = 0;
  double sah_cost_lanes = 0;
  std::size_t leaf_count = 0;
};

namespace detail {
constexpr unsigned max_children = 8;

struct BuildNode {
  bool leaf = false;
  std::uint32_t count = 0;  // leaf: primitives; inner: children
  BuildNode* children[max_children] = {};
  RTCBounds bounds[max_children] = {};
};

inline void* create_node(RTCThreadLocalAllocator allocator, unsigned child_count, void*) {
  if (child_count < 1 || child_count > max_children) {
    std::fprintf(stderr, "embree error: expected 1 to 8 children\n");
    std::abort();
  }
  void* memory = rtcThreadLocalAlloc(allocator, sizeof(BuildNode), 16);
  auto* node = new (memory) BuildNode();
  node->count = child_count;
  return node;
}
inline void set_children(void* node, void** children, unsigned child_count, void*) {
  for (unsigned i = 0; i < child_count; ++i)
    static_cast<BuildNode*>(node)->children[i] = static_cast<BuildNode*>(children[i]);
}
inline void set_bounds(void* node, const RTCBounds** bounds, unsigned child_count, void*) {
  for (unsigned i = 0; i < child_count; ++i) static_cast<BuildNode*>(node)->bounds[i] = *bounds[i];
}
inline void* create_leaf(RTCThreadLocalAllocator allocator, const RTCBuildPrimitive*,
                         std::size_t primitive_count, void*) {
  void* memory = rtcThreadLocalAlloc(allocator, sizeof(BuildNode), 16);
  auto* leaf = new (memory) BuildNode();
  leaf->leaf = true;
  leaf->count = static_cast<std::uint32_t>(primitive_count);
  return leaf;
}

inline float half_area(const RTCBounds& b) {
  return trisect::Aabb{{b.lower_x, b.lower_y, b.lower_z}, {b.upper_x, b.upper_y, b.upper_z}}
      .half_area();
}

// Adds the subtree's cost with leaves priced per triangle (`cost`) and per lane of groups of
// four (`lane_cost`, as trisect's queries test them), and counts its leaves.
inline void add_cost(const BuildNode* node, const RTCBounds& bounds, double root_area,
                     BuilderCost& into) {
  const double relative = root_area > 0 ? double(half_area(bounds)) / root_area : 1.0;
  if (node->leaf) {
    into.sah_cost += node->count * relative;
    into.sah_cost_lanes += (node->count + 3) / 4 * 4 * relative;
    ++into.leaf_count;
    return;
  }
  into.sah_cost += relative;
  into.sah_cost_lanes += relative;
  for (unsigned i = 0; i < node->count; ++i)
    add_cost(node->children[i], node->bounds[i], root_area, into);
}
}  // namespace detail

/// SAH cost of the 8-wide tree Embree's builder makes over `scene` at `quality` (see above),
/// pricing leaves per triangle (block size 1) or, with `block_size` 4, per block of four
/// triangles at four times the cost (as trisect prices a leaf's lanes, and as Embree prices
/// its own four-triangle leaves).
inline BuilderCost builder_sah_cost(const Scene& scene, RTCBuildQuality quality,
                                    unsigned block_size = 1) {
  const Device device(0);
  std::vector<RTCBuildPrimitive> primitives(scene.size());
  trisect::Aabb root = trisect::Aabb::empty();
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const trisect::Aabb box = scene.triangle(i).bounds();
    root.extend(box);
    RTCBuildPrimitive& p = primitives[i];
    set_corners(p, box);
    p.geomID = 0;
    p.primID = static_cast<unsigned>(i);
  }
  RTCBVH bvh = rtcNewBVH(device.get());
  RTCBuildArguments arguments = rtcDefaultBuildArguments();
  arguments.buildQuality = quality;
  arguments.maxBranchingFactor = detail::max_children;
  arguments.maxDepth = 64;
  arguments.sahBlockSize = block_size;
  arguments.minLeafSize = 1;
  arguments.maxLeafSize = 8;
  arguments.traversalCost = 1.0f;
  arguments.intersectionCost = static_cast<float>(block_size);
  arguments.bvh = bvh;
  arguments.primitives = primitives.data();
  arguments.primitiveCount = primitives.size();
  arguments.primitiveArrayCapacity = primitives.size();
  arguments.createNode = detail::create_node;
  arguments.setNodeChildren = detail::set_children;
  arguments.setNodeBounds = detail::set_bounds;
  arguments.createLeaf = detail::create_leaf;
  const auto* tree = static_cast<const detail::BuildNode*>(rtcBuildBVH(&arguments));
  BuilderCost result;
  const RTCBounds root_bounds = to_bounds(root);
  detail::add_cost(tree, root_bounds, double(detail::half_area(root_bounds)), result);
  rtcReleaseBVH(bvh);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Caches for the query benchmarks: one threads=1 device, scenes built on first use.

/// The process's threads=1 device (never released before exit).
inline RTCDevice single_thread_device() {
  static const Device device(1);
  return device.get();
}

inline const MeshBuffers& mesh_buffers(const std::string& name) {
  static std::map<std::string, std::unique_ptr<const MeshBuffers>> cache;
  auto& slot = cache[name];
  if (!slot) {
    const Scene& scene = bench::scene(name);
    slot = std::make_unique<const MeshBuffers>(scene.positions, scene.indices);
  }
  return *slot;
}

/// Triangle scene over scene `name` on the threads=1 device, built on first use.
inline RTCScene cached_triangle_scene(const std::string& name, RTCBuildQuality quality,
                                      RTCSceneFlags flags = RTC_SCENE_FLAG_NONE) {
  static std::map<std::tuple<std::string, int, int>, SceneHandle> cache;
  auto& slot = cache[{name, static_cast<int>(quality), static_cast<int>(flags)}];
  if (slot.get() == nullptr)
    slot = triangle_scene(single_thread_device(), mesh_buffers(name), quality, flags);
  return slot.get();
}

/// User-geometry scene of the triangles' boxes of scene `name` (threads=1 device, MEDIUM).
inline RTCScene cached_triangle_box_scene(const std::string& name) {
  static std::map<std::string, std::pair<std::vector<RTCBounds>, SceneHandle>> cache;
  auto& slot = cache[name];
  if (slot.second.get() == nullptr) {
    slot.first = triangle_boxes(bench::scene(name));
    slot.second = user_box_scene(single_thread_device(), slot.first);
  }
  return slot.second.get();
}

}  // namespace bench::embree
