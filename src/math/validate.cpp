#include "trisect/math/validate.hpp"

#include <cmath>
#include <sstream>

namespace trisect {
namespace {

[[noreturn]] void reject(const std::string& what, const std::string& problem) {
  throw InvalidInput(what + ": " + problem);
}

std::string describe(const Vec3& v) {
  std::ostringstream out;
  out << '(' << v.x << ", " << v.y << ", " << v.z << ')';
  return out.str();
}

void require_finite(const Vec3& v, const std::string& what, const char* name) {
  if (!is_finite(v)) reject(what, std::string(name) + " " + describe(v) + " is not finite");
}

}  // namespace

void validate(const Plane& plane, const std::string& what) {
  require_finite(plane.normal, what, "normal");
  if (!std::isfinite(plane.d)) reject(what, "offset d is not finite");
  if (plane.normal == Vec3(0.0f)) reject(what, "normal is zero");
}

void validate(const Aabb& box, const std::string& what) {
  require_finite(box.min, what, "min corner");
  require_finite(box.max, what, "max corner");
  if (box.is_empty())
    reject(what, "min corner " + describe(box.min) + " exceeds max corner " + describe(box.max));
}

void validate(const Sphere& sphere, const std::string& what) {
  require_finite(sphere.center, what, "centre");
  if (!std::isfinite(sphere.radius)) reject(what, "radius is not finite");
  if (sphere.radius < 0) reject(what, "radius is negative");
}

void validate(const Capsule& capsule, const std::string& what) {
  require_finite(capsule.a, what, "end a");
  require_finite(capsule.b, what, "end b");
  if (std::isnan(capsule.radius)) reject(what, "radius is NaN");
  if (!std::isfinite(capsule.radius)) reject(what, "radius is not finite");
  if (capsule.radius < 0) reject(what, "radius is negative");
}

void validate(const OrientedBox& box, const std::string& what) {
  require_finite(box.center, what, "centre");
  for (int i = 0; i < 3; ++i) {
    const std::string axis = "axis " + std::to_string(i);
    require_finite(box.axes[i], what, axis.c_str());
    if (box.axes[i] == Vec3(0.0f)) reject(what, axis + " is zero");
  }
  const std::string names[3] = {"half extent 0", "half extent 1", "half extent 2"};
  for (int i = 0; i < 3; ++i) {
    if (std::isnan(box.half_extents[i])) reject(what, names[i] + " is NaN");
    if (!std::isfinite(box.half_extents[i])) reject(what, names[i] + " is not finite");
    if (box.half_extents[i] < 0) reject(what, names[i] + " is negative");
  }
  if (axes_orientation(box) == 0) reject(what, "axes are linearly dependent");
}

void validate(const Frustum& frustum, const std::string& what) {
  for (int k = 0; k < 6; ++k) validate(frustum.planes[k], what + ": plane " + std::to_string(k));
}

void validate(const Triangle& triangle, const std::string& what) {
  require_finite(triangle.a, what, "vertex a");
  require_finite(triangle.b, what, "vertex b");
  require_finite(triangle.c, what, "vertex c");
}

void validate_thread_count(long long threads, const std::string& what) {
  if (threads < 0 || threads > max_threads)
    throw InvalidInput(what + ": threads must be from 0 to " + std::to_string(max_threads) +
                       ", got " + std::to_string(threads));
}

void validate(const Ray& ray, const std::string& what) {
  require_finite(ray.origin, what, "origin");
  require_finite(ray.direction, what, "direction");
  if (ray.direction == Vec3(0.0f)) reject(what, "direction is zero");
  if (std::isnan(ray.t_min) || std::isnan(ray.t_max)) reject(what, "t_min or t_max is NaN");
}

}  // namespace trisect
