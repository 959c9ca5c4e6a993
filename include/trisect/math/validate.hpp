#pragma once
/// \file
/// Checks of input values where they enter the library; the predicates assume valid input.

#include "trisect/error.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/capsule.hpp"
#include "trisect/math/frustum.hpp"
#include "trisect/math/oriented_box.hpp"
#include "trisect/math/plane.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/sphere.hpp"
#include "trisect/math/triangle.hpp"

#include <string>

namespace trisect {

/// Thrown when an input value cannot be answered: NaN or infinite coordinates, a zero plane
/// normal or ray direction, a negative radius, an inverted box. `what()` names the value.
class InvalidInput : public Error {
 public:
  using Error::Error;
};

/// The most worker threads an option may ask for: `BuildOptions::threads`,
/// `OverlapOptions::threads`, `SliceOptions::threads`, the command's `--threads` and Python's
/// `threads=` (0 always means TBB's default).
inline constexpr int max_threads = 4096;

/// Throws `InvalidInput` ("WHAT: threads must be from 0 to 4096, got N") unless
/// 0 <= threads <= `max_threads`.
void validate_thread_count(long long threads, const std::string& what);

/// Throws `InvalidInput` unless the plane has finite components and a non-zero normal.
/// `what` names the value in the message (e.g. "query 3").
void validate(const Plane& plane, const std::string& what = "plane");

/// Throws `InvalidInput` unless the box has finite corners with min <= max on every axis.
void validate(const Aabb& box, const std::string& what = "box");

/// Throws `InvalidInput` unless the sphere has a finite centre and a finite radius >= 0.
void validate(const Sphere& sphere, const std::string& what = "sphere");

/// Throws `InvalidInput` unless the capsule's ends are finite and its radius is finite and
/// >= 0, naming the part.
void validate(const Capsule& capsule, const std::string& what = "capsule");

/// Throws `InvalidInput` unless the oriented box's centre, axes and half extents are finite, no
/// axis is zero, no half extent is negative and the axes are linearly independent (exactly),
/// naming the part.
void validate(const OrientedBox& box, const std::string& what = "oriented box");

/// Throws `InvalidInput` unless each of the frustum's six planes is valid, naming it
/// ("WHAT: plane 3: normal is zero").
void validate(const Frustum& frustum, const std::string& what = "frustum");

/// Throws `InvalidInput` unless the triangle's vertices are finite.
void validate(const Triangle& triangle, const std::string& what = "triangle");

/// Throws `InvalidInput` unless the ray has a finite origin, a finite non-zero direction, and
/// t_min, t_max that are not NaN (t_max may be +inf; t_min > t_max is valid and misses).
void validate(const Ray& ray, const std::string& what = "ray");

}  // namespace trisect
