#pragma once
/// \file
/// The ray kernels this processor runs, for tests that check each of them.

#include "bvh/ray_kernels.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace trisect::testing {

/// The portable kernel always, the AVX2 one where the processor has it (a warning otherwise).
inline std::vector<detail::RayKernel> ray_kernels() {
  std::vector<detail::RayKernel> kernels{detail::RayKernel::four_lane};
  if (detail::available(detail::RayKernel::eight_lane))
    kernels.push_back(detail::RayKernel::eight_lane);
  else
    WARN("no AVX2 here: only the portable ray kernel is tested");
  return kernels;
}

}  // namespace trisect::testing
