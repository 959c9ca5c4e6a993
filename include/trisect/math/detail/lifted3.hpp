#pragma once
/// \file
/// 3-vectors of lifted numbers (exact.hpp's `Filtered`, `Expansion` or any type with +, -, *)
/// for writing predicates over float points once. Not part of the API (installed because
/// public inline predicates use it).

#include "trisect/math/vec.hpp"

namespace trisect::detail {

/// A 3-vector of lifted numbers.
template <class T>
struct Lifted3 {
  T x, y, z;
};
template <class T>
Lifted3(T, T, T) -> Lifted3<T>;  // spelled out: clang before 17 deduces no aggregate

/// a - b, each coordinate lifted by `lift` first.
template <class Lift>
[[nodiscard]] auto difference(const Vec3& a, const Vec3& b, const Lift& lift) {
  return Lifted3{lift(a.x) - lift(b.x), lift(a.y) - lift(b.y), lift(a.z) - lift(b.z)};
}

/// The cross product a × b.
template <class A, class B>
[[nodiscard]] auto cross(const Lifted3<A>& a, const Lifted3<B>& b) {
  return Lifted3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// The dot product a·b.
template <class A, class B>
[[nodiscard]] auto dot(const Lifted3<A>& a, const Lifted3<B>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

}  // namespace trisect::detail
