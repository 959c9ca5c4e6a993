#include "trisect/math/oriented_box.hpp"

#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/detail/lifted3.hpp"
#include "trisect/math/exact.hpp"

#include <cmath>

namespace trisect {

int axes_orientation(const OrientedBox& box) {
  const auto& e = box.axes;
  return exact::sign_of([&](auto lift) {
    const auto lifted = [&](const Vec3& v) {
      return detail::Lifted3{lift(v.x), lift(v.y), lift(v.z)};
    };
    return detail::dot(lifted(e[0]), detail::cross(lifted(e[1]), lifted(e[2])));
  });
}

Aabb bounds(const OrientedBox& box) noexcept {
  Aabb result;
  for (int c = 0; c < 3; ++c) {
    // Three exact products summed: the computed reach is within 3u of the exact one, which the
    // 2^-48 raise covers; the outward conversion then keeps every float comparison right.
    double reach = 0;
    for (int i = 0; i < 3; ++i)
      reach += double(box.half_extents[i]) * std::fabs(double(box.axes[i][c]));
    reach *= 1 + 0x1p-48;
    result.min[c] = detail::float_at_most(double(box.center[c]) - reach);
    result.max[c] = detail::float_at_least(double(box.center[c]) + reach);
  }
  return result;
}

}  // namespace trisect
