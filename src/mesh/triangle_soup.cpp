#include "trisect/mesh/triangle_soup.hpp"

#include "trisect/math/validate.hpp"

#include <limits>
#include <string>

namespace trisect {

void validate(const TriangleSoup& soup) {
  const std::size_t length = soup.indices.empty() ? soup.positions.size() : soup.indices.size();
  const char* what = soup.indices.empty() ? "positions" : "indices";
  if (length % 3 != 0)
    throw InvalidInput("triangle soup: " + std::to_string(length) + " " + what +
                       " is not a multiple of 3");
  if (soup.size() >= std::numeric_limits<TriangleId>::max())
    throw InvalidInput("triangle soup: " + std::to_string(soup.size()) +
                       " triangles exceed the 32-bit id range");
  for (std::size_t i = 0; i < soup.indices.size(); ++i)
    if (soup.indices[i] >= soup.positions.size())
      throw InvalidInput("triangle soup: index " + std::to_string(i) + " (triangle " +
                         std::to_string(i / 3) + ") is " + std::to_string(soup.indices[i]) +
                         ", out of range for " + std::to_string(soup.positions.size()) +
                         " positions");
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle triangle = soup.triangle(id);
    if (!is_finite(triangle.a) || !is_finite(triangle.b) || !is_finite(triangle.c))
      validate(triangle, "triangle soup: triangle " + std::to_string(id));  // throws, naming it
  }
}

}  // namespace trisect
