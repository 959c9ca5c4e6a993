#include "demo_peer.hpp"

#include <chrono>
#include <stdexcept>

#ifdef TRISECT_DEMO_WITH_EMBREE
#include "embree_peer.hpp"
#endif

namespace trisect::cli {

#ifdef TRISECT_DEMO_WITH_EMBREE

std::optional<PeerTimings> embree_timings(const Mesh& mesh, const std::vector<Ray>& rays) {
  using Clock = std::chrono::steady_clock;
  try {
    const embree::Device device(0);
    const embree::MeshBuffers buffers(mesh.positions, mesh.indices);
    const embree::SceneHandle scene =
        embree::new_triangle_scene(device.get(), buffers, RTC_BUILD_QUALITY_MEDIUM);
    const auto build_start = Clock::now();
    rtcCommitScene(scene.get());
    PeerTimings timings{
        std::chrono::duration<double, std::milli>(Clock::now() - build_start).count(), 0, 0};
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    const auto ray_start = Clock::now();
    for (const Ray& ray : rays) {
      RTCRayHit hit = embree::to_ray_hit(ray);
      rtcIntersect1(scene.get(), &context, &hit);
      timings.hits += hit.hit.geomID != RTC_INVALID_GEOMETRY_ID ? 1u : 0u;
    }
    timings.ray_microseconds =
        std::chrono::duration<double, std::micro>(Clock::now() - ray_start).count();
    return timings;
  } catch (const std::runtime_error&) {  // no Embree device
    return std::nullopt;
  }
}

#else

std::optional<PeerTimings> embree_timings(const Mesh&, const std::vector<Ray>&) {
  return std::nullopt;
}

#endif

}  // namespace trisect::cli
