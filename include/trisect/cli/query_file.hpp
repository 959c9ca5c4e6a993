#pragma once
// The query file of `trisect query`: one query per line (see docs/contracts.md, the `trisect query`
// contract, and `trisect query --help`).

#include <trisect/error.hpp>
#include <trisect/math/aabb.hpp>
#include <trisect/math/capsule.hpp>
#include <trisect/math/frustum.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/plane.hpp>
#include <trisect/math/ray.hpp>
#include <trisect/math/sphere.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace trisect::cli {

/// `closest X Y Z [RMAX]`: the nearest triangle to a point, within RMAX (+inf by default).
struct ClosestQuery {
  Vec3 point{0.0f};                                             ///< Finite.
  float max_distance = std::numeric_limits<float>::infinity();  ///< >= 0, +inf allowed.
};

/// `nearest K X Y Z [RMAX]`: the K nearest triangles to a point, within RMAX (+inf by default).
struct NearestQuery {
  std::size_t k = 1;                                            ///< >= 1.
  Vec3 point{0.0f};                                             ///< Finite.
  float max_distance = std::numeric_limits<float>::infinity();  ///< >= 0, +inf allowed.
};

/// `cast` + an oriented box's 15 numbers + `MX MY MZ`: the box moved by t·M, t in [0, 1].
struct CastQuery {
  OrientedBox box;    ///< Valid.
  Vec3 motion{0.0f};  ///< Finite.
};

/// `inside X Y Z`: inside, outside or on the (closed) mesh.
struct InsideQuery {
  Vec3 point{0.0f};      ///< Finite.
  std::size_t line = 0;  ///< Its line in the query file (named when the mesh is not closed).
};

/// One parsed query line.
using Query = std::variant<Aabb, Plane, Sphere, Capsule, OrientedBox, Frustum, Ray, ClosestQuery,
                           NearestQuery, CastQuery, InsideQuery>;

/// A malformed query file; what() is "<file>:<line>: <problem>".
class QueryFileError : public Error {
 public:
  using Error::Error;
};

/// Parses a whole query file, which must be text (`is_binary_byte`: a binary byte anywhere is
/// an error naming its line and offset, as `binary_data_problem` words it). Lines are read by
/// `LineScanner` (a trailing CR dropped, a leading UTF-8 byte order mark skipped) and split on
/// spaces and tabs; blank lines and lines whose first non-blank character is '#' are skipped.
/// Each other line is `box X0 Y0 Z0 X1 Y1 Z1`, `plane NX NY NZ D`, `sphere CX CY CZ R`,
/// `capsule AX AY AZ BX BY BZ R`, `obb CX CY CZ UX UY UZ VX VY VZ WX WY WZ HU HV HW`,
/// `frustum` followed by six planes `NX NY NZ D` (the points with NX·x + NY·y + NZ·z <= D),
/// `cast` followed by an `obb`'s 15 numbers and a motion `MX MY MZ`,
/// `ray OX OY OZ DX DY DZ [TMIN [TMAX]]`, `closest X Y Z [RMAX]`, `nearest K X Y Z [RMAX]` or
/// `inside X Y Z`. Numbers are read as strtof reads them (rounded straight to float); K is a
/// whole decimal number from 1 to 2^32 - 1. Infinity is accepted for box bounds, the
/// sphere radius and the ray's TMIN/TMAX and RMAX; NaN anywhere, other infinities, a zero plane
/// normal, a zero ray direction and a negative radius or RMAX are errors. Throws `QueryFileError`
/// naming `file_name` and the line.
[[nodiscard]] std::vector<Query> parse_query_file(std::string_view content,
                                                  const std::string& file_name);

}  // namespace trisect::cli
