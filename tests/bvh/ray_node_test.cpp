// The float ray nodes (Bvh::ray_nodes), made on request: each is its wide node decoded, with
// whole child references; refit keeps them in step; rays on them answer as on the wide nodes; a ray
// whose slab test passes every lane (a direction too small for its reciprocals) walks through the
// empty unused lanes harmlessly.
#include "support/exact_ray_oracle.hpp"
#include "support/ray_check.hpp"
#include "support/ray_kernels.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/bvh/ray_stream.hpp>
#include <trisect/bvh/refit.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace trisect::testing {
namespace {

// Checks the reference `ref` of wide node `index`, whose slot range is [first, end), and the
// nodes below it: a ray node (in `next` order of wide nodes that are not bottom nodes) is its
// wide node decoded, a bottom node's reference names its wide node and span, a leaf's its
// slots. Adds the slots of the leaves to `covered`.
void check_ref(const Bvh& bvh, std::uint64_t ref, std::uint32_t index, std::uint32_t first,
               std::uint32_t end, std::vector<int>& covered) {
  const WideNode& wide = bvh.wide[index];
  INFO("node " << index);
  if (wide.holds_only_leaves()) {
    REQUIRE(RayNode::is_bottom(ref));
    CHECK(RayNode::index(ref) == index);
    CHECK(RayNode::span(ref) == end - first);
  } else {
    REQUIRE_FALSE(RayNode::is_leaf(ref));
    REQUIRE_FALSE(RayNode::is_bottom(ref));
    REQUIRE(ref < bvh.ray_nodes.size());
    // Ray nodes follow the wide order: as many come before as non-bottom wide nodes do.
    std::uint64_t before = 0;
    for (std::uint32_t i = 0; i < index; ++i) before += bvh.wide[i].holds_only_leaves() ? 0u : 1u;
    CHECK(ref == before);
  }
  const RayNode* ray = RayNode::is_bottom(ref) ? nullptr : &bvh.ray_nodes[ref];
  for (int lane = 0; lane < WideNode::width; ++lane) {
    INFO("lane " << lane);
    const std::uint32_t child_end = wide.child_end(lane, end);
    if ((wide.used_mask() >> lane & 1) == 0) {
      if (ray == nullptr) continue;
      CHECK(RayNode::is_leaf(ray->ref[lane]));
      CHECK(RayNode::count(ray->ref[lane]) == 0);
      for (int axis = 0; axis < 3; ++axis) {
        CHECK(ray->bounds[2 * axis][lane] == std::numeric_limits<float>::infinity());
        CHECK(ray->bounds[2 * axis + 1][lane] == -std::numeric_limits<float>::infinity());
      }
      continue;
    }
    if (ray != nullptr)
      for (int row = 0; row < 6; ++row) CHECK(ray->bounds[row][lane] == wide.face(row, lane));
    if (wide.child[lane] == WideNode::leaf) {
      if (ray != nullptr) {
        REQUIRE(RayNode::is_leaf(ray->ref[lane]));
        CHECK(RayNode::index(ray->ref[lane]) == wide.first[lane]);
        CHECK(RayNode::count(ray->ref[lane]) == child_end - wide.first[lane]);
      }
      for (std::uint32_t slot = wide.first[lane]; slot < child_end; ++slot) ++covered[slot];
    } else {
      REQUIRE(ray != nullptr);  // a bottom node has only leaves
      check_ref(bvh, ray->ref[lane], wide.child[lane], wide.first[lane], child_end, covered);
    }
  }
}

// Every ray node of `bvh` against its wide node, from the walk's root; every slot in exactly
// one leaf; as many ray nodes as wide nodes that are not bottom nodes.
void check_ray_nodes(const Bvh& bvh) {
  REQUIRE(bvh.has_ray_nodes());
  std::vector<int> covered(bvh.size(), 0);
  const auto size = static_cast<std::uint32_t>(bvh.size());
  const std::uint64_t root =
      bvh.wide[0].holds_only_leaves() ? RayNode::bottom_ref(0, size) : std::uint64_t{0};
  check_ref(bvh, root, 0, 0, size, covered);
  CHECK(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }));
  std::size_t upper = 0;
  for (const WideNode& node : bvh.wide) upper += node.holds_only_leaves() ? 0u : 1u;
  CHECK(bvh.ray_nodes.size() == upper);
}

TEST_CASE("each ray node is its wide node decoded, with whole child references", "[bvh][ray]") {
  // Small scenes have a bottom root; the large one has ray nodes above its bottom nodes.
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
      INFO("method " << static_cast<int>(method));
      check_ray_nodes(build(scene.soup(), {.method = method, .ray_nodes = true}));
    }
  }
}

TEST_CASE("ray nodes are made on request, and a stream on them answers as single rays without",
          "[bvh][ray]") {
  const Scene scene = noisy_sphere(40, 50, 8);
  const Bvh plain = build(scene.soup());
  CHECK(plain.ray_nodes.empty());
  Bvh with_nodes = plain;
  refresh_ray_nodes(with_nodes);  // as after a load
  check_ray_nodes(with_nodes);
  std::vector<Ray> rays;
  const Vec3 centre = scene.bounds().center();
  for (int i = 0; i < 300; ++i) {
    const float angle = 0.021f * static_cast<float>(i);
    const Vec3 from = centre + Vec3(3.0f * std::cos(angle), 3.0f * std::sin(angle),
                                    0.01f * static_cast<float>(i));
    rays.push_back(Ray{from, centre - from + Vec3(0.0f, 0.0f, 0.3f * std::sin(3.0f * angle))});
  }
  std::vector<std::optional<Hit>> hits(rays.size());
  closest_hits(with_nodes, rays, hits);
  std::vector<std::uint8_t> any(rays.size());
  any_hits(with_nodes, rays, any);
  int hit_count = 0;
  for (std::size_t i = 0; i < rays.size(); ++i) {
    INFO("ray " << i);
    const auto expected = closest_hit(plain, rays[i]);
    REQUIRE(hits[i].has_value() == expected.has_value());
    CHECK(any[i] == (expected ? 1 : 0));
    if (!expected) continue;
    ++hit_count;
    CHECK(hits[i]->id == expected->id);
    CHECK(hits[i]->t == expected->t);
  }
  CHECK(hit_count > 100);
}

TEST_CASE("refit keeps the ray nodes in step with the refitted wide nodes", "[bvh][ray]") {
  Scene scene = noisy_sphere(30, 40, 5);
  Bvh without = build(scene.soup());
  Bvh bvh = build(scene.soup(), {.ray_nodes = true});
  for (Vec3& p : scene.positions) p = Vec3(p.x * 2.0f + 1.0f, p.y * 0.5f, p.z + p.x);
  refit(bvh, scene.soup());
  check_ray_nodes(bvh);
  refit(without, scene.soup());
  CHECK(without.ray_nodes.empty());  // made on request only
  const std::vector<TriangleId> changed{0, 7};
  scene.positions[0] += Vec3(3.0f, 0.0f, 0.0f);  // a corner of triangle 0 (a plain soup)
  refit(bvh, scene.soup(), changed);
  check_ray_nodes(bvh);
}

TEST_CASE("a direction too small for its reciprocals passes every lane and walks safely",
          "[bvh][ray]") {
  // Few triangles: the root has unused lanes, which such a ray's slab test cannot rule out.
  const Scene scene = random_soup(5, 9);
  const Bvh bvh = build(scene.soup(), {.ray_nodes = true});
  REQUIRE(bvh.wide[0].used_mask() != 0xffu);
  const Vec3 centre = scene.bounds().center();
  for (const Vec3 direction : {Vec3(1e-39f, 1e-39f, 1e-39f), Vec3(-1e-39f, 2e-39f, -3e-39f)}) {
    const Ray ray{centre - direction * 1e38f, direction};
    for (const detail::RayKernel kernel : ray_kernels()) {
      INFO("kernel " << static_cast<int>(kernel));
      const auto exact = oracle::closest_hits(scene.soup(), ray);
      check_closest_hit(scene.soup(), ray, exact, detail::closest_hit_with(kernel, bvh, ray));
      CHECK(detail::any_hit_with(kernel, bvh, ray) == exact.has_value());
    }
  }
}

}  // namespace
}  // namespace trisect::testing
