// The command line of `trisect`: CLI11 parses it, each subcommand's file registers itself.
#include "trisect/cli/run.hpp"

#include "subcommands.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <optional>
#include <ostream>

namespace trisect::cli {
namespace {

using Registration = void (*)(CLI::App&, Context&);

// Every subcommand, in the order `trisect --help` lists them.
constexpr Registration registrations[] = {add_query_command, add_slice_command, add_info_command,
                                          add_overlap_command, add_demo_command};

constexpr const char* general_footer = R"(
MESH is .obj, .ply (ascii or binary) or .stl (ascii or binary). Triangle ids are 0-based in
file order, polygons fan-triangulated. Answers are exact: closed sets, touching counts.
Exit status: 0 on success, 2 on bad input (message on stderr naming file and line, or the
argument), 1 when the answers could not be written.
Run 'trisect CMD --help' for the arguments of one command.)";

void build_command_line(CLI::App& app, Context& context) {
  app.require_subcommand(1);
  app.footer(general_footer);
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return std::string("trisect: ") + error.what() +
           "\nRun 'trisect --help' or 'trisect CMD --help' for usage.\n";
  });
  for (const Registration registration : registrations) registration(app, context);
}

// CLI11 consumes its argument vector from the back. It reads '-' and a digit as a negative
// number but "-.5" as a short option: such numbers (--transform takes them) get a leading zero,
// which strtof reads alike.
std::vector<std::string> reversed(const std::vector<std::string>& arguments) {
  std::vector<std::string> result(arguments.rbegin(), arguments.rend());
  for (std::string& argument : result)
    if (argument.size() > 2 && argument[0] == '-' && argument[1] == '.' && argument[2] >= '0' &&
        argument[2] <= '9')
      argument.insert(1, "0");
  return result;
}

// The message for a first argument that names no subcommand (CLI11 would only say that one is
// required), or nothing.
std::optional<std::string> unknown_command(const CLI::App& app,
                                           const std::vector<std::string>& arguments) {
  if (arguments.empty()) return std::nullopt;
  std::string names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (command->check_name(arguments[0])) return std::nullopt;
    names += (names.empty() ? "" : ", ") + command->get_name();
  }
  const bool is_option = arguments[0].starts_with('-');
  return std::string(is_option ? "unknown option '" : "unknown command '") +
         arguments[0].substr(0, 40) + "' (expected a command: " + names + "; see trisect --help)";
}

}  // namespace

int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  Context context{out, err};
  CLI::App app("trisect: exact BVH queries over triangle meshes", "trisect");
  try {
    build_command_line(app, context);
    std::vector<std::string> remaining = reversed(arguments);
    app.parse(remaining);
  } catch (const CLI::ParseError& error) {
    const bool is_help = error.get_exit_code() == 0;
    if (is_help) return app.exit(error, out, err);
    if (const auto message = unknown_command(app, arguments))
      err << "trisect: " << *message << '\n';
    else
      app.exit(error, out, err);
    return exit_bad_input;
  }
  for (const CLI::App* chosen : app.get_subcommands()) return context.actions.at(chosen)();
  return exit_bad_input;  // unreachable: one subcommand is required
}

}  // namespace trisect::cli
