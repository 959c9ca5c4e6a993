// `trisect slice MESH (--axis x|y|z | --normal NX NY NZ) (--at D... | --layers N | --step H)
// [--json FILE] [--svg FILE]`.
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "option_values.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "section_output.hpp"
#include "subcommands.hpp"

#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/slice/slice.hpp>

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <memory>
#include <ostream>

namespace trisect::cli {
namespace {

// Most planes --layers and --step may ask for.
constexpr std::size_t max_planes = 10'000'000;

struct SliceArguments {
  std::string mesh;
  std::string axis;
  std::vector<std::string> normal, at;
  std::string layers, step;
  std::string json, svg;
  std::string threads;
  // Which options were given (an empty value is given too, and is an error).
  bool has_layers = false, has_json = false, has_svg = false, has_threads = false;
};

Vec3 normal_of(const SliceArguments& arguments) {
  if (arguments.normal.empty()) {
    if (arguments.axis != "x" && arguments.axis != "y" && arguments.axis != "z")
      throw UsageError("--axis: " + quoted_excerpt(arguments.axis) + " is not x, y or z");
    Vec3 normal(0.0f);
    normal[arguments.axis[0] - 'x'] = 1;
    return normal;
  }
  Vec3 normal;
  for (int i = 0; i < 3; ++i)
    normal[i] = finite_number("--normal", arguments.normal[std::size_t(i)]);
  if (normal == Vec3(0.0f)) throw UsageError("--normal: the normal is zero");
  return normal;
}

std::vector<float> offsets_of(const SliceArguments& arguments, const TriangleSoup& soup,
                              const Vec3& normal) {
  if (!arguments.at.empty()) {
    std::vector<float> offsets;
    for (const std::string& text : arguments.at) offsets.push_back(finite_number("--at", text));
    return offsets;
  }
  const Extent extent = extent_along(soup, normal);
  if (arguments.has_layers) {
    const std::size_t layers = whole_number("--layers", arguments.layers, 1, max_planes);
    return soup.empty() ? std::vector<float>{} : layer_offsets(extent, layers);
  }
  const float step = finite_number("--step", arguments.step);
  if (step <= 0) throw UsageError("--step: the step must be positive");
  if (soup.empty()) return {};
  try {
    return step_offsets(extent, step, max_planes);
  } catch (const InvalidInput& error) {
    throw UsageError(std::string("--step: ") + error.what());
  }
}

// The files (and standard output) the command line asks for, checked before any work.
std::vector<OutputRequest> output_requests(const SliceArguments& arguments) {
  std::vector<OutputRequest> requests;
  if (arguments.has_json) requests.push_back({"--json", arguments.json});
  if (arguments.has_svg) requests.push_back({"--svg", arguments.svg});
  check_outputs(requests, std::span(&arguments.mesh, 1));
  return requests;
}

// What to write where: JSON and SVG where asked, the text on standard output unless one of
// them goes there instead.
std::vector<Output> outputs_of(const std::vector<OutputRequest>& requests, const Vec3& normal,
                               const std::vector<Section>& sections) {
  std::vector<Output> outputs;
  bool text_on_standard_output = true;
  for (const OutputRequest& request : requests) {
    text_on_standard_output = text_on_standard_output && request.path != standard_output_path;
    if (request.option == "--json")
      outputs.push_back(
          {request, [&](std::ostream& file) { write_sections_json(file, normal, sections); }});
    else
      outputs.push_back(
          {request, [&](std::ostream& file) { write_sections_svg(file, normal, sections); }});
  }
  if (text_on_standard_output)
    outputs.push_back({{"the text", standard_output_path},
                       [&](std::ostream& out) { write_sections_text(out, sections); }});
  return outputs;
}

int run_slice(const SliceArguments& arguments, std::ostream& out, std::ostream& err) {
  CommandRun run("trisect slice", err);
  return run([&] {
    const Vec3 normal = normal_of(arguments);
    SliceOptions options;
    if (arguments.has_threads)
      options.threads = int(whole_number("--threads", arguments.threads, 1, max_slice_threads));
    const std::vector<OutputRequest> requests = output_requests(arguments);
    const Mesh mesh = load_input(arguments.mesh, run, err, false).mesh;
    const std::vector<float> offsets = offsets_of(arguments, mesh.soup(), normal);
    const Progress slicing(err, "slicing by " + std::to_string(offsets.size()) + " planes");
    const std::vector<Section> sections = slice(mesh.soup(), normal, offsets, options);
    slicing.done();
    const Progress writing(err, "writing the sections");
    write_outputs(outputs_of(requests, normal, sections), out);
    writing.done();
    return 0;
  });
}

constexpr const char* slice_footer = R"(
Planes are NX*x + NY*y + NZ*z = D for each offset D (the normal need not be unit length):
  --at D...     the offsets given, in that order (repeats allowed)
  --layers N    N planes at the centres of N equal layers of the mesh's extent along the
                normal: low + (i + 1/2) * (high - low) / N, i = 0 .. N-1
  --step H      planes H apart at layer centres: low + (i + 1/2) * H while below high
                (one plane at (low + high) / 2 when low + H/2 is not below high)
where low and high are the smallest and largest NX*x + NY*y + NZ*z over the vertices.
Exact: a vertex with n.v < D is below, any other above (a vertex on the plane counts as
above: a plane through a flat face gives the section just below it). Segments run from the
edge falling below the plane to the edge rising above it, and chain at edges that exactly two
contributing triangles share (by exact vertex positions), with no tolerance.

Output per plane: "plane D K", then per contour "closed N" or "open N" followed by its N
points "x y z" on the same line (%.9g). Contours come sorted by their smallest triangle id;
a closed contour starts at the segment of that triangle. On a closed mesh with outward-facing
triangles, outer boundaries run counter-clockwise and holes clockwise, seen from the side the
normal points to.
--json FILE (- for stdout instead of the text) writes {"normal": [x, y, z], "planes":
[{"d": D, "contours": [{"closed", "points", "triangles", "length", "area"}]}]}, where
triangles[i] is the id whose segment runs from points[i] to the next point and area is signed,
seen from the normal's side (0 for open contours).
--svg FILE draws every plane's contours in a grid (blue: closed, red: open); - writes the
picture to stdout instead of the text. Files are written whole or not at all (under a
temporary name, then renamed); an output path may not be empty, a directory, an input file
or another output's path (exit status 2). --threads N (1 to 4096) changes no answer.
Offsets beyond the float range (a huge mesh along a long normal) become -+3.40282347e38.

examples:
  trisect slice bunny.obj --axis y --layers 12 --svg bunny.svg
  trisect slice part.stl --normal 0 0 1 --at 0.5 1.0 --json -)";

}  // namespace

void add_slice_command(CLI::App& app, Context& context) {
  CLI::App* command =
      app.add_subcommand("slice", "cut MESH by parallel planes into exact contours");
  const auto arguments = std::make_shared<SliceArguments>();
  command->add_option("MESH", arguments->mesh, mesh_argument_help)->required();
  CLI::Option_group* direction = command->add_option_group("direction", "the planes' normal");
  direction->add_option("--axis", arguments->axis, "x, y or z: the normal is that unit axis");
  direction->add_option("--normal", arguments->normal, "NX NY NZ: any non-zero normal")
      ->expected(3)
      ->allow_extra_args(false);
  direction->require_option(1);
  CLI::Option_group* placement = command->add_option_group("offsets", "where the planes lie");
  placement->add_option("--at", arguments->at, "D...: the planes' offsets, in order")
      ->expected(1, -1);
  placement->add_option("--layers", arguments->layers, "N: planes at the centres of N layers");
  placement->add_option("--step", arguments->step, "H: planes H apart at layer centres");
  placement->require_option(1);
  const CLI::Option* layers = placement->get_option("--layers");
  const CLI::Option* json =
      command->add_option("--json", arguments->json, "also write JSON to FILE (- for stdout)");
  const CLI::Option* svg = command->add_option(
      "--svg", arguments->svg, "also draw the contours to FILE (SVG; - for stdout)");
  const CLI::Option* threads = command->add_option(
      "--threads", arguments->threads,
      "worker threads, 1 to " + std::to_string(max_slice_threads) + " (default: all)");
  command->footer(slice_footer);
  context.actions[command] = [&context, arguments, layers, json, svg, threads] {
    arguments->has_layers = layers->count() > 0;
    arguments->has_json = json->count() > 0;
    arguments->has_svg = svg->count() > 0;
    arguments->has_threads = threads->count() > 0;
    return run_slice(*arguments, context.out, context.err);
  };
}

}  // namespace trisect::cli
