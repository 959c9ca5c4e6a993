#include "commands.hpp"

#include "help.hpp"
#include "progress.hpp"
#include "query_file.hpp"

#include <trisect/io/load_mesh.hpp>
#include <trisect/trisect.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

namespace trisect::cli {
namespace {

// Reads a whole file; throws QueryFileError naming it when it cannot.
std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw QueryFileError(path + ": cannot open file");
  std::ostringstream content;
  content << file.rdbuf();
  if (file.bad()) throw QueryFileError(path + ": cannot read file");
  return content.str();
}

void append_ids(std::string& out, const std::vector<TriangleId>& ids) {
  char buffer[16];
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ' ';
    const int length = std::snprintf(buffer, sizeof buffer, "%u", ids[i]);
    out.append(buffer, static_cast<std::size_t>(length));
  }
  out += '\n';
}

void append_hit(std::string& out, const std::optional<Hit>& hit) {
  if (!hit) {
    out += "miss\n";
    return;
  }
  char buffer[64];
  const int length = std::snprintf(buffer, sizeof buffer, "%.9g %u\n", double(hit->t), hit->id);
  out.append(buffer, static_cast<std::size_t>(length));
}

std::string answer(const Bvh& bvh, const std::vector<Query>& queries) {
  std::string out;
  for (const Query& query : queries) {
    if (const Ray* ray = std::get_if<Ray>(&query)) {
      append_hit(out, closest_hit(bvh, *ray));
    } else {
      std::visit(
          [&](const auto& shape) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(shape)>, Ray>)
              append_ids(out, collect_touching(bvh, shape));
          },
          query);
    }
  }
  return out;
}

bool wants_help(const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments)
    if (argument == "--help" || argument == "-h") return true;
  return false;
}

int usage_error(std::ostream& err, const std::string& problem, const char* help) {
  err << "trisect: " << problem << "\n\n" << help;
  return exit_bad_input;
}

}  // namespace

int run_query(const std::string& mesh_path, const std::string& query_path, std::ostream& out,
              std::ostream& err) {
  try {
    const std::vector<Query> queries = parse_query_file(read_file(query_path), query_path);
    const Progress loading(err, "loading " + mesh_path);
    const Mesh mesh = load_mesh(mesh_path);
    loading.done(std::to_string(mesh.triangle_count()) + " triangles");
    const Progress building(err, "building the BVH");
    const Bvh bvh = build(mesh.soup());
    building.done();
    const Progress answering(err, "answering " + std::to_string(queries.size()) + " queries");
    const std::string answers = answer(bvh, queries);
    answering.done();
    out << answers;
    out.flush();
    return 0;
  } catch (const QueryFileError& error) {
    err << "trisect query: " << error.what() << '\n';
  } catch (const MeshError& error) {
    err << "trisect query: " << error.what() << '\n';
  } catch (const InvalidInput& error) {
    err << "trisect query: " << mesh_path << ": " << error.what() << '\n';
  }
  return exit_bad_input;
}

int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  if (arguments.empty()) return usage_error(err, "no command given", general_help);
  const std::string& command = arguments[0];
  const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
  if (command == "--help" || command == "-h" || command == "help") {
    out << general_help;
    return 0;
  }
  if (command == "query") {
    if (wants_help(rest)) return out << query_help, 0;
    if (rest.size() != 2) return usage_error(err, "query takes MESH and QUERYFILE", query_help);
    return run_query(rest[0], rest[1], out, err);
  }
  if (command == "info") {
    if (wants_help(rest)) return out << info_help, 0;
    if (rest.size() != 1) return usage_error(err, "info takes one MESH", info_help);
    return run_info(rest[0], out, err);
  }
  if (command == "demo") {
    if (wants_help(rest)) return out << demo_help, 0;
    return run_demo(rest, out, err);
  }
  return usage_error(err, "unknown command '" + command + "'", general_help);
}

}  // namespace trisect::cli
