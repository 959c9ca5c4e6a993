// `trisect distance MESH_A MESH_B [--transform ...]`: the nearest pair of triangles of two
// meshes and their distance (docs/contracts.md, "`trisect distance`").
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "mesh_pair.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/cli/run.hpp>
#include <trisect/nearest/mesh_distance.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>

namespace trisect::cli {
namespace {

struct DistanceArguments {
  std::vector<std::string> meshes;
  std::vector<std::string> transform_tokens;  ///< The 12 words after --transform, if given.
};

std::string format_answer(const std::optional<MeshDistance>& answer) {
  if (!answer) return "none\n";
  char buffer[64];
  const int length = std::snprintf(buffer, sizeof buffer, "%.9g %u %u\n", answer->distance,
                                   answer->first, answer->second);
  return std::string(buffer, static_cast<std::size_t>(length));
}

int run_distance(const DistanceArguments& arguments, bool has_transform, std::ostream& out,
                 std::ostream& err) {
  CommandRun run("trisect distance", err);
  return run([&] {
    const Transform transform =
        has_transform ? parse_transform(arguments.transform_tokens) : Transform{};
    const MeshInput first = load_input(arguments.meshes[0], run, err);
    const MeshInput second = load_input(arguments.meshes[1], run, err);
    const Progress finding(err, "finding the nearest pair");
    std::optional<MeshDistance> answer;
    try {
      answer = mesh_distance(first.bvh, second.bvh, transform);
    } catch (const InvalidInput& error) {  // the transform maps a vertex of B to infinity
      throw UsageError(std::string(error.what()) + " (of " + arguments.meshes[1] + ")");
    }
    finding.done();
    OutputWriter writer(out);
    writer.stream() << format_answer(answer);
    writer.finish();
    return 0;
  });
}

constexpr const char* distance_footer = R"(
Prints "D I J": (I, J) is the smallest pair (by I, then J) among the pairs of a triangle I of
MESH_A and a triangle J of MESH_B at the smallest exact distance, D that distance (9
significant digits; exactly 0 when they touch). "none" when either mesh has no triangle.
Triangles are closed; a zero-area triangle is the segment or point it spans. --transform
maps MESH_B first, exactly as for `trisect overlap`: each vertex x to R*x + T, each
coordinate ((R_r0*x + R_r1*y) + R_r2*z) + T_r in double without fused multiply-add, rounded
to float once. On bad input nothing is printed, the exit status is 2 and stderr names the
file and line or the argument.

example:
  trisect distance a.obj b.obj --transform 1 0 0 2  0 1 0 0  0 0 1 0)";

}  // namespace

void add_distance_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand("distance", "the nearest pair of triangles of two meshes");
  const auto arguments = std::make_shared<DistanceArguments>();
  command
      ->add_option("MESH", arguments->meshes,
                   "MESH_A MESH_B: meshes (.obj, .ply, .stl) or tree files")
      ->required()
      ->expected(2);
  CLI::Option* transform = command
                               ->add_option("--transform", arguments->transform_tokens,
                                            "maps MESH_B by R*x + T: 12 numbers, row by row")
                               ->expected(12)
                               ->allow_extra_args(false);
  command->footer(distance_footer);
  context.actions[command] = [&context, arguments, transform] {
    return run_distance(*arguments, transform->count() > 0, context.out, context.err);
  };
}

}  // namespace trisect::cli
