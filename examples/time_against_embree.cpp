// Times a batch of box queries with trisect and with Embree on the same mesh. Embree has no box
// query, so it is emulated as the benchmarks do: rtcCollide between a scene of the triangles'
// boxes and a scene of the query boxes gives candidate pairs, and the exact triangle-box test
// keeps the touching ones. Prints both times and their ratio, and exits with status 1 when
// the two answers differ (so it runs as a test). Built only when Embree is found.
//
//   time_against_embree [MESH | cube] [QUERIES]   default: the shared bunny, else the cube; 2000
#include "embree_peer.hpp"
#include "example_mesh.hpp"

#include <trisect/trisect.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

namespace {

using Answers = std::vector<std::vector<trisect::TriangleId>>;
using Clock = std::chrono::steady_clock;

// `count` boxes, each around a random vertex, their half size 1% of the mesh's diagonal.
std::vector<trisect::Aabb> make_boxes(const trisect::Mesh& mesh, std::size_t count) {
  const trisect::Aabb bounds = trisect::build(mesh.soup()).bounds();
  const float half_size = 0.01f * glm::length(bounds.max - bounds.min);
  std::mt19937 random(1);
  std::uniform_int_distribution<std::size_t> pick(0, mesh.positions.size() - 1);
  std::vector<trisect::Aabb> boxes;
  for (std::size_t i = 0; i < count; ++i)
    boxes.push_back(
        trisect::Aabb::from_center_extents(mesh.positions[pick(random)], trisect::Vec3(half_size)));
  return boxes;
}

// What rtcCollide reports: for each candidate pair, keep the triangle when it touches the box.
struct Collisions {
  const trisect::TriangleSoup* soup;
  const std::vector<trisect::Aabb>* boxes;
  Answers* answers;
};

void on_collisions(void* user, RTCCollision* pairs, unsigned count) {
  auto& found = *static_cast<Collisions*>(user);
  for (unsigned i = 0; i < count; ++i) {
    const unsigned triangle = pairs[i].primID0, box = pairs[i].primID1;
    if (trisect::intersects(found.soup->triangle(triangle), (*found.boxes)[box]))
      (*found.answers)[box].push_back(triangle);
  }
}

// Embree's answer: the boxes' scene built and collided with the triangles' boxes' scene.
Answers embree_answers(RTCDevice device, RTCScene triangle_boxes, const trisect::TriangleSoup& soup,
                       const std::vector<trisect::Aabb>& boxes) {
  std::vector<RTCBounds> bounds;
  for (const trisect::Aabb& box : boxes) bounds.push_back(trisect::embree::to_bounds(box));
  const trisect::embree::SceneHandle queries = trisect::embree::user_box_scene(device, bounds);
  Answers answers(boxes.size());
  Collisions found{&soup, &boxes, &answers};
  rtcCollide(triangle_boxes, queries.get(), on_collisions, &found);
  for (auto& ids : answers) std::sort(ids.begin(), ids.end());
  return answers;
}

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const trisect::Mesh mesh = example::load_example_mesh(argc > 1 ? argv[1] : nullptr);
    const std::size_t count = argc > 2 ? std::stoul(argv[2]) : 2000;
    const trisect::TriangleSoup soup = mesh.soup();
    const std::vector<trisect::Aabb> boxes = make_boxes(mesh, count);

    // Both structures are built before timing: only the queries are timed, on one thread.
    const trisect::Bvh bvh = trisect::build(soup, {.threads = 1});
    const trisect::embree::Device device(1);
    std::vector<RTCBounds> triangle_bounds;
    for (std::size_t id = 0; id < soup.size(); ++id)
      triangle_bounds.push_back(trisect::embree::to_bounds(soup.triangle(id).bounds()));
    const trisect::embree::SceneHandle triangle_boxes =
        trisect::embree::user_box_scene(device.get(), triangle_bounds);

    auto start = Clock::now();
    Answers trisect_answers;
    for (const trisect::Aabb& box : boxes)
      trisect_answers.push_back(trisect::collect_touching(bvh, box));
    const double trisect_ms = milliseconds_since(start);

    start = Clock::now();
    const Answers embree = embree_answers(device.get(), triangle_boxes.get(), soup, boxes);
    const double embree_ms = milliseconds_since(start);

    std::size_t found = 0;
    for (const auto& ids : trisect_answers) found += ids.size();
    std::printf("%zu box queries, %zu triangles found\n", boxes.size(), found);
    std::printf("trisect %.3f ms, embree (rtcCollide + exact test) %.3f ms, ratio %.2f\n",
                trisect_ms, embree_ms, trisect_ms / embree_ms);
    if (trisect_answers == embree) return 0;
    std::printf("the answers differ\n");
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "time_against_embree: %s\n", error.what());
    return 2;
  }
}
