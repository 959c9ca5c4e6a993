#pragma once
/// \file
/// Exact oriented box–triangle intersection.

#include "trisect/math/aabb.hpp"
#include "trisect/math/oriented_box.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {
namespace detail {

/// An oriented box's own coordinates s (x = center + Σ s_i axes[i]; the box is |s_i| <= h_i)
/// computed in double with a proven bound on their error, and the float certificates built on
/// them: what lets `intersects(triangle, oriented box)` decide almost every triangle with the
/// exact float AABB–triangle test instead of exact arithmetic.
///
/// With n_i = axes[j] × axes[k] ((i, j, k) cyclic) and D = det(axes) = axes[i]·n_i, the exact
/// coordinates are s_i(x) = n_i·(x - center) / D (the rows of the inverse of the axes' matrix).
/// The computed s̃ rounded to float differ from them by at most δ_i per coordinate (the bound is
/// derived in oriented_box_triangle.cpp). Let T'' be the triangle of the rounded coordinates and
/// T' that of the exact ones: every point Σλ_k v''_k of T'' lies within δ (per coordinate) of the
/// point Σλ_k v'_k of T'. Hence T'' meeting the box shrunk by δ proves that T' meets the box,
/// and T'' missing the box grown by δ proves that T' misses it; the affine map s carries T'
/// back onto the triangle, so those are the answers for the triangle itself.
class OrientedBoxFrame {
 public:
  /// The frame of a valid box (`validate`).
  [[nodiscard]] static OrientedBoxFrame of(const OrientedBox& box) noexcept;

  /// 1 when the closed triangle certainly touches the box, -1 when it certainly misses it, 0
  /// when the certificates cannot tell (near contact, or axes too close to dependent for the
  /// double computation). Finite triangle.
  [[nodiscard]] int classify(const Triangle& triangle) const noexcept;

  /// 1 when every point of the closed node box certainly lies in the oriented box, -1 when the
  /// node box certainly misses it along one of the oriented box's face normals n_i, 0 otherwise.
  /// Conservative in double with a proven bound; finite node box.
  [[nodiscard]] int classify(const Aabb& node) const noexcept;

 private:
  double normal_[3][3] = {};  ///< n_i, each component rounded once, signed so that n_i·axes[i] > 0.
  double volume_ = 0;         ///< |D| computed in double.
  double volume_error_ = 0;   ///< A bound on the error of `volume_`.
  bool usable_ = false;       ///< `volume_error_` small enough for the certificates.
  Vec3 center_{0.0f};
  Vec3 half_extents_{0.0f};
};

/// The exact separating-axis test of the triangle against the box: 3 face normals, the
/// triangle normal and the 9 products axis × edge, each decided in exact arithmetic (filtered).
/// The same answer as `intersects`, only slower. Finite triangle, valid box.
[[nodiscard]] bool intersects_exactly(const Triangle& triangle, const OrientedBox& box);

/// `intersects(triangle, box)` with the box's frame made once (`OrientedBoxFrame::of(box)`):
/// the frame's certificate where it decides, `intersects_exactly` otherwise.
[[nodiscard]] bool intersects(const Triangle& triangle, const OrientedBox& box,
                              const OrientedBoxFrame& frame);

}  // namespace detail

/// True when the closed triangle and the closed oriented box (the exact parallelepiped of its
/// floats, see `OrientedBox`) share a point; touching at a vertex, along an edge or on a face
/// counts. Exact for finite input: the float certificates of `detail::OrientedBoxFrame` decide
/// most triangles, the separating-axis test over the 13 axes (3 face normals, the triangle
/// normal, 9 axis × edge products; Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH 1996) in
/// exact arithmetic the rest. Degenerate triangles and flat boxes (a half extent of 0) are
/// answered exactly too: a zero axis never separates, and for independent axes these 13 axes
/// contain a separating one whenever the closed sets are disjoint. The box must be valid.
[[nodiscard]] bool intersects(const Triangle& triangle, const OrientedBox& box);

/// `intersects(triangle, box)`.
[[nodiscard]] inline bool intersects(const OrientedBox& box, const Triangle& triangle) {
  return intersects(triangle, box);
}

}  // namespace trisect
