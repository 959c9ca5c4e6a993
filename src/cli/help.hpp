#pragma once
// Help texts of the `trisect` command.

namespace trisect::cli {

inline constexpr const char* general_help = R"(trisect: exact BVH queries over triangle meshes

usage:
  trisect query MESH QUERYFILE   answer box, plane, sphere and ray queries on MESH
  trisect info MESH              triangles, bounds, watertightness, BVH statistics
  trisect demo [--svg FILE]      the main job on a built-in scene, with timings and a picture
  trisect CMD --help             help on one command

MESH is .obj, .ply (ascii or binary) or .stl (ascii or binary). Triangle ids are 0-based in
file order, polygons fan-triangulated. Answers are exact: closed sets, touching counts.
Exit status: 0 on success, 2 on bad input (message on stderr naming file and line).
)";

inline constexpr const char* query_help = R"(usage: trisect query MESH QUERYFILE

QUERYFILE has one query per line; tokens are separated by spaces or tabs, CRLF is accepted,
blank lines and lines starting with # are ignored:
  box X0 Y0 Z0 X1 Y1 Z1            closed box; per axis the smaller number is the minimum
  plane NX NY NZ D                 the plane NX*x + NY*y + NZ*z = D (normal not zero)
  sphere CX CY CZ R                closed ball, R >= 0
  ray OX OY OZ DX DY DZ [TMIN [TMAX]]   TMIN defaults to 0, TMAX to inf
Numbers are rounded to float as strtof does; inf is accepted for box bounds, R, TMIN, TMAX.

Output, one line per query, in order:
  box/plane/sphere   ascending ids of every triangle touching it (empty line for none)
  ray                "T ID" of the closest hit with TMIN <= T <= TMAX (T to 9 significant
                     digits) on a triangle of non-zero area, or "miss"; watertight; a ray in a
                     triangle's plane does not hit it
The whole query file is read first: on any error nothing is printed, the exit status is 2 and
stderr names the file and line.

example:
  printf 'box -1 -1 -1 1 1 1\nplane 0 0 1 0\nray 0 0 5 0 0 -1\n' > q.txt
  trisect query bunny.obj q.txt
)";

inline constexpr const char* info_help = R"(usage: trisect info MESH

Prints the number of triangles and vertices, degenerate (zero-area) triangles, the bounds,
whether the mesh is watertight (every edge, between vertices with equal positions, used by
exactly two triangles), and the BVH's build time and statistics.
)";

inline constexpr const char* demo_help = R"(usage: trisect demo [--svg FILE]

Runs the main job on a built-in scene: the Stanford bunny from the shared meshes
($TRISECT_MESH_DIR or ../shared/meshes) when present, otherwise a procedural noisy sphere.
Builds the BVH, runs box, plane, sphere and ray queries, prints what they found and how long
they took, and writes an SVG of a plane section with the triangles it touches (default
trisect-demo-section.svg in the current directory).
)";

}  // namespace trisect::cli
