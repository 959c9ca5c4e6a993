#pragma once
/// \file
/// Exact frustum–triangle intersection.

#include "trisect/math/frustum.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {

/// True when the closed triangle and the closed frustum (`Frustum`: the points behind all six
/// planes) share a point; touching a plane counts. Exact for finite input and any planes.
///
/// A vertex behind every plane answers yes, three vertices in front of one plane answer no
/// (exact side tests). Otherwise the question is a linear program in the triangle's parameters
/// (u, v) (the point a + u (b - a) + v (c - a), u, v >= 0, u + v <= 1): nine half-planes
/// α u + β v <= γ, six from the planes and three from the triangle, whose coefficients are
/// polynomials in the inputs. Their intersection is bounded, so it is non-empty exactly when
/// one of its vertices exists: the crossing point of two constraints with independent
/// normals that satisfies all the others (the vertex enumeration of a 2-D linear program,
/// e.g. de Berg et al., "Computational Geometry", §4.3). Each test is the exact sign of a
/// polynomial of degree 6 (Cramer's rule scaled by the determinant), filtered (exact.hpp).
/// Zero-area triangles are answered by the same program.
[[nodiscard]] bool intersects(const Triangle& triangle, const Frustum& frustum);

/// `intersects(triangle, frustum)`.
[[nodiscard]] inline bool intersects(const Frustum& frustum, const Triangle& triangle) {
  return intersects(triangle, frustum);
}

}  // namespace trisect
