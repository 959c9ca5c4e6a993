#pragma once
/// \file
/// Umbrella header: everything in trisect's public API.

#include "trisect/geometry/aabb_plane.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/geometry/plane_point.hpp"
#include "trisect/geometry/plane_triangle.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/plane.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/sphere.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/validate.hpp"
#include "trisect/math/vec.hpp"
