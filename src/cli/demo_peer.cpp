#include "demo_peer.hpp"

#include <chrono>
#include <limits>

#ifdef TRISECT_DEMO_WITH_EMBREE
#include <embree3/rtcore.h>
#endif

namespace trisect::cli {

#ifdef TRISECT_DEMO_WITH_EMBREE

std::optional<PeerTimings> embree_timings(const Mesh& mesh, const std::vector<Ray>& rays) {
  using Clock = std::chrono::steady_clock;
  RTCDevice device = rtcNewDevice(nullptr);
  if (device == nullptr) return std::nullopt;
  RTCScene scene = rtcNewScene(device);
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* vertices = static_cast<float*>(rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0,
                                                               RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                                               mesh.positions.size()));
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    vertices[3 * i] = mesh.positions[i].x;
    vertices[3 * i + 1] = mesh.positions[i].y;
    vertices[3 * i + 2] = mesh.positions[i].z;
  }
  auto* indices = static_cast<unsigned*>(
      rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                              3 * sizeof(unsigned), mesh.triangle_count()));
  for (std::size_t i = 0; i < mesh.indices.size(); ++i) indices[i] = mesh.indices[i];
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
  const auto build_start = Clock::now();
  rtcCommitScene(scene);
  PeerTimings timings{std::chrono::duration<double, std::milli>(Clock::now() - build_start).count(),
                      0, 0};
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  const auto ray_start = Clock::now();
  for (const Ray& ray : rays) {
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
    rtcIntersect1(scene, &context, &hit);
    timings.hits += hit.hit.geomID != RTC_INVALID_GEOMETRY_ID ? 1u : 0u;
  }
  timings.ray_microseconds =
      std::chrono::duration<double, std::micro>(Clock::now() - ray_start).count();
  rtcReleaseScene(scene);
  rtcReleaseDevice(device);
  return timings;
}

#else

std::optional<PeerTimings> embree_timings(const Mesh&, const std::vector<Ray>&) {
  return std::nullopt;
}

#endif

}  // namespace trisect::cli
