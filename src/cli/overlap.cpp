// `trisect overlap`: every intersecting triangle pair of two meshes, or of one mesh with
// itself (docs/contracts.md, "`trisect overlap`").
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "mesh_pair.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/overlap/overlap.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace trisect::cli {
namespace {

struct OverlapArguments {
  std::vector<std::string> meshes;
  std::vector<std::string> transform_tokens;  ///< The 12 words after --transform, if given.
  std::optional<Transform> transform;
  bool self = false;
  bool count = false;
};

/// Checks what CLI11 parsed against the contract's forms.
void check_arguments(OverlapArguments& parsed, bool has_transform) {
  if (parsed.self && has_transform) throw UsageError("--self does not take --transform");
  if (parsed.self && parsed.meshes.size() != 1) throw UsageError("overlap --self takes one MESH");
  if (!parsed.self && parsed.meshes.size() != 2)
    throw UsageError("overlap takes MESH_A and MESH_B (or MESH --self)");
  if (has_transform) parsed.transform = parse_transform(parsed.transform_tokens);
}

std::vector<TrianglePair> answer(const OverlapArguments& arguments, CommandRun& run,
                                 std::ostream& err) {
  const MeshInput first = load_input(arguments.meshes[0], run, err);
  const Bvh& first_bvh = first.bvh;
  if (arguments.self) {
    const Progress finding(err, "finding self-intersections");
    std::vector<TrianglePair> pairs = self_intersections(first_bvh);
    finding.done(std::to_string(pairs.size()) + " pairs");
    return pairs;
  }
  const MeshInput second = load_input(arguments.meshes[1], run, err);
  const Bvh& second_bvh = second.bvh;
  const Progress finding(err, "finding intersecting pairs");
  try {
    std::vector<TrianglePair> pairs = collect_intersecting_pairs(
        first_bvh, second_bvh, arguments.transform.value_or(Transform{}));
    finding.done(std::to_string(pairs.size()) + " pairs");
    return pairs;
  } catch (const InvalidInput& error) {  // the transform maps a vertex of B to infinity
    throw UsageError(std::string(error.what()) + " (of " + arguments.meshes[1] + ")");
  }
}

int run_overlap(OverlapArguments& arguments, bool has_transform, std::ostream& out,
                std::ostream& err) {
  CommandRun run("trisect overlap", err);
  return run([&] {
    check_arguments(arguments, has_transform);
    const std::vector<TrianglePair> pairs = answer(arguments, run, err);
    const std::string text = format_pairs(pairs, arguments.count);
    OutputWriter writer(out);
    writer.stream() << text;
    writer.finish();
    return 0;
  });
}

constexpr const char* overlap_footer = R"(
Prints one line "I J" per pair of intersecting triangles, ascending by I then J; --count
prints only their number. Exact: closed triangles, touching counts, a zero-area triangle is
the segment or point it spans.
  A with B   I is a triangle of MESH_A, J of MESH_B. --transform first maps each vertex x of
             MESH_B to R*x + T: each coordinate ((R_r0*x + R_r1*y) + R_r2*z) + T_r in double
             without fused multiply-add, rounded to float once (the 12 numbers, row by row
             R00 R01 R02 T0 R10 R11 R12 T1 R20 R21 R22 T2, are rounded to float first and must
             be finite).
  --self     every pair I < J of distinct triangles of MESH that meet outside what they share:
             with no common vertex position (exactly equal coordinates) any contact counts;
             with one, contact anywhere but there; with two, contact off the common edge (a
             fold, a coplanar overlap across it). The same three vertex positions always count.
On bad input (a malformed mesh, a bad --transform, one that maps a vertex to infinity,
--self with --transform) nothing is printed, the exit status is 2 and stderr names the file
and line or the argument.

examples:
  trisect overlap a.obj b.obj --transform 1 0 0 0.5  0 1 0 0  0 0 1 0
  trisect overlap mesh.stl --self --count)";

}  // namespace

void add_overlap_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand(
      "overlap", "every intersecting triangle pair of two meshes, or of one with itself (--self)");
  const auto arguments = std::make_shared<OverlapArguments>();
  command
      ->add_option(
          "MESH", arguments->meshes,
          "MESH_A MESH_B, or one MESH with --self: meshes (.obj, .ply, .stl) or tree files")
      ->required()
      ->expected(1, 2);
  CLI::Option* transform = command
                               ->add_option("--transform", arguments->transform_tokens,
                                            "maps MESH_B by R*x + T: 12 numbers, row by row")
                               ->expected(12)
                               ->allow_extra_args(false);
  command->add_flag("--self", arguments->self, "self-intersections of one MESH");
  command->add_flag("--count", arguments->count, "print only the number of pairs");
  command->footer(overlap_footer);
  context.actions[command] = [&context, arguments, transform] {
    return run_overlap(*arguments, transform->count() > 0, context.out, context.err);
  };
}

}  // namespace trisect::cli
