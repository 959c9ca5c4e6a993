#pragma once
/// \file
/// What the processor running the library can do, for kernels chosen at run time.

namespace trisect::detail {

/// True when this build has AVX2 kernels (x86-64 with GCC or Clang) and the processor runs
/// AVX2. Decided once, before main; a caller in another static initializer that runs earlier
/// sees false and takes a portable kernel, which answers the same.
[[nodiscard]] bool processor_has_avx2() noexcept;

}  // namespace trisect::detail
