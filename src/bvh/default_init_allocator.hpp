#pragma once
// An allocator that leaves new floats unwritten, for the arrays a builder fills. Internal.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace trisect {

namespace detail {
/// A `std::allocator` that default-initialises where a vector would value-initialise: sizing
/// a vector of floats leaves them unwritten, for arrays that are filled right after.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  /// Default-initialises `*p` (for a float: leaves it unwritten).
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  /// Constructs `*p` from `args`, as `std::allocator` does.
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
}  // namespace detail

}  // namespace trisect
