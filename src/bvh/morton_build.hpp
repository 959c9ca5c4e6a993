#pragma once
// The fast builder behind `BuildMethod::morton`. Internal.

#include "trisect/bvh/build.hpp"

namespace trisect::detail {

// The BVH of a valid, non-empty `soup` by Morton order (see `BuildMethod::morton`), on the
// calling task arena.
[[nodiscard]] Bvh build_morton(const TriangleSoup& soup, const BuildOptions& options);

}  // namespace trisect::detail
