#pragma once
/// \file
/// Sorting a query's answer: triangle ids below a known bound. Not part of the API (installed
/// for `collect_touching`, which is inline; no stability promised).

#include "trisect/mesh/triangle_soup.hpp"

#include <cstddef>
#include <span>

namespace trisect::detail {

/// Sorts `ids` ascending; every id must be below `id_bound`. Large answers use a least
/// significant digit radix sort with digits of at most 8 bits, or 11 bits for answers of 1024
/// ids or more, in as few passes as `id_bound` needs (3 or 2 for up to 2^24 triangles), which
/// costs a few operations per id where a comparison sort pays a mispredicted branch per
/// comparison; small answers use std::sort.
void sort_ids(std::span<TriangleId> ids, std::size_t id_bound);

}  // namespace trisect::detail
