// `trisect slice MESH (--axis x|y|z | --normal NX NY NZ) (--at D... | --layers N | --step H)
// [--json FILE] [--svg FILE]`.
#include "progress.hpp"
#include "section_output.hpp"
#include "subcommands.hpp"

#include <trisect/bvh/slice.hpp>
#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>
#include <trisect/math/validate.hpp>

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <new>
#include <ostream>
#include <stdexcept>

namespace trisect::cli {
namespace {

// A bad argument value: what() names the option.
class ArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SliceArguments {
  std::string mesh;
  std::string axis;
  std::vector<std::string> normal, at;
  std::string layers, step;
  std::string json, svg;
  unsigned threads = 0;
};

float finite_number(const std::string& option, const std::string& text) {
  const std::optional<float> value = read_float(text);
  const std::string quoted = "'" + text.substr(0, 40) + (text.size() > 40 ? "...'" : "'");
  if (!value) throw ArgumentError(option + ": " + quoted + " is not a number");
  if (!std::isfinite(*value)) throw ArgumentError(option + ": " + quoted + " is not finite");
  return *value;
}

Vec3 normal_of(const SliceArguments& arguments) {
  if (!arguments.axis.empty()) {
    Vec3 normal(0.0f);
    normal[arguments.axis[0] - 'x'] = 1;
    return normal;
  }
  Vec3 normal;
  for (int i = 0; i < 3; ++i)
    normal[i] = finite_number("--normal", arguments.normal[std::size_t(i)]);
  if (normal == Vec3(0.0f)) throw ArgumentError("--normal: the normal is zero");
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
  if (!arguments.layers.empty()) {
    std::size_t layers = 0;
    const auto [end, error] = std::from_chars(
        arguments.layers.data(), arguments.layers.data() + arguments.layers.size(), layers);
    if (error != std::errc{} || end != arguments.layers.data() + arguments.layers.size() ||
        layers == 0 || layers > 10'000'000)
      throw ArgumentError("--layers: '" + arguments.layers.substr(0, 40) +
                          "' is not a whole number from 1 to 10000000");
    return soup.empty() ? std::vector<float>{} : layer_offsets(extent, layers);
  }
  const float step = finite_number("--step", arguments.step);
  if (step <= 0) throw ArgumentError("--step: the step must be positive");
  if (soup.empty()) return {};
  try {
    return step_offsets(extent, step);
  } catch (const InvalidInput& error) {
    throw ArgumentError(std::string("--step: ") + error.what());
  }
}

// Writes one output file; throws ArgumentError naming the option when it cannot.
template <class Write>
void write_file(const std::string& option, const std::string& path, Write write) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw ArgumentError(option + ": cannot open '" + path + "' for writing");
  write(file);
  file.flush();
  if (!file) throw ArgumentError(option + ": cannot write '" + path + "'");
}

int run_slice(const SliceArguments& arguments, std::ostream& out, std::ostream& err) {
  const std::string name = "trisect slice: ";
  try {
    const Vec3 normal = normal_of(arguments);
    const Progress loading(err, "loading " + arguments.mesh);
    const Mesh mesh = load_mesh(arguments.mesh);
    loading.done(std::to_string(mesh.triangle_count()) + " triangles");
    const std::vector<float> offsets = offsets_of(arguments, mesh.soup(), normal);
    const Progress slicing(err, "slicing by " + std::to_string(offsets.size()) + " planes");
    SliceOptions options;
    options.threads = int(arguments.threads);
    const std::vector<Section> sections = slice(mesh.soup(), normal, offsets, options);
    slicing.done();
    const Progress writing(err, "writing the sections");
    if (!arguments.svg.empty())
      write_file("--svg", arguments.svg,
                 [&](std::ostream& file) { write_sections_svg(file, normal, sections); });
    if (!arguments.json.empty() && arguments.json != "-")
      write_file("--json", arguments.json,
                 [&](std::ostream& file) { write_sections_json(file, normal, sections); });
    if (arguments.json == "-")
      write_sections_json(out, normal, sections);
    else
      write_sections_text(out, sections);
    out.flush();
    writing.done();
    if (!out) {
      err << name << "cannot write the sections to standard output\n";
      return exit_write_failed;
    }
    return 0;
  } catch (const ArgumentError& error) {
    err << name << error.what() << '\n';
  } catch (const MeshError& error) {
    err << name << error.what() << '\n';
  } catch (const InvalidInput& error) {
    err << name << arguments.mesh << ": " << error.what() << '\n';
  } catch (const std::bad_alloc&) {
    err << name << arguments.mesh << ": out of memory\n";
  }
  return exit_bad_input;
}

constexpr const char* slice_footer = R"(
Planes are NX*x + NY*y + NZ*z = D for each offset D (the normal need not be unit length):
  --at D...     the offsets given, in that order (repeats allowed)
  --layers N    N planes at the centres of N equal layers of the mesh's extent along the
                normal: low + (i + 1/2) * (high - low) / N, i = 0 .. N-1
  --step H      planes H apart at layer centres: low + (i + 1/2) * H while below high
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
--svg FILE draws every plane's contours in a grid (blue: closed, red: open).

examples:
  trisect slice bunny.obj --axis y --layers 12 --svg bunny.svg
  trisect slice part.stl --normal 0 0 1 --at 0.5 1.0 --json -)";

}  // namespace

void add_slice_command(CLI::App& app, Context& context) {
  CLI::App* command =
      app.add_subcommand("slice", "cut MESH by parallel planes into exact contours");
  const auto arguments = std::make_shared<SliceArguments>();
  command->add_option("MESH", arguments->mesh, "the mesh: .obj, .ply or .stl")->required();
  CLI::Option_group* direction = command->add_option_group("direction", "the planes' normal");
  direction->add_option("--axis", arguments->axis, "x, y or z: the normal is that unit axis")
      ->check(CLI::IsMember({"x", "y", "z"}));
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
  command->add_option("--json", arguments->json, "also write JSON to FILE (- for stdout)");
  command->add_option("--svg", arguments->svg, "also draw the contours to FILE (SVG)");
  command->add_option("--threads", arguments->threads, "worker threads (default: all)");
  command->footer(slice_footer);
  context.actions[command] = [&context, arguments] {
    return run_slice(*arguments, context.out, context.err);
  };
}

}  // namespace trisect::cli
