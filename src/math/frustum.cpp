#include "trisect/math/frustum.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>

namespace trisect {
namespace {

struct Direction {
  double x, y, z;
};

double dot(const Direction& a, const Direction& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

Direction cross(const Direction& a, const Direction& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Direction unit(const Direction& a, const char* what) {
  const double length = std::sqrt(dot(a, a));
  if (!(length > 0) || !std::isfinite(length))
    throw std::invalid_argument(std::string("view_frustum: ") + what);
  return {a.x / length, a.y / length, a.z / length};
}

Direction combine(const Direction& a, double s, const Direction& b) {
  return {a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}

}  // namespace

Frustum view_frustum(const Vec3& eye, const Vec3& forward, const Vec3& up, float fov_y,
                     float aspect, float near, float far) {
  if (!is_finite(eye)) throw std::invalid_argument("view_frustum: eye is not finite");
  if (!(fov_y > 0 && fov_y < 3.14159265f))
    throw std::invalid_argument("view_frustum: fov_y must be in (0, pi)");
  if (!(aspect > 0 && std::isfinite(aspect)))
    throw std::invalid_argument("view_frustum: aspect must be finite and > 0");
  if (!(near >= 0 && near < far && std::isfinite(near)))
    throw std::invalid_argument("view_frustum: need 0 <= near < far, near finite");
  const Direction e{eye.x, eye.y, eye.z};
  const Direction f = unit({forward.x, forward.y, forward.z}, "forward is zero or not finite");
  const Direction r = unit(cross(f, {up.x, up.y, up.z}), "up is parallel to forward");
  const Direction u = cross(r, f);
  const double tan_y = std::tan(0.5 * double(fov_y)), tan_x = tan_y * double(aspect);
  const auto plane = [&](const Direction& n, double offset) {
    const double d = std::clamp(dot(n, e) + offset, -double(FLT_MAX), double(FLT_MAX));
    return Plane{Vec3(float(n.x), float(n.y), float(n.z)), float(d)};
  };
  const double reach = std::min(double(far), double(FLT_MAX));  // +inf: the float range's end
  return Frustum{{plane({-f.x, -f.y, -f.z}, -double(near)), plane(f, reach),
                  plane(combine({-r.x, -r.y, -r.z}, -tan_x, f), 0), plane(combine(r, -tan_x, f), 0),
                  plane(combine({-u.x, -u.y, -u.z}, -tan_y, f), 0),
                  plane(combine(u, -tan_y, f), 0)}};
}

}  // namespace trisect
