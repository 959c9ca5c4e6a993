#include "support/slice_oracle.hpp"

#include <numeric>

namespace trisect::oracle {
namespace {

QVec3 edge_point(const Plane& plane, const Vec3& below, const Vec3& above) {
  const QVec3 n = rational(plane.normal);
  const mpq_class d = rational(plane.d);
  const QVec3 p = rational(below), q = rational(above);
  const mpq_class sp = dot(n, p) - d, sq = dot(n, q) - d;
  const mpq_class t = sp / (sp - sq);
  QVec3 point;
  for (int i = 0; i < 3; ++i)
    point[std::size_t(i)] = p[std::size_t(i)] + t * (q[std::size_t(i)] - p[std::size_t(i)]);
  return point;
}

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::array<float, 6> edge_key(const std::array<Vec3, 2>& edge) {
  return {edge[0].x + 0.0f, edge[0].y + 0.0f, edge[0].z + 0.0f,
          edge[1].x + 0.0f, edge[1].y + 0.0f, edge[1].z + 0.0f};
}

std::vector<ExactSegment> exact_segments(const TriangleSoup& soup, const Plane& plane) {
  std::vector<ExactSegment> segments;
  for (std::size_t t = 0; t < soup.size(); ++t) {
    const Triangle triangle = soup.triangle(t);
    const std::array<Vec3, 3> v{triangle.a, triangle.b, triangle.c};
    std::array<bool, 3> below{};
    for (std::size_t k = 0; k < 3; ++k) below[k] = side(plane, v[k]) < 0;
    if (below[0] == below[1] && below[1] == below[2]) continue;
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
    ExactSegment segment{TriangleId(t), {}, {}, {}, {}};
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t next = (k + 1) % 3;
      if (!below[k] && below[next]) {  // falls from above to below
        segment.from_edge = {v[next], v[k]};
        segment.from = edge_point(plane, v[next], v[k]);
      }
      if (below[k] && !below[next]) {  // rises from below to above
        segment.to_edge = {v[k], v[next]};
        segment.to = edge_point(plane, v[k], v[next]);
      }
    }
    segments.push_back(segment);
  }
  return segments;
}

std::map<std::array<float, 6>, int> edge_uses(const std::vector<ExactSegment>& segments) {
  std::map<std::array<float, 6>, int> uses;
  for (const ExactSegment& segment : segments) {
    ++uses[edge_key(segment.from_edge)];
    ++uses[edge_key(segment.to_edge)];
  }
  return uses;
}

std::size_t contour_count(const std::vector<ExactSegment>& segments) {
  std::map<std::array<float, 6>, std::vector<std::size_t>> segments_at;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    segments_at[edge_key(segments[i].from_edge)].push_back(i);
    segments_at[edge_key(segments[i].to_edge)].push_back(i);
  }
  std::vector<std::size_t> parent(segments.size());
  std::iota(parent.begin(), parent.end(), std::size_t(0));
  for (const auto& [edge, at] : segments_at)
    if (at.size() == 2) parent[find_root(parent, at[0])] = find_root(parent, at[1]);
  std::size_t roots = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) roots += find_root(parent, i) == i ? 1u : 0u;
  return roots;
}

}  // namespace trisect::oracle
