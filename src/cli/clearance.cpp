// `trisect clearance`: every pair of triangles of two meshes, or of one mesh, within a distance
// of each other (docs/contracts.md, "`trisect clearance`").
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "mesh_pair.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/cli/run.hpp>
#include <trisect/io/text_token.hpp>
#include <trisect/overlap/clearance.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

namespace trisect::cli {
namespace {

struct ClearanceArguments {
  std::vector<std::string> words;             ///< MESH_A MESH_B D, or MESH D with --self.
  std::vector<std::string> transform_tokens;  ///< The 12 words after --transform, if given.
  bool self = false;
  bool count = false;
};

/// The meshes and the distance of the positional words, checked against the contract's forms.
struct ClearanceQuery {
  std::vector<std::string> meshes;
  float distance = 0;
  std::optional<Transform> transform;
};

/// D rounded to float, which must be finite and >= 0 (-0, and what rounds to it, is 0).
float parse_distance(const std::string& token) {
  const std::optional<float> value = read_float(token);
  const std::string which = "distance D " + quoted_excerpt(token);
  if (!value) throw UsageError(which + " is not a number");
  if (!std::isfinite(*value)) throw UsageError(which + " is not finite");
  if (*value < 0) throw UsageError(which + " is negative");
  return *value == 0 ? 0.0f : *value;
}

ClearanceQuery checked_query(const ClearanceArguments& parsed, bool has_transform) {
  if (parsed.self && has_transform) throw UsageError("--self does not take --transform");
  if (parsed.self && parsed.words.size() != 2) throw UsageError("clearance --self takes MESH D");
  if (!parsed.self && parsed.words.size() != 3)
    throw UsageError("clearance takes MESH_A MESH_B D (or MESH --self D)");
  ClearanceQuery query;
  query.meshes.assign(parsed.words.begin(), parsed.words.end() - 1);
  query.distance = parse_distance(parsed.words.back());
  if (has_transform) query.transform = parse_transform(parsed.transform_tokens);
  return query;
}

std::vector<TrianglePair> answer(const ClearanceQuery& query, CommandRun& run, std::ostream& err) {
  const MeshInput first = load_input(query.meshes[0], run, err);
  if (query.meshes.size() == 1) {
    const Progress finding(err, "finding pairs within the distance");
    std::vector<TrianglePair> pairs = self_pairs_within(first.bvh, query.distance);
    finding.done(std::to_string(pairs.size()) + " pairs");
    return pairs;
  }
  const MeshInput second = load_input(query.meshes[1], run, err);
  const Progress finding(err, "finding pairs within the distance");
  try {
    std::vector<TrianglePair> pairs =
        pairs_within(first.bvh, second.bvh, query.distance, query.transform.value_or(Transform{}));
    finding.done(std::to_string(pairs.size()) + " pairs");
    return pairs;
  } catch (const InvalidInput& error) {  // the transform maps a vertex of B to infinity
    throw UsageError(std::string(error.what()) + " (of " + query.meshes[1] + ")");
  }
}

int run_clearance(const ClearanceArguments& arguments, bool has_transform, std::ostream& out,
                  std::ostream& err) {
  CommandRun run("trisect clearance", err);
  return run([&] {
    const ClearanceQuery query = checked_query(arguments, has_transform);
    const std::string text = format_pairs(answer(query, run, err), arguments.count);
    OutputWriter writer(out);
    writer.stream() << text;
    writer.finish();
    return 0;
  });
}

constexpr const char* clearance_footer = R"(
Prints one line "I J" per pair of triangles within distance D of each other, ascending by I
then J; --count prints only their number. Exact: the distance between the closed triangles
(a zero-area triangle is the segment or point it spans) is compared with D exactly, and a pair
at exactly D counts. D is rounded to float first and must be finite and >= 0 (-0, and a value
that rounds to it, is 0); D = 0 gives the pairs that touch, as `trisect overlap` does.
  A with B   I is a triangle of MESH_A, J of MESH_B. --transform first maps each vertex of
             MESH_B as `trisect overlap --transform` does (12 numbers, row by row).
  --self     every pair I < J of triangles of MESH that share no vertex position (exactly
             equal coordinates): neighbours, always at distance 0, are left out.
On bad input (a malformed mesh, a bad D or --transform, one that maps a vertex to infinity,
--self with --transform) nothing is printed, the exit status is 2 and stderr names the file
and line or the argument.

examples:
  trisect clearance part.stl fixture.stl 0.5
  trisect clearance a.obj b.obj 0.01 --transform 1 0 0 2  0 1 0 0  0 0 1 0
  trisect clearance print.stl --self 0.4 --count)";

}  // namespace

void add_clearance_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand(
      "clearance",
      "every triangle pair of two meshes (or of one, --self) within a distance D of each other");
  const auto arguments = std::make_shared<ClearanceArguments>();
  command
      ->add_option("MESH D", arguments->words,
                   "MESH_A MESH_B D, or MESH D with --self: meshes (.obj, .ply, .stl) or tree "
                   "files, then the distance")
      ->required()
      ->expected(2, 3);
  CLI::Option* transform = command
                               ->add_option("--transform", arguments->transform_tokens,
                                            "maps MESH_B by R*x + T: 12 numbers, row by row")
                               ->expected(12)
                               ->allow_extra_args(false);
  command->add_flag("--self", arguments->self, "pairs of one MESH, neighbours left out");
  command->add_flag("--count", arguments->count, "print only the number of pairs");
  command->footer(clearance_footer);
  context.actions[command] = [&context, arguments, transform] {
    return run_clearance(*arguments, transform->count() > 0, context.out, context.err);
  };
}

}  // namespace trisect::cli
