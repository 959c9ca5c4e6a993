#include "embree_peer.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace trisect::embree {
namespace {

void on_error(void*, RTCError code, const char* message) {
  std::fprintf(stderr, "embree error %d: %s\n", static_cast<int>(code),
               message != nullptr ? message : "");
  std::abort();
}

void user_bounds(const RTCBoundsFunctionArguments* args) {
  const auto* boxes = static_cast<const RTCBounds*>(args->geometryUserPtr);
  *args->bounds_o = boxes[args->primID];
}

}  // namespace

Device::Device(unsigned threads) {
  const std::string config = threads == 0 ? "" : "threads=" + std::to_string(threads);
  device_ = rtcNewDevice(config.c_str());
  if (device_ == nullptr) throw std::runtime_error("rtcNewDevice failed");
  rtcSetDeviceErrorFunction(device_, on_error, nullptr);
}

Device::~Device() { rtcReleaseDevice(device_); }

SceneHandle::SceneHandle(SceneHandle&& other) noexcept
    : scene_(std::exchange(other.scene_, nullptr)) {}

SceneHandle& SceneHandle::operator=(SceneHandle&& other) noexcept {
  std::swap(scene_, other.scene_);
  return *this;
}

SceneHandle::~SceneHandle() {
  if (scene_ != nullptr) rtcReleaseScene(scene_);
}

MeshBuffers::MeshBuffers(std::span<const Vec3> positions,
                         std::span<const std::uint32_t> triangle_indices)
    : indices(triangle_indices.begin(), triangle_indices.end()), vertex_count(positions.size()) {
  if (triangle_indices.empty())  // a plain soup: triangle i is positions 3i, 3i + 1, 3i + 2
    for (std::size_t i = 0; i < positions.size(); ++i)
      indices.push_back(static_cast<std::uint32_t>(i));
  triangle_count = indices.size() / 3;
  vertices.reserve(3 * vertex_count + 4);
  for (const Vec3& p : positions) vertices.insert(vertices.end(), {p.x, p.y, p.z});
  vertices.insert(vertices.end(), {0.0f, 0.0f, 0.0f, 0.0f});
  indices.insert(indices.end(), {0u, 0u, 0u});  // padding as well
}

SceneHandle new_triangle_scene(RTCDevice device, const MeshBuffers& mesh, RTCBuildQuality quality,
                               RTCSceneFlags flags) {
  RTCScene scene = rtcNewScene(device);
  rtcSetSceneFlags(scene, flags);
  rtcSetSceneBuildQuality(scene, quality);
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
  rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                             mesh.vertices.data(), 0, 3 * sizeof(float), mesh.vertex_count);
  rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                             mesh.indices.data(), 0, 3 * sizeof(std::uint32_t),
                             mesh.triangle_count);
  rtcSetGeometryBuildQuality(geometry, quality);
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
  return SceneHandle(scene);
}

SceneHandle triangle_scene(RTCDevice device, const MeshBuffers& mesh, RTCBuildQuality quality,
                           RTCSceneFlags flags) {
  SceneHandle scene = new_triangle_scene(device, mesh, quality, flags);
  rtcCommitScene(scene.get());
  return scene;
}

SceneHandle user_box_scene(RTCDevice device, const std::vector<RTCBounds>& boxes,
                           RTCBuildQuality quality, RTCPointQueryFunction point_query) {
  RTCScene scene = rtcNewScene(device);
  rtcSetSceneBuildQuality(scene, quality);
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_USER);
  rtcSetGeometryUserPrimitiveCount(geometry, static_cast<unsigned>(boxes.size()));
  rtcSetGeometryUserData(geometry, const_cast<RTCBounds*>(boxes.data()));
  rtcSetGeometryBoundsFunction(geometry, user_bounds, nullptr);
  if (point_query != nullptr) rtcSetGeometryPointQueryFunction(geometry, point_query);
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
  rtcCommitScene(scene);
  return SceneHandle(scene);
}

RTCBounds to_bounds(const Aabb& box) {
  RTCBounds bounds{};
  set_corners(bounds, box);
  return bounds;
}

RTCRayHit to_ray_hit(const Ray& ray) {
  RTCRayHit hit{};
  hit.ray.org_x = ray.origin.x;
  hit.ray.org_y = ray.origin.y;
  hit.ray.org_z = ray.origin.z;
  hit.ray.dir_x = ray.direction.x;
  hit.ray.dir_y = ray.direction.y;
  hit.ray.dir_z = ray.direction.z;
  hit.ray.tnear = ray.t_min;
  hit.ray.tfar = ray.t_max;
  hit.ray.mask = std::numeric_limits<unsigned>::max();
  hit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  return hit;
}

}  // namespace trisect::embree
