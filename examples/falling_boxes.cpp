// Boxes falling onto a terrain: the broadphase finds which boxes touch each other, the
// mid-phase (a batch of exact BVH box queries) finds the terrain triangles under each box, and a
// deliberately simple integrator (gravity, explicit Euler, position correction) lets them come
// to rest. Prints pair counts and timings, writes a side view of the last frame as SVG.
//
//   falling_boxes [BOX_COUNT [FRAMES [SVG_FILE]]]     defaults: 3000 600 falling_boxes.svg
//
// Exits non-zero when a box ends below the terrain.
#include <trisect/broadphase/broadphase.hpp>
#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

using trisect::Aabb;
using trisect::Vec3;

constexpr float terrain_half = 20.0f;  // the terrain spans [-20, 20] in x and z; y is up
constexpr int terrain_cells = 48;
constexpr float time_step = 1.0f / 60.0f;
constexpr float gravity = -9.81f;

float terrain_height(float x, float z) {
  return 2.0f * std::sin(0.25f * x) * std::cos(0.2f * z) + 0.8f * std::sin(0.6f * x + 0.3f * z) -
         0.02f * (x * x + z * z) * 0.25f;
}

// A heightfield as a soup: two triangles per grid cell.
std::vector<Vec3> make_terrain() {
  std::vector<Vec3> positions;
  const float cell = 2.0f * terrain_half / terrain_cells;
  const auto vertex = [&](int i, int k) {
    const float x = -terrain_half + float(i) * cell, z = -terrain_half + float(k) * cell;
    return Vec3(x, terrain_height(x, z), z);
  };
  for (int i = 0; i < terrain_cells; ++i)
    for (int k = 0; k < terrain_cells; ++k)
      positions.insert(positions.end(), {vertex(i, k), vertex(i + 1, k), vertex(i + 1, k + 1),
                                         vertex(i, k), vertex(i + 1, k + 1), vertex(i, k + 1)});
  return positions;
}

struct Body {
  Vec3 center, half, velocity;
  [[nodiscard]] Aabb box() const { return Aabb::from_center_extents(center, half); }
};

// Height of triangle (a, b, c) above point (x, z) of its projection, or -inf outside it.
float height_over(const Vec3& a, const Vec3& b, const Vec3& c, float x, float z) {
  const float det = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
  if (det == 0) return -INFINITY;
  const float u = ((x - a.x) * (c.z - a.z) - (c.x - a.x) * (z - a.z)) / det;
  const float v = ((b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z)) / det;
  if (u < 0 || v < 0 || u + v > 1) return -INFINITY;
  return a.y + u * (b.y - a.y) + v * (c.y - a.y);
}

// The ground under a body: the highest point of the touching triangles under its footprint's
// corners and centre.
float ground_under(const Body& body, std::span<const trisect::TriangleId> triangles,
                   const std::vector<Vec3>& terrain) {
  float ground = -INFINITY;
  const float dx[5] = {0, -1, 1, -1, 1}, dz[5] = {0, -1, -1, 1, 1};
  for (const trisect::TriangleId id : triangles) {
    const Vec3 &a = terrain[3 * id], &b = terrain[3 * id + 1], &c = terrain[3 * id + 2];
    for (int s = 0; s < 5; ++s)
      ground = std::max(ground, height_over(a, b, c, body.center.x + dx[s] * body.half.x,
                                            body.center.z + dz[s] * body.half.z));
  }
  return ground;
}

// Pushes two overlapping bodies apart along the axis of least penetration, sharing the motion
// along it (a perfectly inelastic contact).
void separate(Body& p, Body& q) {
  int axis = 0;
  float depth = INFINITY;
  for (int a = 0; a < 3; ++a) {
    const float overlap = p.half[a] + q.half[a] - std::abs(p.center[a] - q.center[a]);
    if (overlap < depth) depth = overlap, axis = a;
  }
  if (depth <= 0) return;
  const float sign = p.center[axis] < q.center[axis] ? -1.0f : 1.0f;
  p.center[axis] += 0.5f * sign * depth;
  q.center[axis] -= 0.5f * sign * depth;
  const float shared = 0.5f * (p.velocity[axis] + q.velocity[axis]);
  p.velocity[axis] = q.velocity[axis] = shared;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void write_svg(const std::string& path, const std::vector<Body>& bodies) {
  std::ofstream out(path);
  const float scale = 20.0f, width = 2 * terrain_half * scale, top = 16.0f, bottom = -8.0f;
  const auto sx = [&](float x) { return (x + terrain_half) * scale; };
  const auto sy = [&](float y) { return (top - y) * scale; };
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='"
      << (top - bottom) * scale << "'>\n<rect width='100%' height='100%' fill='#eef4fb'/>\n";
  // The terrain seen from the side: its silhouette (highest point over every z) filled, and
  // the profile at z = 0 as a line.
  std::ostringstream silhouette, profile;
  silhouette << "M " << sx(-terrain_half) << ' ' << sy(bottom);
  profile << 'M';
  for (int i = 0; i <= 400; ++i) {
    const float x = -terrain_half + 2 * terrain_half * float(i) / 400;
    float highest = -INFINITY;
    for (int k = 0; k <= 100; ++k)
      highest =
          std::max(highest, terrain_height(x, -terrain_half + 2 * terrain_half * float(k) / 100));
    silhouette << " L " << sx(x) << ' ' << sy(highest);
    profile << ' ' << sx(x) << ' ' << sy(terrain_height(x, 0));
  }
  silhouette << " L " << sx(terrain_half) << ' ' << sy(bottom) << " Z";
  out << "<path d='" << silhouette.str() << "' fill='#8a9a5b'/>\n";
  // Bodies back to front (far z first), coloured by depth.
  std::vector<const Body*> order;
  for (const Body& body : bodies) order.push_back(&body);
  std::sort(order.begin(), order.end(),
            [](const Body* a, const Body* b) { return a->center.z < b->center.z; });
  for (const Body* body : order) {
    const float depth = (body->center.z + terrain_half) / (2 * terrain_half);
    const int red = int(60 + 180 * depth), blue = int(220 - 160 * depth);
    out << "<rect x='" << sx(body->center.x - body->half.x) << "' y='"
        << sy(body->center.y + body->half.y) << "' width='" << 2 * body->half.x * scale
        << "' height='" << 2 * body->half.y * scale << "' fill='rgb(" << red << ",90," << blue
        << ")' stroke='#222' stroke-width='0.5' fill-opacity='0.85'/>\n";
  }
  out << "<path d='" << profile.str() << "' fill='none' stroke='#3d4a1f' stroke-width='2'/>\n";
  out << "<text x='10' y='20' font-family='sans-serif' font-size='14'>" << bodies.size()
      << " boxes on a terrain, side view (x right, y up; colour: depth z)</text>\n</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 3000;
  const int frames = argc > 2 ? std::atoi(argv[2]) : 600;
  const std::string svg_path = argc > 3 ? argv[3] : "falling_boxes.svg";

  const std::vector<Vec3> terrain = make_terrain();
  const trisect::Bvh bvh = trisect::build(trisect::TriangleSoup{terrain});

  std::mt19937_64 random(42);
  std::uniform_real_distribution<float> across(-terrain_half + 2, terrain_half - 2), up(4, 30),
      size(0.25f, 0.6f);
  std::vector<Body> bodies;
  trisect::Broadphase broadphase;
  std::vector<trisect::ProxyId> ids;
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 center(across(random), up(random), across(random));
    bodies.push_back({center, Vec3(size(random), size(random), size(random)), Vec3(0.0f)});
    ids.push_back(broadphase.create_proxy(bodies.back().box()));
  }

  std::vector<Aabb> boxes(count);
  for (int frame = 1; frame <= frames; ++frame) {
    auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      Body& body = bodies[i];
      body.velocity.y += gravity * time_step;
      const Vec3 step = body.velocity * time_step;
      body.center += step;
      broadphase.move_proxy(ids[i], body.box(), step);
    }
    broadphase.update_pairs();
    const double broadphase_ms = milliseconds_since(start);
    for (const trisect::ProxyPair& pair : broadphase.pairs())
      separate(bodies[pair.first], bodies[pair.second]);

    start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < count; ++i) boxes[i] = bodies[i].box();
    const auto touching = trisect::collect_touching_batch(bvh, std::span<const Aabb>(boxes));
    const double midphase_ms = milliseconds_since(start);
    std::size_t triangle_contacts = 0;
    for (std::size_t i = 0; i < count; ++i) {
      triangle_contacts += touching[i].size();
      Body& body = bodies[i];
      const float ground = ground_under(body, touching[i], terrain);
      if (body.center.y - body.half.y < ground) {
        body.center.y = ground + body.half.y;
        body.velocity = Vec3(0.0f, std::max(body.velocity.y, 0.0f), 0.0f);  // friction: stop
      }
    }
    if (frame % 60 == 0 || frame == frames)
      std::printf(
          "frame %4d  pairs %6zu (+%zu -%zu)  terrain contacts %6zu  broadphase %.3f ms  "
          "mid-phase %.3f ms\n",
          frame, broadphase.pairs().size(), broadphase.began().size(), broadphase.ended().size(),
          triangle_contacts, broadphase_ms, midphase_ms);
  }

  std::size_t sunk = 0;
  for (const Body& body : bodies)
    sunk += body.center.y + body.half.y < terrain_height(body.center.x, body.center.z) - 0.5f;
  write_svg(svg_path, bodies);
  std::printf("wrote %s; %zu of %zu boxes below the terrain\n", svg_path.c_str(), sunk, count);
  return sunk == 0 ? 0 : 1;
}
