#pragma once
// The subcommands of the `trisect` program, callable in-process so that tests can run them.

#include <iosfwd>
#include <string>
#include <vector>

namespace trisect::cli {

/// Exit status for bad input (a malformed mesh or query file, bad arguments).
inline constexpr int exit_bad_input = 2;

/// `trisect query MESH QUERYFILE`: answers every query of QUERYFILE on MESH, one line each, to
/// `out`. The whole query file and the mesh are read before any answer; on any error nothing is
/// written to `out`, a message naming the file and line goes to `err`, and 2 is returned.
int run_query(const std::string& mesh_path, const std::string& query_path, std::ostream& out,
              std::ostream& err);

/// `trisect info MESH`: triangles, vertices, degenerate triangles, bounds, watertightness and
/// BVH statistics with the build time.
int run_info(const std::string& mesh_path, std::ostream& out, std::ostream& err);

/// `trisect demo [--svg FILE]`: the main job on a built-in scene (the Stanford bunny when the
/// shared meshes are found, otherwise a procedural sphere): builds the BVH, runs box, plane,
/// sphere and ray queries, prints what they found and how long they took, and writes an SVG
/// picture of a plane section with the triangles it touches.
int run_demo(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

/// The whole command line (`arguments` excludes the program name), with --help handling.
int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

}  // namespace trisect::cli
