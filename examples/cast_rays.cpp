// Casts a few rays at a mesh through trisect's BVH and prints, for each, the closest hit (its
// ray parameter t and triangle id) and whether any hit exists; then every hit along each ray
// (for_each_hit), and the closest hits of all the rays as one stream (closest_hits, on TBB's
// threads). Rays are watertight and exact: a ray through a shared edge hits there.
//
//   cast_rays [MESH | cube]    default: the shared bunny ($TRISECT_MESH_DIR), else the cube
//
// The rays start outside the mesh's bounds and aim at points inside them. Each answer is
// checked against a brute-force loop over every triangle; the exit status is 1 when one
// differs (so it runs as a test).
#include "example_mesh.hpp"

#include <trisect/trisect.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>
#include <vector>

namespace {

// The smallest t at which `ray` hits a triangle of `soup`, by testing every triangle.
std::optional<double> brute_force_closest_t(const trisect::TriangleSoup& soup,
                                            const trisect::Ray& ray) {
  std::optional<double> closest;
  for (std::size_t id = 0; id < soup.size(); ++id)
    if (const auto hit = trisect::intersect(ray, soup.triangle(id)))
      if (!closest || hit->t < *closest) closest = hit->t;
  return closest;
}

// The number of triangles of `soup` that `ray` hits, by testing every triangle.
std::size_t brute_force_hit_count(const trisect::TriangleSoup& soup, const trisect::Ray& ray) {
  std::size_t count = 0;
  for (std::size_t id = 0; id < soup.size(); ++id)
    if (trisect::intersect(ray, soup.triangle(id))) ++count;
  return count;
}

// The rays: from beyond each side of the bounds towards points inside, and one whose t_max
// stops it short of the mesh.
std::vector<trisect::Ray> make_rays(const trisect::Aabb& bounds) {
  const trisect::Vec3 low = bounds.min, size = bounds.max - bounds.min;
  const auto inside = [&](float x, float y, float z) {
    return low + size * trisect::Vec3(x, y, z);
  };
  const trisect::Vec3 above = inside(0.25f, 0.75f, 2.5f), right = inside(2.5f, 0.25f, 0.75f);
  return {
      {above, trisect::Vec3(0, 0, -1)},                       // straight down
      {right, trisect::Vec3(-1, 0, 0)},                       // from the +x side
      {inside(-1.5f, -1.5f, -1.5f), trisect::Vec3(1, 1, 1)},  // along the diagonal
      {above, trisect::Vec3(1, 0, 0)},                        // passes above: a miss
      {above, trisect::Vec3(0, 0, -1), 0.0f, 1.0f * size.z},  // t_max short of the mesh
  };
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const trisect::Mesh mesh = example::load_example_mesh(argc > 1 ? argv[1] : nullptr);
    const trisect::TriangleSoup soup = mesh.soup();
    const trisect::Bvh bvh = trisect::build(soup);
    int wrong = 0;
    const std::vector<trisect::Ray> rays = make_rays(bvh.bounds());
    for (const trisect::Ray& ray : rays) {
      // closest_hit: the hit with the smallest t in [t_min, t_max]; any_hit stops at the first.
      const std::optional<trisect::Hit> hit = trisect::closest_hit(bvh, ray);
      const bool any = trisect::any_hit(bvh, ray);
      std::printf("ray (%g %g %g) dir (%g %g %g): ", double(ray.origin.x), double(ray.origin.y),
                  double(ray.origin.z), double(ray.direction.x), double(ray.direction.y),
                  double(ray.direction.z));
      if (hit)
        std::printf("closest t %.9g id %u, any hit %s\n", double(hit->t), hit->id,
                    any ? "yes" : "no");
      else
        std::printf("miss, any hit %s\n", any ? "yes" : "no");
      // The same answer by testing every triangle: the same t to within the 1e-6 relative
      // error each side allows (ties may pick another id).
      const std::optional<double> expected = brute_force_closest_t(soup, ray);
      const bool agrees = hit.has_value() == expected.has_value() && any == hit.has_value() &&
                          (!hit || std::fabs(hit->t - *expected) <= 2e-6 * std::fabs(*expected));
      if (!agrees) std::printf("  brute force disagrees\n");
      wrong += agrees ? 0 : 1;
    }
    // Every hit along each ray, in no particular order (return false to stop early).
    std::printf("all hits per ray:");
    for (const trisect::Ray& ray : rays) {
      std::size_t hits = 0;
      trisect::for_each_hit(bvh, ray, [&](const trisect::Hit&) {
        ++hits;
        return true;
      });
      std::printf(" %zu", hits);
      wrong += hits == brute_force_hit_count(soup, ray) ? 0 : 1;
    }
    std::printf("\n");
    // The whole batch as one stream: the same answers as one call per ray.
    std::vector<std::optional<trisect::Hit>> stream(rays.size());
    trisect::closest_hits(bvh, rays, stream);
    bool same = true;
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const std::optional<trisect::Hit> single = trisect::closest_hit(bvh, rays[i]);
      same = same && stream[i].has_value() == single.has_value() &&
             (!single || (stream[i]->id == single->id && stream[i]->t == single->t));
    }
    std::printf("closest_hits over the %zu rays: %s\n", rays.size(),
                same ? "the same answers" : "different answers");
    wrong += same ? 0 : 1;
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cast_rays: %s\n", error.what());
    return 2;
  }
}
