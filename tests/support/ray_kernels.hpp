#pragma once
/// \file
/// The ray kernels this processor runs, for tests that check each of them.

#include "bvh/ray_kernels.hpp"

#include <catch2/catch.hpp>

#include <utility>
#include <vector>

namespace trisect::testing {

/// The portable kernel always, the AVX2 and AVX-512 ones where the processor has them (a
/// warning, once per run, for each it lacks).
inline std::vector<detail::RayKernel> ray_kernels() {
  static bool warned = false;
  std::vector<detail::RayKernel> kernels{detail::RayKernel::four_lane};
  for (const auto& [kernel, name] : {std::pair{detail::RayKernel::eight_lane, "AVX2"},
                                     std::pair{detail::RayKernel::mask_register, "AVX-512"}}) {
    if (detail::available(kernel))
      kernels.push_back(kernel);
    else if (!warned)
      WARN("no " << name << " here: its ray kernel is not tested");
  }
  warned = true;
  return kernels;
}

}  // namespace trisect::testing
