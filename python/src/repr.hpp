#pragma once
// Text of the module's reprs: numbers in their shortest form that reads back to the same value,
// counts with the noun in singular or plural.

#include <trisect/math/vec.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <string>

namespace trisect::python {

/// `value` as the shortest decimal text that reads back to the same float or double ("0.1",
/// "1", "1e+20", "-0", "inf"), as Python's repr chooses digits.
template <typename Number>
[[nodiscard]] std::string shortest(Number value) {
  std::array<char, 64> buffer{};  // the longest double is 24 characters
  const std::to_chars_result written =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), written.ptr);
}

/// A point as "[x, y, z]", each coordinate `shortest`.
[[nodiscard]] inline std::string point_text(const Vec3& point) {
  return "[" + shortest(point.x) + ", " + shortest(point.y) + ", " + shortest(point.z) + "]";
}

/// "1 triangle", "0 triangles", "4 triangles": `count` and the noun, `plural` unless one.
[[nodiscard]] inline std::string counted(std::size_t count, const char* singular,
                                         const char* plural) {
  return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

}  // namespace trisect::python
