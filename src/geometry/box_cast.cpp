#include "trisect/geometry/box_cast.hpp"

#include "geometry/contact_time.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace trisect {
namespace detail {
namespace {

/// The thirteen axes of the pair: three face normals, the triangle normal, nine axis × edge.
struct Axes {
  CastAxis axis[13];
};

Axes cast_axes(const Triangle& t, const OrientedBox& box) {
  Axes all;
  const Vec3 zero(0.0f);
  for (int i = 0; i < 3; ++i)
    all.axis[i] = {zero, box.axes[(i + 1) % 3], zero, box.axes[(i + 2) % 3],
                   (1u << ((i + 1) % 3)) | (1u << ((i + 2) % 3))};
  all.axis[3] = {t.a, t.b, t.a, t.c, 0u, 3};
  const Vec3* vertices[3] = {&t.a, &t.b, &t.c};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      all.axis[4 + 3 * i + k] = {zero, box.axes[i], *vertices[k], *vertices[(k + 1) % 3], 1u << i,
                                 k};
  return all;
}

/// The vertex of the triangle lowest (`highest` false) or highest along L, exactly. Vertices
/// that L projects to one value by construction (`level_edge`) are not compared: the filtered
/// sign of an exact 0 always falls back to exact arithmetic.
const Vec3& extreme_vertex(const CastAxis& axis, const Triangle& t, bool highest) {
  const Vec3* vertices[3] = {&t.a, &t.b, &t.c};
  if (axis.level_edge == 3) return t.a;
  const auto better = [&](const Vec3& v, const Vec3& than) {
    const int order = exact::sign_of(
        [&](auto lift) { return dot(axis.vector(lift), difference(v, than, lift)); });
    return highest ? order > 0 : order < 0;
  };
  if (axis.level_edge >= 0) {
    const Vec3& on_edge = *vertices[axis.level_edge];
    const Vec3& other = *vertices[(axis.level_edge + 2) % 3];
    return better(other, on_edge) ? other : on_edge;
  }
  const Vec3* best = &t.a;
  for (const Vec3* v : {&t.b, &t.c})
    if (better(*v, *best)) best = v;
  return *best;
}

}  // namespace

std::optional<ContactTime> first_contact_time(const Triangle& triangle, CastMotion motion) {
  const OrientedBox& box = *motion.box;
  ContactTime entry = ContactTime::constant(motion, 0, 1);
  ContactTime exit = ContactTime::constant(motion, 1, 1);
  const Axes all = cast_axes(triangle, box);
  for (const CastAxis& axis : all.axis) {
    // R = Σ h_m |L·e_m|: the coefficients s_m h_m, with s_m the exact sign of L·e_m.
    float reach[3];
    for (int m = 0; m < 3; ++m) {
      const float h = box.half_extents[m];
      const bool zero_term = h == 0 || ((axis.orthogonal >> m) & 1u) != 0;
      const int s = zero_term ? 0 : exact::sign_of([&](auto lift) {
        return dot(axis.vector(lift),
                   Lifted3{lift(box.axes[m].x), lift(box.axes[m].y), lift(box.axes[m].z)});
      });
      reach[m] = s > 0 ? h : (s < 0 ? -h : 0.0f);
    }
    const float minus_reach[3] = {-reach[0], -reach[1], -reach[2]};
    const Vec3& low = extreme_vertex(axis, triangle, false);
    const Vec3& high = extreme_vertex(axis, triangle, true);
    const int speed = exact::sign_of([&](auto lift) {
      return dot(axis.vector(lift),
                 Lifted3{lift(motion.motion->x), lift(motion.motion->y), lift(motion.motion->z)});
    });
    // lo = L·(low - c) - R and hi = L·(high - c) + R; overlap while lo <= t (L·v) <= hi.
    const ContactTime lo =
        ContactTime::axis_end(motion, axis, low, minus_reach, speed >= 0 ? 1 : -1);
    const ContactTime hi = ContactTime::axis_end(motion, axis, high, reach, speed >= 0 ? 1 : -1);
    if (speed == 0) {
      // Not moving along L: the projections overlap always (lo <= 0 <= hi) or never.
      if (lo.numerator_sign() > 0 || hi.numerator_sign() < 0) return std::nullopt;
      continue;
    }
    const ContactTime& enter = speed > 0 ? lo : hi;
    const ContactTime& leave = speed > 0 ? hi : lo;
    if (compare(enter, entry) > 0) entry = enter;
    if (compare(leave, exit) < 0) exit = leave;
    if (compare(entry, exit) > 0) return std::nullopt;
  }
  return entry;
}

float ContactTime::nearest_float() const {
  // A first guess from the exact value rounded roughly, then exact comparisons with the
  // midpoints between neighbouring floats (a midpoint of two floats is a double).
  const double guess = numerator(exact::ExpansionLift{}).approximate() /
                       denominator(exact::ExpansionLift{}).approximate();
  float f = static_cast<float>(guess);
  const float inf = std::numeric_limits<float>::infinity();
  for (;;) {
    const float up = std::nextafter(f, inf);
    const int above = compare(0.5 * (double(f) + double(up)));
    if (above > 0 || (above == 0 && (std::bit_cast<std::uint32_t>(f) & 1u))) {
      f = up;
      continue;
    }
    const float down = std::nextafter(f, -inf);
    const int below = compare(0.5 * (double(f) + double(down)));
    if (below < 0 || (below == 0 && (std::bit_cast<std::uint32_t>(f) & 1u))) {
      f = down;
      continue;
    }
    return f == 0 ? 0.0f : f;  // times are >= 0: never -0
  }
}

}  // namespace detail

std::optional<float> first_contact(const Triangle& triangle, const OrientedBox& box,
                                   const Vec3& motion) {
  const std::optional<detail::ContactTime> time =
      detail::first_contact_time(triangle, detail::CastMotion{&box, &motion});
  if (!time) return std::nullopt;
  return time->nearest_float();
}

}  // namespace trisect
