#pragma once
// Embree 3's point query as the peer of trisect::closest_point, the approach of Embree's
// closest_point tutorial: rtcPointQuery on a triangle scene, starting with an infinite radius,
// and a point query function that computes the float point of each triangle it is handed
// nearest the query point (Ericson, "Real-Time Collision Detection", §5.1.5) and shrinks the
// query radius to its distance when that is smaller than the radius so far. Embree culls the
// tree by the radius; the answer is the nearest triangle by float arithmetic (ties: the first
// found), its distance and point in float.
//
// The triangles are read from the scene's own shared buffers (MeshBuffers), as Embree reads them.
// Beside the Embree wrapper (embree_peer.hpp), for the tests (Embree as the oracle of
// closest_point) and the benchmarks (Embree as its peer).
#include <trisect/geometry/detail/approximate_closest_point.hpp>
#include "embree_peer.hpp"

#include <trisect/nearest/closest_point.hpp>

#include <embree3/rtcore.h>
#include <glm/geometric.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

namespace trisect::embree {

/// One closest-point query in progress: the mesh it reads and the best triangle so far (its
/// distance is the query's radius).
struct ClosestPointSearch {
  const MeshBuffers* mesh = nullptr;  ///< The triangles, as the scene shares them with Embree.
  std::uint32_t id = RTC_INVALID_GEOMETRY_ID;               ///< The nearest triangle so far.
  float distance = std::numeric_limits<float>::infinity();  ///< Its distance (float).
  Vec3 point{0.0f};                                         ///< Its point nearest the query point.
};

/// The point query function: the triangle's nearest point; when nearer than the radius, the
/// triangle becomes the best and the radius shrinks to its distance (returns true: the radius
/// changed).
inline bool closest_point_function(RTCPointQueryFunctionArguments* args) {
  auto& search = *static_cast<ClosestPointSearch*>(args->userPtr);
  const MeshBuffers& mesh = *search.mesh;
  const auto vertex = [&](std::size_t corner) {
    const float* v = &mesh.vertices[3 * std::size_t{mesh.indices[3 * args->primID + corner]}];
    return Vec3(v[0], v[1], v[2]);
  };
  const Vec3 query(args->query->x, args->query->y, args->query->z);
  const Vec3 nearest =
      trisect::detail::approximate_closest_on_triangle(query, vertex(0), vertex(1), vertex(2));
  const float distance = glm::length(nearest - query);
  if (distance >= args->query->radius) return false;
  args->query->radius = distance;
  search.id = args->primID;
  search.distance = distance;
  search.point = nearest;
  return true;
}

/// The triangle of `scene` (a triangle scene over `mesh`, as `triangle_scene` makes it)
/// nearest `point` by Embree's point query with `closest_point_function`; its distance in float.
/// `nullopt` for an empty scene.
inline std::optional<ClosestPoint> closest_point(RTCScene scene, const MeshBuffers& mesh,
                                                 const Vec3& point) {
  RTCPointQuery query{};
  query.x = point.x;
  query.y = point.y;
  query.z = point.z;
  query.time = 0;
  query.radius = std::numeric_limits<float>::infinity();
  RTCPointQueryContext context;
  rtcInitPointQueryContext(&context);
  ClosestPointSearch search{&mesh};
  rtcPointQuery(scene, &query, &context, closest_point_function, &search);
  if (search.id == RTC_INVALID_GEOMETRY_ID) return std::nullopt;
  return ClosestPoint{search.id, double(search.distance), search.point};
}

}  // namespace trisect::embree
