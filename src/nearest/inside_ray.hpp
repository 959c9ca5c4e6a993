#pragma once
// The one ray `side_of` casts (inside.cpp), seen also by the white-box tests that aim it
// exactly through edges and vertices. Internal to the library.
#include "trisect/math/aabb.hpp"
#include "trisect/math/vec.hpp"

namespace trisect::detail {

/// The direction of the ray from `point` that `side_of` casts in the mesh bounded by `bounds`:
/// out through the nearest face of the bounds (the shortest way out, so the fewest boxes on the
/// way; from outside the bounds, straight away from them), ±1 on that axis, tilted by fixed
/// irregular floats on the other two, so that axis-aligned edges rarely meet it.
[[nodiscard]] Vec3 inside_ray_direction(const Aabb& bounds, const Vec3& point);

}  // namespace trisect::detail
