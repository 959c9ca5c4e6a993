#pragma once
// The check a mesh-against-mesh walk (overlap, mesh distance) makes of the transform that maps
// its second tree into the first one's frame: finite numbers, and no vertex of the tree sent to
// infinity. It reads the tree's triangles, so it lives with the tree rather than in math.
// Internal to the library; its users are compiled with -ffp-contract=off, as the rounding rule
// of math/transform_rows.hpp and the mapped boxes of math/transformed_box.hpp require.
#include "math/transform_rows.hpp"
#include "math/transformed_box.hpp"
#include "trisect/bvh/bvh.hpp"
#include "trisect/math/transform.hpp"
#include "trisect/math/validate.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace trisect::detail {

/// The transform to apply to `second`'s vertices, or null for the identity. Throws
/// `InvalidInput` for a transform with a number that is not finite, or one that maps a vertex of
/// `second` to infinity (naming that triangle's id). When the mapped root box is finite every
/// mapped vertex is, so the triangles are read only when it is not.
inline const Transform* checked_transform(const Bvh& second, const Transform& transform) {
  validate(transform, "transform");
  if (transform.is_identity()) return nullptr;
  if (second.empty()) return &transform;
  const Aabb mapped_root = transformed_box(transform, second.bounds());
  if (is_finite(mapped_root.min) && is_finite(mapped_root.max)) return &transform;
  for (std::uint32_t slot = 0; slot < second.triangles.size(); ++slot) {
    const Triangle triangle = second.triangles.triangle(slot);
    for (const Vec3& corner : {triangle.a, triangle.b, triangle.c}) {
      if (!is_finite(transform_point(transform, corner)))
        throw InvalidInput("transform: maps a vertex of triangle " +
                           std::to_string(second.ids[slot]) + " to infinity");
    }
  }
  return &transform;
}

}  // namespace trisect::detail
