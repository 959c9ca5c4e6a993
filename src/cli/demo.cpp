// `trisect demo`: the main job on a built-in scene, with timings and an SVG section picture.
#include "command_run.hpp"
#include "demo_peer.hpp"
#include "output.hpp"
#include "subcommands.hpp"

#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/trisect.hpp>

#include <CLI/CLI.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <random>
#include <sstream>

namespace trisect::cli {
namespace {

using Clock = std::chrono::steady_clock;

double microseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// The bunny from the shared meshes when it can be found, else nothing.
std::optional<std::filesystem::path> find_bunny() {
  std::vector<std::filesystem::path> folders;
  if (const char* configured = std::getenv("TRISECT_MESH_DIR")) folders.emplace_back(configured);
  folders.emplace_back("../shared/meshes");
#ifdef TRISECT_DEFAULT_MESH_DIR
  folders.emplace_back(TRISECT_DEFAULT_MESH_DIR);
#endif
  for (const auto& folder : folders) {
    const auto candidate = folder / "stanford-bunny.obj";
    std::error_code ignored;
    if (std::filesystem::is_regular_file(candidate, ignored)) return candidate;
  }
  return std::nullopt;
}

// A sphere of radius 1 by latitude and longitude with a little radial noise.
Mesh procedural_sphere(int rings, int segments) {
  Mesh mesh;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> noise(-0.01f, 0.01f);
  const float pi = 3.14159265f;
  for (int r = 0; r <= rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const float theta = pi * float(r) / float(rings), phi = 2 * pi * float(s) / float(segments);
      const float radius = 1.0f + noise(random);
      mesh.positions.emplace_back(radius * std::sin(theta) * std::cos(phi),
                                  radius * std::sin(theta) * std::sin(phi),
                                  radius * std::cos(theta));
    }
  const auto at = [&](int r, int s) { return std::uint32_t(r * segments + s % segments); };
  for (int r = 0; r < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      mesh.indices.insert(mesh.indices.end(), {at(r, s), at(r + 1, s), at(r + 1, s + 1)});
      mesh.indices.insert(mesh.indices.end(), {at(r, s), at(r + 1, s + 1), at(r, s + 1)});
      mesh.source_faces.push_back(std::uint32_t(mesh.source_faces.size()));
      mesh.source_faces.push_back(std::uint32_t(mesh.source_faces.size()));
    }
  return mesh;
}

struct Timing {
  std::size_t queries = 0;
  std::size_t found = 0;
  double microseconds = 0;
};

void print_row(std::ostream& out, const char* what, const Timing& timing, const char* found_word) {
  out << "  " << std::left << std::setw(28) << what << std::right << std::setw(8) << timing.queries
      << " queries  " << std::setw(10) << std::fixed << std::setprecision(2)
      << timing.microseconds / double(timing.queries) << " us each  " << std::setw(10)
      << std::setprecision(1) << double(timing.found) / double(timing.queries) << ' ' << found_word
      << '\n';
}

template <class MakeShape>
Timing time_touching(const Bvh& bvh, std::size_t count, MakeShape&& make_shape) {
  std::vector<decltype(make_shape())> shapes;
  for (std::size_t i = 0; i < count; ++i) shapes.push_back(make_shape());
  Timing timing{count, 0, 0};
  const auto start = Clock::now();
  for (const auto& shape : shapes) timing.found += collect_touching(bvh, shape).size();
  timing.microseconds = microseconds_since(start);
  return timing;
}

// The section of the plane z = height: touched triangles (grey) and their cut segments (red),
// seen from +z.
void write_section_svg(std::ostream& svg, const Mesh& mesh, const Bvh& bvh,
                       const std::vector<TriangleId>& touched, float height) {
  const Aabb bounds = bvh.bounds();
  const float scale = 800.0f / std::max(bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y);
  const auto x = [&](float value) { return (value - bounds.min.x) * scale + 10; };
  const auto y = [&](float value) { return (bounds.max.y - value) * scale + 10; };
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='820' height='"
      << (bounds.max.y - bounds.min.y) * scale + 20 << "'>\n<rect width='100%' height='100%' "
      << "fill='white'/>\n<g fill='#ddd' stroke='#999' stroke-width='0.3'>\n";
  for (const TriangleId id : touched) {
    const Triangle t = mesh.soup().triangle(id);
    svg << "<polygon points='" << x(t.a.x) << ',' << y(t.a.y) << ' ' << x(t.b.x) << ',' << y(t.b.y)
        << ' ' << x(t.c.x) << ',' << y(t.c.y) << "'/>\n";
  }
  svg << "</g>\n<g stroke='#c00' stroke-width='1.2'>\n";
  for (const TriangleId id : touched) {
    const Triangle t = mesh.soup().triangle(id);
    const Vec3 vertices[3] = {t.a, t.b, t.c};
    std::vector<glm::dvec2> cut;
    for (int k = 0; k < 3; ++k) {
      const Vec3 p = vertices[k], q = vertices[(k + 1) % 3];
      const double dp = double(p.z) - double(height), dq = double(q.z) - double(height);
      if (dp == 0) cut.emplace_back(double(p.x), double(p.y));
      if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
        const double s = dp / (dp - dq);
        cut.emplace_back(double(p.x) + s * double(q.x - p.x), double(p.y) + s * double(q.y - p.y));
      }
    }
    if (cut.size() >= 2)
      svg << "<line x1='" << x(float(cut[0].x)) << "' y1='" << y(float(cut[0].y)) << "' x2='"
          << x(float(cut[1].x)) << "' y2='" << y(float(cut[1].y)) << "'/>\n";
  }
  svg << "</g>\n</svg>\n";
}

// Writes the report of the demo on `out` and returns the height of its plane section.
float report_demo(const Mesh& mesh, const std::string& scene, const Bvh& bvh,
                  double build_milliseconds, std::ostream& out) {
  out << "scene: " << scene << ", " << mesh.triangle_count() << " triangles\n";
  const BvhStatistics stats = statistics(bvh);
  out << "BVH built in " << std::fixed << std::setprecision(1) << build_milliseconds
      << " ms: " << stats.node_count << " nodes, depth " << stats.depth << ", SAH cost "
      << std::setprecision(2) << stats.sah_cost << "\n\n";

  const Aabb bounds = bvh.bounds();
  const float diagonal = glm::length(bounds.max - bounds.min);
  std::mt19937 random(1);
  const auto surface_point = [&] {
    return mesh.positions[std::uniform_int_distribution<std::size_t>(
        0, mesh.positions.size() - 1)(random)];
  };
  std::uniform_real_distribution<float> unit(-1, 1);
  const auto inside_point = [&] {
    return bounds.center() + bounds.extents() * Vec3(unit(random), unit(random), unit(random));
  };
  out << "exact queries (closed sets, touching counts):\n";
  print_row(out, "box, 1% of diagonal",
            time_touching(
                bvh, 2000,
                [&] { return Aabb::from_center_extents(surface_point(), Vec3(0.01f * diagonal)); }),
            "triangles");
  print_row(out, "sphere, 1% of diagonal",
            time_touching(bvh, 2000,
                          [&] {
                            return Sphere{surface_point(), 0.01f * diagonal};
                          }),
            "triangles");
  print_row(out, "plane through the bounds",
            time_touching(bvh, 200,
                          [&] {
                            const Vec3 normal(unit(random), unit(random), unit(random));
                            return Plane{normal, glm::dot(normal, inside_point())};
                          }),
            "triangles");

  std::vector<Ray> rays;
  const Vec3 eye = bounds.center() + Vec3(0, 0, 1.5f * diagonal);
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 200; ++j) {
      const Vec3 target =
          bounds.center() + bounds.extents() * Vec3(float(i) / 100 - 1, float(j) / 100 - 1, 0);
      rays.push_back(Ray{eye, target - eye});
    }
  Timing ray_timing{rays.size(), 0, 0};
  const auto ray_start = Clock::now();
  for (const Ray& ray : rays) ray_timing.found += closest_hit(bvh, ray).has_value() ? 1u : 0u;
  ray_timing.microseconds = microseconds_since(ray_start);
  print_row(out, "closest-hit rays, primary", ray_timing, "hits");
  if (const auto embree = embree_timings(mesh, rays)) {
    out << "\nbeside Embree (same scene, same rays):\n"
        << "  build, medium quality         " << std::fixed << std::setprecision(1)
        << embree->build_milliseconds << " ms (trisect " << build_milliseconds << " ms)\n";
    print_row(out, "Embree rtcIntersect1 rays",
              Timing{rays.size(), embree->hits, embree->ray_microseconds}, "hits");
  }

  return bounds.center().z;
}

// The scene: the bunny when the shared meshes are found, else a procedural sphere.
std::pair<Mesh, std::string> load_scene(const std::optional<std::filesystem::path>& bunny,
                                        CommandRun& run) {
  if (bunny) {
    run.processing(bunny->string());
    return {load_mesh(*bunny), "Stanford bunny (" + bunny->string() + ")"};
  }
  run.processing("the procedural scene");
  return {procedural_sphere(300, 300),
          "procedural noisy sphere (no shared meshes found; set TRISECT_MESH_DIR)"};
}

int run_demo(const std::string& svg_path, std::ostream& out, std::ostream& err) {
  CommandRun run("trisect demo", err);
  return run([&] {
    const OutputRequest svg_request{"--svg", svg_path};
    const std::optional<std::filesystem::path> bunny = find_bunny();
    std::vector<std::string> inputs;
    if (bunny) inputs.push_back(bunny->string());
    check_outputs(std::span(&svg_request, 1), inputs);
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const std::pair<Mesh, std::string> scene = load_scene(bunny, run);
    const Mesh& mesh = scene.first;
    const auto build_start = Clock::now();
    const Bvh bvh = build(mesh.soup());
    const double build_milliseconds = microseconds_since(build_start) / 1000;
    std::ostringstream report;
    const float height = report_demo(mesh, scene.second, bvh, build_milliseconds, report);
    const std::vector<TriangleId> touched = collect_touching(bvh, Plane{{0, 0, 1}, height});
    report << std::defaultfloat << std::setprecision(6) << "\nplane section z = " << height
           << " drawn to " << (svg_path == standard_output_path ? "standard output" : svg_path)
           << " (" << touched.size() << " touched triangles, cut segments in red)\n";
    std::vector<Output> outputs{{svg_request, [&](std::ostream& svg) {
                                   write_section_svg(svg, mesh, bvh, touched, height);
                                 }}};
    // With the picture on standard output, the report goes to stderr beside the messages.
    if (svg_path == standard_output_path)
      err << report.str();
    else
      outputs.push_back({{"the report", standard_output_path},
                         [&](std::ostream& stream) { stream << report.str(); }});
    write_outputs(outputs, out);
    return 0;
  });
}

}  // namespace

void add_demo_command(CLI::App& app, Context& context) {
  CLI::App* command =
      app.add_subcommand("demo", "the main job on a built-in scene, with timings and a picture");
  const auto svg_path = std::make_shared<std::string>("trisect-demo-section.svg");
  command
      ->add_option("--svg", *svg_path, "where to write the SVG of a plane section (- for stdout)")
      ->type_name("FILE")
      ->capture_default_str();
  command->footer(R"(
Runs the main job on a built-in scene: the Stanford bunny from the shared meshes
($TRISECT_MESH_DIR or ../shared/meshes) when present, otherwise a procedural noisy sphere.
Builds the BVH, runs box, plane, sphere and ray queries, prints what they found and how long
they took, and writes an SVG of a plane section with the triangles it touches (written whole
or not at all; with --svg - the picture goes to stdout and the report to stderr).)");
  context.actions[command] = [&context, svg_path] {
    return run_demo(*svg_path, context.out, context.err);
  };
}

}  // namespace trisect::cli
