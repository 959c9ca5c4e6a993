// Boxes falling onto a terrain, with what an engine does around them. The broadphase finds
// which boxes touch each other, the mid-phase (a batch of exact BVH box queries) finds the
// terrain triangles under each box, and a deliberately simple integrator (gravity, explicit
// Euler, position correction) lets them come to rest. Two sensors (trigger volumes,
// `ProxyOptions::sensor`) keep the boxes inside them from the broadphase's sensor events: a goal
// zone on the ground and a gate in the air that the boxes fall through; sensor pairs make no
// contacts. A picking ray from a camera finds the first box (the broadphase's nearest-first
// `cast`, sensors filtered out, each box's own ray test shortening the ray) or terrain triangle
// (`closest_hit`) it meets, every 60 frames and at the end, with a fan of rays over the whole
// scene at the end. Prints pair counts, timings, sensor counts and picks; writes a side
// view of the last frame as SVG: the sensors shaded, the boxes in the goal zone gold, the
// picking ray and its hit.
//
//   falling_boxes [BOX_COUNT [FRAMES [SVG_FILE]]]     defaults: 3000 600 falling_boxes.svg
//
// Checks itself, exiting non-zero when a box ends below the terrain, when a sensor's boxes (as
// its events tell) differ from those whose boxes overlap it, or when a pick differs from a
// brute-force loop over every box and triangle.
#include <trisect/broadphase/broadphase.hpp>
#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/geometry/ray_triangle.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

using trisect::Aabb;
using trisect::Broadphase;
using trisect::PairKind;
using trisect::ProxyId;
using trisect::ProxyPair;
using trisect::Ray;
using trisect::Vec3;

constexpr float terrain_half = 20.0f;  // the terrain spans [-20, 20] in x and z; y is up
constexpr int terrain_cells = 48;
constexpr float time_step = 1.0f / 60.0f;
constexpr float gravity = -9.81f;

// Filter groups. Picking reports bodies only: in engines a picking ray passes through triggers.
constexpr std::uint32_t body_group = 1, sensor_group = 2;
constexpr trisect::ProxyQueryFilter picking_filter{.mask = body_group};

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

// A trigger volume: which bodies are inside it, as its begin and end events tell.
struct Sensor {
  const char* name;
  Aabb box;
  std::vector<bool> holds = {};  // by body index
  std::size_t inside = 0, entered = 0, left = 0;
};

// Everything simulated. The bodies' proxies carry their index as user value, the sensors'
// theirs; `Broadphase::is_sensor` tells the two apart.
struct Scene {
  std::vector<Vec3> terrain = make_terrain();
  trisect::Bvh bvh = trisect::build(trisect::TriangleSoup{terrain});
  Broadphase broadphase;
  std::vector<Body> bodies;
  std::vector<ProxyId> ids;  // by body index
  std::vector<Sensor> sensors;
};

// Drops `count` boxes from random heights over the terrain.
void drop_bodies(Scene& scene, std::size_t count) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<float> across(-terrain_half + 2, terrain_half - 2), up(4, 30),
      size(0.25f, 0.6f);
  for (std::size_t i = 0; i < count; ++i) {
    const Vec3 center(across(random), up(random), across(random));
    scene.bodies.push_back({center, Vec3(size(random), size(random), size(random)), Vec3(0.0f)});
    scene.ids.push_back(scene.broadphase.create_proxy(
        scene.bodies.back().box(), {.filter = {body_group, ~0u}, .user_data = i}));
  }
}

// The goal zone, a region of the ground (the first sensor, its boxes drawn gold), and a gate in
// the air that every box dropped over it falls through. The zone reaches the front edge (z = 20)
// so that the side view, seen from +z, shows no box in front of it that it does not hold. Both stay
// put, so they live in the static layer; two static proxies never pair, so the sensors do not pair
// with each other.
void add_sensors(Scene& scene) {
  scene.sensors = {
      {.name = "zone", .box = Aabb{Vec3(4, -8, -10), Vec3(12, 3.5f, terrain_half)}},
      {.name = "gate", .box = Aabb{Vec3(-16, 9, -terrain_half), Vec3(-4, 10, terrain_half)}}};
  for (std::size_t s = 0; s < scene.sensors.size(); ++s) {
    Sensor& sensor = scene.sensors[s];
    sensor.holds.assign(scene.bodies.size(), false);
    scene.broadphase.create_proxy(sensor.box, {.layer = trisect::Layer::static_layer,
                                               .filter = {sensor_group, ~0u},
                                               .user_data = s,
                                               .sensor = true});
  }
}

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

// Moves every body by gravity over one time step and gives the broadphase its new box.
void integrate(Scene& scene) {
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    Body& body = scene.bodies[i];
    body.velocity.y += gravity * time_step;
    const Vec3 step = body.velocity * time_step;
    body.center += step;
    scene.broadphase.move_proxy(scene.ids[i], body.box(), step);
  }
}

// A sensor's begin (`began`) or end event for `pair`. The event's kind says a sensor is in the
// pair but not which of the two it is, so ask the broadphase.
void record_sensor_event(Scene& scene, const ProxyPair& pair, bool began) {
  const bool first_is_sensor = scene.broadphase.is_sensor(pair.first);
  Sensor& sensor =
      scene.sensors[scene.broadphase.user_data(first_is_sensor ? pair.first : pair.second)];
  sensor.holds[scene.broadphase.user_data(first_is_sensor ? pair.second : pair.first)] = began;
  if (began)
    ++sensor.inside, ++sensor.entered;
  else
    --sensor.inside, ++sensor.left;
}

// Ends the broadphase's frame; its sensor events update the sensors.
void update_broadphase(Scene& scene) {
  const auto on_event = [&scene](bool began) {
    return [&scene, began](const ProxyPair& pair, PairKind kind) {
      if (kind == PairKind::sensor) record_sensor_event(scene, pair, began);
    };
  };
  scene.broadphase.update(on_event(true), on_event(false));
}

// Separates the bodies of every contact pair (`pair_kinds()` marks the sensor pairs: a trigger
// volume pushes nothing).
void solve_contacts(Scene& scene) {
  const Broadphase& broadphase = scene.broadphase;
  const std::vector<ProxyPair>& pairs = broadphase.pairs();
  for (std::size_t i = 0; i < pairs.size(); ++i)
    if (broadphase.pair_kinds()[i] == PairKind::contact)
      separate(scene.bodies[broadphase.user_data(pairs[i].first)],
               scene.bodies[broadphase.user_data(pairs[i].second)]);
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct TerrainContacts {
  std::size_t triangles = 0;  // touching some body, counted per body
  double query_ms = 0;        // the batch query's time
};

// Finds the terrain triangles under every body (the mid-phase) and stops the bodies that sank
// into them.
TerrainContacts rest_on_terrain(Scene& scene) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Aabb> boxes;
  boxes.reserve(scene.bodies.size());
  for (const Body& body : scene.bodies) boxes.push_back(body.box());
  const auto touching = trisect::collect_touching_batch(scene.bvh, std::span<const Aabb>(boxes));
  TerrainContacts contacts{0, milliseconds_since(start)};
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    contacts.triangles += touching[i].size();
    Body& body = scene.bodies[i];
    const float ground = ground_under(body, touching[i], scene.terrain);
    if (body.center.y - body.half.y < ground) {
      body.center.y = ground + body.half.y;
      body.velocity = Vec3(0.0f, std::max(body.velocity.y, 0.0f), 0.0f);  // friction: stop
    }
  }
  return contacts;
}

// What a picking ray meets first.
struct Pick {
  enum class Target { nothing, body, terrain } target = Target::nothing;
  std::size_t index = 0;  // the body's, or the terrain triangle's
  double t = INFINITY;
};

// The parameter where `ray` enters the closed box (t_min when it starts inside), or nothing
// when it misses the box. Whether it hits is the broadphase's own exact test, so that the cast
// and brute force agree on grazing rays; the entry is the slab method in double.
std::optional<double> ray_entry(const Ray& ray, const Aabb& box) {
  if (!trisect::DynamicAabbTree::ray_meets(ray, box)) return std::nullopt;
  double entry = double(ray.t_min);
  for (int axis = 0; axis < 3; ++axis) {
    const double direction = double(ray.direction[axis]);
    if (direction == 0) continue;  // within the slab, or the ray would have missed
    const double face = double(direction > 0 ? box.min[axis] : box.max[axis]);
    entry = std::max(entry, (face - double(ray.origin[axis])) / direction);
  }
  return std::min(entry, double(ray.t_max));
}

// The smallest float not below `t`: a t_max that shortens a ray without cutting off `t`.
float rounded_up(double t) {
  const auto rounded = static_cast<float>(t);
  return double(rounded) < t ? std::nextafter(rounded, INFINITY) : rounded;
}

struct ProxyHit {
  ProxyId id;
  double t;
};

// The proxy passing `filter` whose box `ray` enters first: the broadphase's nearest-first cast,
// each box's entry shortening the ray so that the cast offers only the boxes in front of the
// nearest one so far (`offered` counts them).
std::optional<ProxyHit> first_proxy(const Broadphase& broadphase, const Ray& ray,
                                    const trisect::ProxyQueryFilter& filter, std::size_t& offered) {
  std::optional<ProxyHit> first;
  broadphase.cast(ray, filter, [&](ProxyId id, float t_max) {
    ++offered;
    const Ray current{ray.origin, ray.direction, ray.t_min, t_max};
    const std::optional<double> entry = ray_entry(current, broadphase.box(id));
    if (entry && (!first || *entry < first->t)) first = ProxyHit{id, *entry};
    return first ? rounded_up(first->t) : t_max;
  });
  return first;
}

// The first terrain triangle (the BVH's closest hit) or body along `ray`. The terrain's hit
// shortens the ray before the broadphase cast, which then looks only in front of it.
Pick pick(const Scene& scene, const Ray& ray, std::size_t& offered) {
  Pick best;
  if (const auto hit = trisect::closest_hit(scene.bvh, ray))
    best = {Pick::Target::terrain, hit->id, hit->t};
  Ray shortened = ray;
  shortened.t_max = std::min(ray.t_max, rounded_up(best.t));
  const auto body = first_proxy(scene.broadphase, shortened, picking_filter, offered);
  if (body && body->t < best.t)
    best = {Pick::Target::body, scene.broadphase.user_data(body->id), body->t};
  return best;
}

// What the ray would stop at first were sensors not filtered out of picking.
void show_unfiltered(const Scene& scene, const Ray& ray) {
  std::size_t offered = 0;
  const auto first = first_proxy(scene.broadphase, ray, {}, offered);
  if (!first || !scene.broadphase.is_sensor(first->id)) return;
  std::printf("unfiltered, the ray would stop at the sensor %s at t %.6g\n",
              scene.sensors[scene.broadphase.user_data(first->id)].name, first->t);
}

// `pick` by testing every triangle and every body.
Pick pick_by_brute_force(const Scene& scene, const Ray& ray) {
  Pick best;
  const trisect::TriangleSoup soup{scene.terrain};
  for (std::size_t id = 0; id < soup.size(); ++id)
    if (const auto hit = trisect::intersect(ray, soup.triangle(id)); hit && hit->t < best.t)
      best = {Pick::Target::terrain, id, hit->t};
  for (std::size_t i = 0; i < scene.bodies.size(); ++i)
    if (const auto entry = ray_entry(ray, scene.bodies[i].box()); entry && *entry < best.t)
      best = {Pick::Target::body, i, *entry};
  return best;
}

// True when two picks agree: both miss, or both hit at the same t, to within the 2^-24 relative
// error of a triangle hit's t either side (a tie may pick another box or triangle).
bool same_pick(const Pick& a, const Pick& b) {
  if (a.target == Pick::Target::nothing || b.target == Pick::Target::nothing)
    return a.target == b.target;
  return std::fabs(a.t - b.t) <= 2e-7 * std::max(std::fabs(a.t), std::fabs(b.t));
}

std::string describe(const Pick& pick) {
  char text[64];
  if (pick.target == Pick::Target::nothing) return "nothing";
  std::snprintf(text, sizeof text, "%s %zu at t %.6g",
                pick.target == Pick::Target::body ? "box" : "terrain triangle", pick.index, pick.t);
  return text;
}

// The camera and the picking ray: from the upper left of the side view down into the goal zone.
// The ray reaches the target at t = 1 and goes on beyond it.
const Vec3 camera(-19.0f, 13.0f, -3.0f);
Ray picking_ray() {
  const Vec3 target(8.0f, terrain_height(8.0f, 1.0f), 1.0f);
  return {camera, target - camera};
}

// Picks along `ray` and checks the answer against brute force; counts a difference in `wrong`.
Pick checked_pick(const Scene& scene, const Ray& ray, std::size_t& offered, std::size_t& wrong) {
  const Pick picked = pick(scene, ray, offered);
  const Pick expected = pick_by_brute_force(scene, ray);
  if (!same_pick(picked, expected)) {
    std::printf("pick differs: %s, brute force %s\n", describe(picked).c_str(),
                describe(expected).c_str());
    ++wrong;
  }
  return picked;
}

// Picks along a fan of rays from the camera to a grid of points on the terrain, each checked.
void pick_fan(const Scene& scene, std::size_t& wrong) {
  constexpr int side = 12;
  std::size_t on_body = 0, on_terrain = 0, offered = 0;
  for (int i = 0; i < side; ++i)
    for (int k = 0; k < side; ++k) {
      const float x = -terrain_half + (float(i) + 0.5f) * (2 * terrain_half / side);
      const float z = -terrain_half + (float(k) + 0.5f) * (2 * terrain_half / side);
      const Ray ray{camera, Vec3(x, terrain_height(x, z), z) - camera};
      const Pick picked = checked_pick(scene, ray, offered, wrong);
      on_body += picked.target == Pick::Target::body;
      on_terrain += picked.target == Pick::Target::terrain;
    }
  std::printf(
      "picking fan: %d rays, %zu on boxes, %zu on terrain, %zu past its edge; boxes offered by "
      "the cast: %zu\n",
      side * side, on_body, on_terrain, std::size_t(side * side) - on_body - on_terrain, offered);
}

// Checks each sensor's boxes, as its events left them, against the boxes overlapping it; counts
// the differing boxes in `wrong`.
void check_sensors(const Scene& scene, std::size_t& wrong) {
  for (const Sensor& sensor : scene.sensors) {
    std::size_t overlapping = 0, differ = 0;
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const bool overlaps = scene.bodies[i].box().overlaps(sensor.box);
      overlapping += overlaps;
      differ += overlaps != sensor.holds[i];
    }
    std::printf(
        "sensor %s: %zu boxes inside (%zu entered, %zu left); brute force %zu, %zu boxes "
        "differ\n",
        sensor.name, sensor.inside, sensor.entered, sensor.left, overlapping, differ);
    wrong += differ + (overlapping != sensor.inside);
  }
}

// --- The side view (x right, y up), as SVG.

constexpr float view_scale = 20.0f, view_top = 16.0f, view_bottom = -8.0f;
float sx(float x) { return (x + terrain_half) * view_scale; }
float sy(float y) { return (view_top - y) * view_scale; }

// The terrain seen from the side: its silhouette (highest point over every z) filled, and the
// profile at z = 0 as a path to draw over the boxes.
std::string write_terrain(std::ofstream& out) {
  std::ostringstream silhouette, profile;
  silhouette << std::setprecision(4) << "M " << sx(-terrain_half) << ' ' << sy(view_bottom);
  profile << std::setprecision(4) << 'M';
  for (int i = 0; i <= 400; ++i) {
    const float x = -terrain_half + 2 * terrain_half * float(i) / 400;
    float highest = -INFINITY;
    for (int k = 0; k <= 100; ++k)
      highest =
          std::max(highest, terrain_height(x, -terrain_half + 2 * terrain_half * float(k) / 100));
    silhouette << " L " << sx(x) << ' ' << sy(highest);
    profile << ' ' << sx(x) << ' ' << sy(terrain_height(x, 0));
  }
  silhouette << " L " << sx(terrain_half) << ' ' << sy(view_bottom) << " Z";
  out << "<path d='" << silhouette.str() << "' fill='#8a9a5b'/>\n";
  return profile.str();
}

// The sensors as shaded boxes cut to the view, or (`names`) their names, drawn over the bodies
// with a light halo so that they stay readable.
void write_sensors(std::ofstream& out, const std::vector<Sensor>& sensors, bool names) {
  const char* colours[] = {"#f0b429", "#4a90d9"};
  for (std::size_t s = 0; s < sensors.size(); ++s) {
    const Aabb& box = sensors[s].box;
    const float top = std::min(box.max.y, view_top), bottom = std::max(box.min.y, view_bottom);
    if (names)
      out << "<text x='" << sx(box.min.x) + 4 << "' y='" << sy(top) - 4
          << "' font-family='sans-serif' font-size='12' stroke='#fff' stroke-width='3' "
             "paint-order='stroke'>sensor: "
          << sensors[s].name << "</text>\n";
    else
      out << "<rect x='" << sx(box.min.x) << "' y='" << sy(top) << "' width='"
          << (box.max.x - box.min.x) * view_scale << "' height='" << (top - bottom) * view_scale
          << "' fill='" << colours[s % 2] << "' fill-opacity='0.25' stroke='" << colours[s % 2]
          << "' stroke-dasharray='6 4'/>\n";
  }
}

// The bodies back to front (far z first): gold inside the goal zone, else coloured by depth.
void write_bodies(std::ofstream& out, const std::vector<Body>& bodies, const Sensor& zone) {
  std::vector<std::size_t> order(bodies.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return bodies[a].center.z < bodies[b].center.z; });
  out << "<g stroke='#222' stroke-width='0.5' fill-opacity='0.85'>\n";
  for (const std::size_t i : order) {
    const Body& body = bodies[i];
    const float depth = (body.center.z + terrain_half) / (2 * terrain_half);
    out << "<rect x='" << sx(body.center.x - body.half.x) << "' y='"
        << sy(body.center.y + body.half.y) << "' width='" << 2 * body.half.x * view_scale
        << "' height='" << 2 * body.half.y * view_scale << "' fill='";
    if (zone.holds[i])
      out << "#f0b429'/>\n";
    else
      out << "rgb(" << int(60 + 180 * depth) << ",90," << int(220 - 160 * depth) << ")'/>\n";
  }
  out << "</g>\n";
}

// The picking ray from the camera to its hit (or across the view when it hit nothing).
void write_pick(std::ofstream& out, const Ray& ray, const Pick& picked) {
  const Vec3 end = ray.at(picked.target == Pick::Target::nothing ? 2.0f : float(picked.t));
  out << "<circle cx='" << sx(camera.x) << "' cy='" << sy(camera.y)
      << "' r='5' fill='#222'/>\n<line x1='" << sx(camera.x) << "' y1='" << sy(camera.y) << "' x2='"
      << sx(end.x) << "' y2='" << sy(end.y) << "' stroke='#d62728' stroke-width='2'/>\n<circle cx='"
      << sx(end.x) << "' cy='" << sy(end.y)
      << "' r='5' fill='none' stroke='#d62728' stroke-width='2'/>\n<text x='" << sx(camera.x)
      << "' y='" << sy(camera.y) - 10
      << "' font-family='sans-serif' font-size='12'>picking ray: " << describe(picked)
      << "</text>\n";
}

void write_svg(const std::string& path, const Scene& scene, const Ray& ray, const Pick& picked) {
  std::ofstream out(path);
  out << std::setprecision(4) << "<svg xmlns='http://www.w3.org/2000/svg' width='"
      << 2 * terrain_half * view_scale << "' height='" << (view_top - view_bottom) * view_scale
      << "'>\n<rect width='100%' height='100%' fill='#eef4fb'/>\n";
  const std::string profile = write_terrain(out);
  write_sensors(out, scene.sensors, false);
  write_bodies(out, scene.bodies, scene.sensors.front());
  write_sensors(out, scene.sensors, true);
  out << "<path d='" << profile << "' fill='none' stroke='#3d4a1f' stroke-width='2'/>\n";
  write_pick(out, ray, picked);
  out << "<text x='10' y='20' font-family='sans-serif' font-size='14'>" << scene.bodies.size()
      << " boxes on a terrain, side view (x right, y up; colour: depth z, gold: in the goal "
         "zone)</text>\n</svg>\n";
}

// Gives the broadphase the boxes where the solver left the bodies, so that the final sensor
// counts and picks see them.
void sync_proxies(Scene& scene) {
  for (std::size_t i = 0; i < scene.bodies.size(); ++i)
    scene.broadphase.move_proxy(scene.ids[i], scene.bodies[i].box());
  update_broadphase(scene);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 3000;
  const int frames = argc > 2 ? std::atoi(argv[2]) : 600;
  const std::string svg_path = argc > 3 ? argv[3] : "falling_boxes.svg";

  Scene scene;
  drop_bodies(scene, count);
  add_sensors(scene);
  const Ray ray = picking_ray();
  std::size_t wrong = 0, offered = 0;
  for (int frame = 1; frame <= frames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    integrate(scene);
    update_broadphase(scene);
    const double broadphase_ms = milliseconds_since(start);
    const bool report = frame % 60 == 0 || frame == frames;
    // Picked before the solver moves the bodies, while the proxies' boxes are the bodies'.
    const Pick picked = report ? checked_pick(scene, ray, offered, wrong) : Pick{};
    solve_contacts(scene);
    const TerrainContacts contacts = rest_on_terrain(scene);
    if (!report) continue;
    std::printf(
        "frame %4d  pairs %6zu (+%zu -%zu)  terrain contacts %6zu  broadphase %.3f ms  "
        "mid-phase %.3f ms\n           in zone %zu, in gate %zu; pick: %s\n",
        frame, scene.broadphase.pairs().size(), scene.broadphase.began().size(),
        scene.broadphase.ended().size(), contacts.triangles, broadphase_ms, contacts.query_ms,
        scene.sensors[0].inside, scene.sensors[1].inside, describe(picked).c_str());
  }

  sync_proxies(scene);
  check_sensors(scene, wrong);
  offered = 0;
  const Pick picked = checked_pick(scene, ray, offered, wrong);
  std::printf("pick from the camera: %s (boxes offered by the cast: %zu)\n",
              describe(picked).c_str(), offered);
  show_unfiltered(scene, ray);
  pick_fan(scene, wrong);
  std::size_t sunk = 0;
  for (const Body& body : scene.bodies)
    sunk += body.center.y + body.half.y < terrain_height(body.center.x, body.center.z) - 0.5f;
  write_svg(svg_path, scene, ray, picked);
  std::printf("wrote %s; %zu of %zu boxes below the terrain; %zu answers differ from brute force\n",
              svg_path.c_str(), sunk, count, wrong);
  return sunk == 0 && wrong == 0 ? 0 : 1;
}
