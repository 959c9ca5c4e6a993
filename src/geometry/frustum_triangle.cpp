#include "trisect/geometry/frustum_triangle.hpp"

#include "trisect/geometry/plane_point.hpp"
#include "trisect/math/detail/lifted3.hpp"
#include "trisect/math/exact.hpp"

#include <array>

namespace trisect {
namespace {

/// One half-plane α u + β v <= γ of the triangle's parameters, in a form shared by the plane
/// and the triangle constraints so that every coefficient has one expression type:
/// α = N·(b - a) + p, β = N·(c - a) + q, γ = D - N·a. A plane n·x <= d has N = n, D = d,
/// p = q = 0; the triangle's own bounds have N = 0: -u <= 0, -v <= 0 and u + v <= 1.
struct HalfPlane {
  Vec3 n{0.0f};
  float d = 0, p = 0, q = 0;
};

using HalfPlanes = std::array<HalfPlane, 9>;

HalfPlanes half_planes(const Frustum& frustum) {
  HalfPlanes all;
  for (std::size_t k = 0; k < 6; ++k)
    all[k] = {frustum.planes[k].normal, frustum.planes[k].d, 0.0f, 0.0f};
  all[6] = {Vec3(0.0f), 0.0f, -1.0f, 0.0f};  // -u <= 0
  all[7] = {Vec3(0.0f), 0.0f, 0.0f, -1.0f};  // -v <= 0
  all[8] = {Vec3(0.0f), 1.0f, 1.0f, 1.0f};   // u + v <= 1
  return all;
}

template <class Lift>
[[nodiscard]] auto lifted(const Vec3& v, const Lift& lift) {
  return detail::Lifted3{lift(v.x), lift(v.y), lift(v.z)};
}

/// The coefficients of a half-plane α u + β v <= γ, lifted.
template <class A, class B, class C>
struct Coefficients {
  A alpha;
  B beta;
  C gamma;
};
template <class A, class B, class C>
Coefficients(A, B, C) -> Coefficients<A, B, C>;

/// The coefficients of `h` for the triangle `t`, lifted.
template <class Lift>
[[nodiscard]] auto coefficients(const HalfPlane& h, const Triangle& t, const Lift& lift) {
  const auto n = lifted(h.n, lift);
  return Coefficients{detail::dot(n, detail::difference(t.b, t.a, lift)) + lift(h.p),
                      detail::dot(n, detail::difference(t.c, t.a, lift)) + lift(h.q),
                      lift(h.d) - detail::dot(n, lifted(t.a, lift))};
}

/// True when the crossing point of half-planes i and j (independent normals) satisfies every
/// half-plane. With det = α_i β_j - α_j β_i, the point is (U, V) / det, U = γ_i β_j - γ_j β_i,
/// V = α_i γ_j - α_j γ_i; half-plane k holds there iff sign(det)·(α_k U + β_k V - γ_k det)
/// <= 0.
bool vertex_is_feasible(const HalfPlanes& all, std::size_t i, std::size_t j, const Triangle& t) {
  const int det_sign = exact::sign_of([&](auto lift) {
    const auto ci = coefficients(all[i], t, lift), cj = coefficients(all[j], t, lift);
    return ci.alpha * cj.beta - cj.alpha * ci.beta;
  });
  if (det_sign == 0) return false;
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (k == i || k == j) continue;
    const int sign = exact::sign_of([&](auto lift) {
      const auto ci = coefficients(all[i], t, lift), cj = coefficients(all[j], t, lift),
                 ck = coefficients(all[k], t, lift);
      const auto det = ci.alpha * cj.beta - cj.alpha * ci.beta;
      const auto u = ci.gamma * cj.beta - cj.gamma * ci.beta;
      const auto v = ci.alpha * cj.gamma - cj.alpha * ci.gamma;
      return ck.alpha * u + ck.beta * v - ck.gamma * det;
    });
    if (sign * det_sign > 0) return false;
  }
  return true;
}

}  // namespace

bool intersects(const Triangle& triangle, const Frustum& frustum) {
  bool vertex_inside[3] = {true, true, true};
  const Vec3* vertices[3] = {&triangle.a, &triangle.b, &triangle.c};
  for (const Plane& plane : frustum.planes) {
    bool all_in_front = true;
    for (int k = 0; k < 3; ++k) {
      const bool in_front = classify(plane, *vertices[k]) == Side::above;
      all_in_front = all_in_front && in_front;
      vertex_inside[k] = vertex_inside[k] && !in_front;
    }
    if (all_in_front) return false;
  }
  if (vertex_inside[0] || vertex_inside[1] || vertex_inside[2]) return true;
  const HalfPlanes all = half_planes(frustum);
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      if (vertex_is_feasible(all, i, j, triangle)) return true;
  return false;
}

}  // namespace trisect
