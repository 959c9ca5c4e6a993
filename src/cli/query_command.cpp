// `trisect query MESH QUERYFILE`.
#include "command_run.hpp"
#include "mesh_input.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "subcommands.hpp"

#include <trisect/cli/query_file.hpp>
#include <trisect/cli/run.hpp>
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/read_file.hpp>
#include <trisect/trisect.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <ostream>
#include <string_view>

namespace trisect::cli {
namespace {

void append_ids(std::string& out, const std::vector<TriangleId>& ids) {
  char buffer[16];
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ' ';
    const int length = std::snprintf(buffer, sizeof buffer, "%u", ids[i]);
    out.append(buffer, static_cast<std::size_t>(length));
  }
  out += '\n';
}

// "T ID" of a ray hit or a box cast's contact (T to 9 significant digits), or `none` without.
template <class Contact>
void append_time_and_id(std::string& out, const std::optional<Contact>& contact, const char* none) {
  if (!contact) {
    out += none;
    out += '\n';
    return;
  }
  char buffer[64];
  const int length =
      std::snprintf(buffer, sizeof buffer, "%.9g %u\n", double(contact->t), contact->id);
  out.append(buffer, static_cast<std::size_t>(length));
}

void append_closest(std::string& out, const std::optional<ClosestPoint>& closest) {
  if (!closest) {
    out += "none\n";
    return;
  }
  char buffer[128];
  const int length = std::snprintf(buffer, sizeof buffer, "%.9g %u %.9g %.9g %.9g\n",
                                   closest->distance, closest->id, double(closest->point.x),
                                   double(closest->point.y), double(closest->point.z));
  out.append(buffer, static_cast<std::size_t>(length));
}

void append_nearest(std::string& out, const std::vector<ClosestPoint>& nearest) {
  if (nearest.empty()) {
    out += "none\n";
    return;
  }
  char buffer[64];
  for (std::size_t i = 0; i < nearest.size(); ++i) {
    const int length = std::snprintf(buffer, sizeof buffer, i == 0 ? "%.9g %u" : " %.9g %u",
                                     nearest[i].distance, nearest[i].id);
    out.append(buffer, static_cast<std::size_t>(length));
  }
  out += '\n';
}

// One query's answer line, replacing `line`.
void answer_line(const Bvh& bvh, const Query& query, std::string& line) {
  line.clear();
  std::visit(
      [&](const auto& shape) {
        using Shape = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<Shape, Ray>) {
          append_time_and_id(line, closest_hit(bvh, shape), "miss");
        } else if constexpr (std::is_same_v<Shape, ClosestQuery>) {
          append_closest(line, closest_point(bvh, shape.point, shape.max_distance));
        } else if constexpr (std::is_same_v<Shape, NearestQuery>) {
          append_nearest(line, k_nearest(bvh, shape.point, shape.k, shape.max_distance));
        } else if constexpr (std::is_same_v<Shape, CastQuery>) {
          append_time_and_id(line, cast_box(bvh, shape.box, shape.motion), "none");
        } else if constexpr (std::is_same_v<Shape, InsideQuery>) {
          line += to_string(side_of(bvh, shape.point));
          line += '\n';
        } else {
          append_ids(line, collect_touching(bvh, shape));
        }
      },
      query);
}

// `inside` lines need a closed mesh: throws `QueryFileError` naming the first such line, the
// mesh and an offending edge when it is not.
void check_inside_queries(const std::vector<Query>& queries, const TriangleSoup& soup,
                          const std::string& mesh_path, const std::string& query_path) {
  const auto first_inside = std::find_if(queries.begin(), queries.end(), [](const Query& query) {
    return std::holds_alternative<InsideQuery>(query);
  });
  if (first_inside == queries.end()) return;
  try {
    require_closed(soup, mesh_path);
  } catch (const InvalidInput& error) {
    throw QueryFileError(query_path + ":" +
                         std::to_string(std::get<InsideQuery>(*first_inside).line) +
                         ": 'inside' needs a closed mesh, but " + error.what());
  }
}

// Writes each answer as soon as it is known, so that memory holds one answer at a time; stops
// at the first failed write (throws `WriteError`).
void write_answers(const Bvh& bvh, const std::vector<Query>& queries, OutputWriter& out) {
  std::string line;
  for (const Query& query : queries) {
    answer_line(bvh, query, line);
    out.stream().write(line.data(), static_cast<std::streamsize>(line.size()));
    out.check();
  }
  out.finish();
}

constexpr const char* query_footer = R"(
QUERYFILE has one query per line; tokens are separated by spaces or tabs, CRLF is accepted,
blank lines and lines starting with # are ignored:
  box X0 Y0 Z0 X1 Y1 Z1            closed box; per axis the smaller number is the minimum
  plane NX NY NZ D                 the plane NX*x + NY*y + NZ*z = D (normal not zero)
  sphere CX CY CZ R                closed ball, R >= 0
  capsule AX AY AZ BX BY BZ R      the points within R (finite, >= 0) of the segment [A, B]
  obb CX CY CZ UX UY UZ VX VY VZ WX WY WZ HU HV HW
                                   the closed box C + s*U + t*V + r*W, |s| <= HU, |t| <= HV,
                                   |r| <= HW (axes U, V, W independent, any length; H >= 0)
  cast CX CY CZ UX UY UZ VX VY VZ WX WY WZ HU HV HW MX MY MZ
                                   the obb moved by t*M for t in [0, 1]: the first contact
  frustum N1X N1Y N1Z D1 ... N6X N6Y N6Z D6
                                   the points behind all six planes: N.x <= D for each
                                   (normals point out; near, far and four sides of a view)
  ray OX OY OZ DX DY DZ [TMIN [TMAX]]   TMIN defaults to 0, TMAX to inf
  closest X Y Z [RMAX]             the nearest triangle within RMAX (>= 0, default inf)
  nearest K X Y Z [RMAX]           the K (>= 1) nearest triangles within RMAX
  inside X Y Z                     inside, outside or on the mesh, which must be closed
Numbers are rounded to float as strtof does; inf is accepted for box bounds, R, TMIN, TMAX,
RMAX.

Output, one line per query, in order:
  box/plane/sphere/capsule/obb/frustum
                     ascending ids of every triangle touching it (empty line for none)
  ray                "T ID" of the closest hit with TMIN <= T <= TMAX (T to 9 significant
                     digits) on a triangle of non-zero area, or "miss"; watertight; a ray in a
                     triangle's plane does not hit it
  closest            "D ID PX PY PZ": ID the smallest id among the triangles at the smallest
                     exact distance D, P the point of triangle ID nearest the query point (9
                     significant digits; D exactly 0 on the triangle), or "none"
  nearest            "D1 ID1 D2 ID2 ...": up to K triangles within RMAX by ascending exact
                     distance, equal distances by ascending id (as closest's D and ID), or
                     "none"
  cast               "T ID": the first time T in [0, 1] the moving box touches a triangle
                     (decided exactly, printed as the nearest float to 9 significant digits;
                     0 when it touches one at the start) and ID the smallest id touched then,
                     or "none"
  inside             "surface" on a triangle, else "inside" or "outside" by the even-odd rule;
                     a mesh that is not closed (an edge of an odd number of triangles of
                     non-zero area, vertices welded by position) is an error naming the edge
MESH and QUERYFILE must be regular files (not directories, FIFOs or devices). The whole query
file and the mesh are read first: on any error nothing is printed, the exit status is 2 and
stderr names the file and line (running out of memory names the file too). Answers are then
written as they are computed; when they cannot be written the exit status is 1.

example:
  printf 'box -1 -1 -1 1 1 1\nplane 0 0 1 0\nray 0 0 5 0 0 -1\n' > q.txt
  trisect query bunny.obj q.txt)";

// The run: answers the queries of one query file on one mesh. The query file and the mesh are
// read whole before any answer, so that bad input prints nothing on `out`.
int run_query(const std::string& mesh_path, const std::string& query_path, std::ostream& out,
              std::ostream& err) {
  CommandRun run("trisect query", err);
  return run([&] {
    run.processing(query_path);
    const std::vector<Query> queries = parse_query_file(read_regular_file(query_path), query_path);
    const MeshInput input = load_input(mesh_path, run, err);
    const Bvh& bvh = input.bvh;
    check_inside_queries(queries, input.mesh.soup(), mesh_path, query_path);
    const Progress answering(err, "answering " + std::to_string(queries.size()) + " queries");
    OutputWriter writer(out);
    write_answers(bvh, queries, writer);
    answering.done();
    return 0;
  });
}

}  // namespace

void add_query_command(CLI::App& app, Context& context) {
  CLI::App* command = app.add_subcommand("query",
                                         "answer box, plane, sphere, capsule, obb, frustum, ray, "
                                         "closest, nearest, cast and inside queries on MESH");
  const auto mesh_path = std::make_shared<std::string>();
  const auto query_path = std::make_shared<std::string>();
  command->add_option("MESH", *mesh_path, mesh_argument_help)->required();
  command->add_option("QUERYFILE", *query_path, "the queries, one per line")->required();
  command->footer(query_footer);
  context.actions[command] = [&context, mesh_path, query_path] {
    return run_query(*mesh_path, *query_path, context.out, context.err);
  };
}

}  // namespace trisect::cli
