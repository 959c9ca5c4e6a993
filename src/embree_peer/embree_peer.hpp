#pragma once
// Embree 3 beside trisect: the one wrapper that the tests (Embree as the oracle), the
// benchmarks (Embree as the peer), the `trisect demo` command and the examples use to build
// Embree devices and scenes from trisect's types. Not part of the trisect library, which never
// depends on Embree (library trisect_embree_peer, built when Embree is found).
#include <trisect/math/aabb.hpp>
#include <trisect/math/ray.hpp>

#include <embree3/rtcore.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace trisect::embree {

/// An Embree device, "threads=N" (0: Embree's default, all threads), released with this
/// object. An Embree error is printed on stderr and aborts the process; a device that cannot
/// be made throws std::runtime_error.
class Device {
 public:
  explicit Device(unsigned threads);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device();
  /// The device handle, valid while this object lives.
  [[nodiscard]] RTCDevice get() const { return device_; }

 private:
  RTCDevice device_ = nullptr;
};

/// An Embree scene, released with this object (movable, not copyable).
class SceneHandle {
 public:
  SceneHandle() = default;
  /// Takes over `scene` (one reference of it).
  explicit SceneHandle(RTCScene scene) : scene_(scene) {}
  SceneHandle(SceneHandle&& other) noexcept;
  SceneHandle& operator=(SceneHandle&& other) noexcept;
  ~SceneHandle();
  /// The scene handle, or nullptr for none.
  [[nodiscard]] RTCScene get() const { return scene_; }

 private:
  RTCScene scene_ = nullptr;
};

/// Triangles laid out for Embree's shared buffers: float3 vertices with the 16 bytes of padding
/// Embree reads past the last one, and 3 indices per triangle (plus padding).
struct MeshBuffers {
  std::vector<float> vertices;
  std::vector<std::uint32_t> indices;
  std::size_t vertex_count = 0;
  std::size_t triangle_count = 0;

  /// `positions` with 3 `triangle_indices` per triangle, or, when those are empty, 3 positions
  /// per triangle (the layout of trisect::TriangleSoup).
  MeshBuffers(std::span<const Vec3> positions, std::span<const std::uint32_t> triangle_indices);
};

/// A new triangle scene over `mesh` (shared buffers: `mesh` must outlive it), not yet
/// committed: rtcCommitScene builds it.
[[nodiscard]] SceneHandle new_triangle_scene(RTCDevice device, const MeshBuffers& mesh,
                                             RTCBuildQuality quality,
                                             RTCSceneFlags flags = RTC_SCENE_FLAG_NONE);

/// `new_triangle_scene`, committed (built).
[[nodiscard]] SceneHandle triangle_scene(RTCDevice device, const MeshBuffers& mesh,
                                         RTCBuildQuality quality,
                                         RTCSceneFlags flags = RTC_SCENE_FLAG_NONE);

/// A committed scene of one user geometry whose primitive i is the box `boxes[i]` (for
/// rtcCollide), with `point_query` as its point query function when given (for
/// rtcPointQuery). The boxes must outlive the scene.
[[nodiscard]] SceneHandle user_box_scene(RTCDevice device, const std::vector<RTCBounds>& boxes,
                                         RTCBuildQuality quality = RTC_BUILD_QUALITY_MEDIUM,
                                         RTCPointQueryFunction point_query = nullptr);

/// `box`'s corners in the lower_x .. upper_z fields of an Embree box (`RTCBounds`,
/// `RTCBuildPrimitive`): the same floats; the other fields are left as they are.
template <class EmbreeBox>
void set_corners(EmbreeBox& target, const Aabb& box) noexcept {
  target.lower_x = box.min.x;
  target.lower_y = box.min.y;
  target.lower_z = box.min.z;
  target.upper_x = box.max.x;
  target.upper_y = box.max.y;
  target.upper_z = box.max.z;
}

/// `box` as Embree bounds (the same floats).
[[nodiscard]] RTCBounds to_bounds(const Aabb& box);

/// `ray` as an Embree ray with no hit yet (all mask bits set, geomID invalid), for
/// rtcIntersect1.
[[nodiscard]] RTCRayHit to_ray_hit(const Ray& ray);

}  // namespace trisect::embree
