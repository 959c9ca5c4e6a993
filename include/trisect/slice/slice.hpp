#pragma once
/// \file
/// Slicing: the closed cross-section contours of a mesh cut by parallel planes, exactly.
///
/// Semantics (the contract of `trisect slice`, docs/contracts.md section 3):
/// - A vertex is *below* plane n·x = D when n·v < D, decided exactly on the floats, and *above*
///   otherwise (a vertex on the plane counts as above).
/// - A triangle contributes one segment when its vertices are not all on one side, unless two
///   of its vertices have equal coordinates. Walking its vertices in order (v0 v1 v2 v0), the
///   segment runs from the point of the edge that falls from above to below to the point of the
///   edge that rises from below to above.
/// - An edge's point is computed from the edge's two vertices alone (the same bits for every
///   triangle with that edge); a vertex on the plane is its own point exactly, any other point
///   is within 1e-6 × (largest absolute vertex coordinate) of the exact one per coordinate.
/// - An edge is its two vertex positions (equal coordinates are one vertex, -0 equals 0). A
///   contour is a maximal chain of segments joined at edges that exactly two contributing
///   triangles have: closed when it comes back to its first segment, open otherwise. No
///   distance tolerance is used anywhere.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/plane.hpp"
#include "trisect/math/validate.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace trisect {

/// One chain of segments in a plane.
struct Contour {
  /// True when the chain comes back to its first segment.
  bool closed = false;
  /// The chain's points in order: as many as segments for a closed contour (the last segment
  /// returns to the first point), one more for an open one.
  std::vector<Vec3> points;
  /// Input id of the triangle whose segment runs from points[i] to the next point.
  std::vector<TriangleId> triangles;
  /// Sum of the segment lengths (computed in double from the float points).
  double length = 0;
  /// Signed area enclosed, seen from the side the normal points to (counter-clockwise is
  /// positive); 0 for an open contour.
  double area = 0;
};

/// The contours of one plane.
///
/// Order: contours come sorted by the smallest triangle id they contain. A closed contour
/// starts with the segment of that smallest id; an open one starts at one of its two ends (the
/// end its segments' direction leaves from, where the orientation is consistent). Where the
/// two triangles of each joined edge walk it in opposite directions, a contour follows its
/// segments' direction (on a closed outward-facing mesh: outer boundaries counter-clockwise,
/// holes clockwise, seen from the side the normal points to).
struct Section {
  float d = 0;                    ///< The plane's offset: the plane is n·x = d.
  std::vector<Contour> contours;  ///< See the order above.
};

/// How a slice was computed, for tests and benchmarks.
enum class SlicePath {
  sweep,  ///< One pass over all triangles, bucketed by the planes their extents span.
  bvh,    ///< The BVH plane query per plane (few planes and a built BVH).
};

/// What a slice did. Counters add up over calls that share it.
struct SliceStats {
  SlicePath path = SlicePath::sweep;  ///< The path of the last call.
  std::uint64_t candidates = 0;       ///< Triangle–plane pairs examined exactly.
  std::uint64_t segments = 0;         ///< Segments found (contributing triangle–plane pairs).
  std::uint64_t contours = 0;         ///< Contours formed.
};

/// The largest `SliceOptions::threads`: `max_threads`, as for every option.
inline constexpr int max_slice_threads = max_threads;

/// Options of `slice`.
struct SliceOptions {
  /// Worker threads: 0 uses TBB's default, 1 .. `max_slice_threads` at most that many (never
  /// more than the machine runs at once). Results are identical for any count. Another value
  /// makes `slice` throw `InvalidInput`.
  int threads = 0;
  /// A BVH built over the same soup (same triangles, same ids), or null. When given and at most
  /// `bvh_plane_limit` distinct offsets are asked for, each plane's triangles are found with
  /// the BVH plane query instead of a pass over every triangle.
  const Bvh* bvh = nullptr;
  /// See `bvh`.
  std::size_t bvh_plane_limit = 8;
};

/// The sections of `soup` by the planes normal·x = d for each d in `offsets`, in the order
/// given (repeats allowed, each answered in full). Each contour's triangle ids are input ids.
/// Throws `InvalidInput` for a zero or non-finite normal, a non-finite offset, or an invalid
/// soup. The soup need not be indexed: positions decide (an STL soup chains like its indexed
/// mesh). Minetto, Volpato, Stolfi, Gregori & da Silva, "An optimal algorithm for 3D triangle
/// mesh slicing" (CAD 2017): triangles bucketed by the planes they span in one pass, contours
/// chained per plane in time linear in its segments.
[[nodiscard]] std::vector<Section> slice(const TriangleSoup& soup, const Vec3& normal,
                                         std::span<const float> offsets,
                                         const SliceOptions& options = {},
                                         SliceStats* stats = nullptr);

/// The section of `soup` by one plane (see the other overload).
[[nodiscard]] Section slice(const TriangleSoup& soup, const Plane& plane,
                            const SliceOptions& options = {}, SliceStats* stats = nullptr);

/// The lowest and highest value of normal·v over the soup's vertices, each rounded to the
/// nearest float; {0, 0} for an empty soup.
struct Extent {
  double low = 0;   ///< Smallest normal·v (in double: it may lie beyond the float range).
  double high = 0;  ///< Largest normal·v.
};

/// The extent of `soup` along `normal` (not normalised: the values are normal·v).
[[nodiscard]] Extent extent_along(const TriangleSoup& soup, const Vec3& normal);

/// `layers` offsets at the centres of equal layers of the extent: low + (i + 1/2)·(high −
/// low)/layers for i = 0 .. layers − 1, computed in double and rounded to float (so no plane
/// lies on the mesh's lowest or highest vertex), a value beyond the float range to ±FLT_MAX.
/// Empty for 0 layers or an empty soup.
[[nodiscard]] std::vector<float> layer_offsets(const Extent& extent, std::size_t layers);

/// Offsets `step` apart at layer centres: low + (i + 1/2)·step for i = 0, 1, ... while the
/// value is below high; when even the first is not (low + step/2 >= high), the one offset
/// (low + high)/2, so that every offset lies inside the extent. Computed in double and rounded
/// to float as `layer_offsets` rounds. `step` must be finite and positive; throws
/// `InvalidInput` otherwise or when more than `max_offsets` would result.
[[nodiscard]] std::vector<float> step_offsets(const Extent& extent, float step,
                                              std::size_t max_offsets = 10'000'000);

}  // namespace trisect
