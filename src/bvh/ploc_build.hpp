#pragma once
// The clustering builder behind `BuildMethod::ploc`. Internal.

#include "trisect/bvh/build.hpp"

namespace trisect::detail {

// The BVH of a non-empty `soup` whose shape is valid (`soup_shape_is_valid`) by locally-ordered
// clustering (see `BuildMethod::ploc`), on the calling task arena. Checks the triangles as it
// reads them: throws as `validate(soup)` does when one is invalid.
[[nodiscard]] Bvh build_ploc(const TriangleSoup& soup, const BuildOptions& options);

}  // namespace trisect::detail
