#include "support/ray_brute_force.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect::oracle {

bool may_hit(const Ray& ray, const Triangle& triangle) {
  const Aabb box = triangle.bounds();
  constexpr double infinity = std::numeric_limits<double>::infinity();
  double entered = -infinity, exited = infinity;
  for (int axis = 0; axis < 3; ++axis) {
    const double origin = ray.origin[axis], direction = ray.direction[axis];
    const double low = box.min[axis], high = box.max[axis];
    const double margin =
        1e-6 * std::max({std::fabs(low), std::fabs(high), std::fabs(origin)}) + 1e-300;
    if (direction == 0) {
      if (origin < low - margin || origin > high + margin) return false;
      continue;
    }
    double first = (low - margin - origin) / direction,
           second = (high + margin - origin) / direction;
    if (first > second) std::swap(first, second);
    entered = std::max(entered, first);
    exited = std::min(exited, second);
  }
  const double t_min = ray.t_min, t_max = ray.t_max;
  const double slack = 1e-9 * (std::fabs(entered) + std::fabs(exited));
  return entered <= exited + slack && exited >= t_min - 1e-9 * std::fabs(t_min) - slack &&
         entered <= t_max + 1e-9 * std::fabs(t_max) + slack;
}

std::optional<ClosestHits> closest_hits(const TriangleSoup& soup, const Ray& ray) {
  std::optional<ClosestHits> best;
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle triangle = soup.triangle(id);
    if (!may_hit(ray, triangle)) continue;
    const auto found = hit(ray, triangle);
    if (!found) continue;
    const auto triangle_id = static_cast<TriangleId>(id);
    if (!best || found->t < best->t)
      best = ClosestHits{found->t, {triangle_id}};
    else if (found->t == best->t)
      best->ids.push_back(triangle_id);
  }
  return best;
}

}  // namespace trisect::oracle
