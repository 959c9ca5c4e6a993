#include "support/describe.hpp"

#include <cstdio>

namespace trisect::testing {
namespace {

// Built with snprintf rather than chains of std::string operator+, which trip GCC 12's
// -Wrestrict false positive (GCC bug 105329) under -Werror.
std::string format(const char* pattern, const std::string& first, const std::string& second) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, first.c_str(), second.c_str());
  return buffer;
}

}  // namespace

std::string hex(float value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", static_cast<double>(value));
  return buffer;
}

std::string describe(const Vec3& v) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "(%a, %a, %a)", static_cast<double>(v.x),
                static_cast<double>(v.y), static_cast<double>(v.z));
  return buffer;
}

std::string describe(const Plane& plane) {
  return format("Plane{normal %s, d %s}", describe(plane.normal), hex(plane.d));
}

std::string describe(const Aabb& box) {
  return format("Aabb{min %s, max %s}", describe(box.min), describe(box.max));
}

std::string describe(const Triangle& triangle) {
  return format("Triangle{%s, %s}", describe(triangle.a) + ", " + describe(triangle.b),
                describe(triangle.c));
}

std::string describe(const Sphere& sphere) {
  return format("Sphere{center %s, radius %s}", describe(sphere.center), hex(sphere.radius));
}

std::string describe(const OrientedBox& box) {
  return "OrientedBox{center " + describe(box.center) + ", axes " + describe(box.axes[0]) + " " +
         describe(box.axes[1]) + " " + describe(box.axes[2]) + ", half extents " +
         describe(box.half_extents) + "}";
}

std::string describe(const Frustum& frustum) {
  std::string text = "Frustum{";
  for (const Plane& plane : frustum.planes) text += describe(plane) + " ";
  text.back() = '}';
  return text;
}

std::string describe(const Capsule& capsule) {
  return "Capsule{a " + describe(capsule.a) + ", b " + describe(capsule.b) + ", radius " +
         hex(capsule.radius) + "}";
}

}  // namespace trisect::testing
