#pragma once
/// \file
/// Full-precision (hexfloat) descriptions of predicate inputs for failure messages.

#include <trisect/math/aabb.hpp>
#include <trisect/math/capsule.hpp>
#include <trisect/math/frustum.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/plane.hpp>
#include <trisect/math/sphere.hpp>
#include <trisect/math/triangle.hpp>

#include <string>

namespace trisect::testing {

/// The float in hexadecimal floating point (%a), exact and round-trippable.
[[nodiscard]] std::string hex(float value);
[[nodiscard]] std::string describe(const Vec3& v);
[[nodiscard]] std::string describe(const Plane& plane);
[[nodiscard]] std::string describe(const Aabb& box);
[[nodiscard]] std::string describe(const Triangle& triangle);
[[nodiscard]] std::string describe(const Sphere& sphere);
[[nodiscard]] std::string describe(const Capsule& capsule);
[[nodiscard]] std::string describe(const OrientedBox& box);
[[nodiscard]] std::string describe(const Frustum& frustum);

}  // namespace trisect::testing
