// `trisect build MESH -o FILE [--method sah|ploc|morton] [--threads N]`: builds the BVH once and
// saves it as a tree file that every command then takes in place of MESH.
#include "command_run.hpp"
#include "errors.hpp"
#include "mesh_input.hpp"
#include "option_values.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/io/bvh_file.hpp>
#include <trisect/io/text_token.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace trisect::cli {
namespace {

// Most worker threads --threads may ask for.
constexpr std::size_t max_build_threads = 4096;
// Meshes of at least this many triangles get a line on stderr when their build starts.
constexpr std::size_t announced_build_size = 2'000'000;

struct BuildArguments {
  std::string mesh, output, method = "sah", threads;
  bool has_threads = false;
};

BuildOptions options_of(const BuildArguments& arguments) {
  BuildOptions options;
  if (arguments.method == "morton")
    options.method = BuildMethod::morton;
  else if (arguments.method == "ploc")
    options.method = BuildMethod::ploc;
  else if (arguments.method != "sah")
    throw UsageError("--method: " + quoted_excerpt(arguments.method) +
                     " is not sah, ploc or morton");
  if (arguments.has_threads)
    options.threads = unsigned(whole_number("--threads", arguments.threads, 1, max_build_threads));
  return options;
}

// The line on standard output that says what was written.
std::string summary(const std::string& path, const Bvh& bvh) {
  const BvhStatistics stats = statistics(bvh);
  char line[256];
  const int length = std::snprintf(line, sizeof line,
                                   ": %zu triangles, %zu wide nodes, %zu bytes, SAH cost %.6g\n",
                                   bvh.size(), bvh.wide.size(), stats.bytes, stats.sah_cost);
  return path + std::string(line, static_cast<std::size_t>(length));
}

int run_build(const BuildArguments& arguments, std::ostream& out, std::ostream& err) {
  CommandRun run("trisect build", err);
  return run([&] {
    const BuildOptions options = options_of(arguments);
    const std::vector<OutputRequest> requests{{"-o", arguments.output}};
    const std::vector<std::string> inputs{arguments.mesh};
    check_outputs(requests, inputs);
    const Mesh mesh = load_input(arguments.mesh, run, err, false).mesh;
    if (mesh.triangle_count() >= announced_build_size)
      err << "trisect build: building the tree of " << mesh.triangle_count() << " triangles\n";
    const Progress building(err, "building the BVH");
    const Bvh bvh = build(mesh.soup(), options);
    building.done(std::to_string(bvh.size()) + " triangles");
    std::vector<Output> outputs{{requests[0], [&](std::ostream& file) { write_bvh(bvh, file); }}};
    if (arguments.output != standard_output_path)
      outputs.push_back({{"the summary", standard_output_path},
                         [&](std::ostream& text) { text << summary(arguments.output, bvh); }});
    const Progress writing(err, "writing " + arguments.output);
    write_outputs(outputs, out);
    writing.done();
    return 0;
  });
}

constexpr const char* build_footer = R"(
Builds MESH's BVH once and writes it to FILE as a tree file, which every command (query,
slice, overlap, distance, info) then takes in place of a mesh: it is mapped, not rebuilt, and
gives the same answers with the same triangle ids. The file holds the tree's arrays as they lie
in memory behind a 128-byte header (magic bytes, format version, byte order, sizes, XXH3-64
checksum); a truncated, corrupted or foreign file is refused with a message. It is written
whole or not at all (under a temporary name, then renamed); - writes it to standard output.
Otherwise one line on standard output says what was written:
  FILE: N triangles, M wide nodes, B bytes, SAH cost C

--method sah (default) builds the binned-SAH tree the queries are fastest on; ploc clusters
neighbours along a Morton curve, for a tree close to sah's built several times faster; morton
the linear BVH, fastest to build. --threads N (1 to 4096) changes no tree.

example:
  trisect build bunny.obj -o bunny.bvh && trisect query bunny.bvh q.txt)";

}  // namespace

void add_build_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand("build", "build MESH's BVH once and save it to a file");
  const auto arguments = std::make_shared<BuildArguments>();
  command->add_option("MESH", arguments->mesh, mesh_argument_help)->required();
  command->add_option("-o,--output", arguments->output, "FILE: the tree file (- for stdout)")
      ->required();
  command->add_option("--method", arguments->method, "sah (default), ploc or morton");
  const CLI::Option* threads = command->add_option(
      "--threads", arguments->threads,
      "worker threads, 1 to " + std::to_string(max_build_threads) + " (default: all)");
  command->footer(build_footer);
  context.actions[command] = [&context, arguments, threads] {
    arguments->has_threads = threads->count() > 0;
    return run_build(*arguments, context.out, context.err);
  };
}

}  // namespace trisect::cli
