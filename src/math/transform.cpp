// Compiled with -ffp-contract=off: the rounding rule forbids fused multiply-adds.
#include "transform_rows.hpp"

#include "trisect/math/validate.hpp"

#include <cmath>
#include <string>

namespace trisect {

Vec3 Transform::apply(const Vec3& point) const noexcept {
  return detail::transform_point(*this, point);
}

void validate(const Transform& transform, const char* what) {
  for (std::size_t k = 0; k < transform.rows.size(); ++k)
    if (!std::isfinite(transform.rows[k]))
      throw InvalidInput(std::string(what) + ": number " + std::to_string(k + 1) +
                         " is not finite");
}

}  // namespace trisect
