#pragma once
/// \file
/// Convex shells with a known interior, their even-odd side, and the mesh that trapped the
/// retries `side_of` made before issue 35: a vertex exactly on each of the 1000 directions it
/// tried from the origin, in a closed mesh.

#include "support/closed_meshes.hpp"
#include "support/exact_oracle.hpp"

#include <trisect/nearest/inside.hpp>

#include <span>
#include <string>
#include <vector>

namespace trisect::testing {

/// A closed convex polyhedron and a point strictly inside it.
struct ConvexShell {
  Scene scene;
  oracle::QVec3 interior;
};

/// The closed box [min, max] with its centre.
[[nodiscard]] ConvexShell box_shell(const Vec3& min, const Vec3& max);

/// The tetrahedron on four points in general position, with its centroid.
[[nodiscard]] ConvexShell tetrahedron_shell(const Vec3& a, const Vec3& b, const Vec3& c,
                                            const Vec3& d);

/// The exact side of `point` in the union of `shells` by the even-odd rule (each shell's side
/// by `oracle::convex_side`, combined by `oracle::even_odd`).
[[nodiscard]] PointSide shells_side(std::span<const ConvexShell> shells, const Vec3& point);

/// The triangles of every shell, one after the other.
[[nodiscard]] Scene merged_shells(std::span<const ConvexShell> shells, const std::string& name);

/// The 1000 directions `side_of` tried in turn before issue 35 from a point whose nearest
/// face of the mesh's bounds is x = min: (-1, t, t') with SplitMix64 tilts below 1/16 (the
/// first is the direction it casts today from such a point).
[[nodiscard]] std::vector<Vec3> retired_inside_directions();

/// The box [-8, 8]³ (and [-2, 2]³ within it when `nested`, which puts the origin outside),
/// with a tetrahedron of side about 2^-10 whose apex is exactly 4·d, for each d of
/// `retired_inside_directions()`: every ray the retries cast from the origin meets a vertex.
[[nodiscard]] std::vector<ConvexShell> inside_trap(bool nested);

/// `scene` as OBJ text (one vertex per corner, one face per triangle), every coordinate
/// printed so that it reads back as the same float.
[[nodiscard]] std::string obj_text(const Scene& scene);

}  // namespace trisect::testing
