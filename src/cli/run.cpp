// The command line of `trisect`: CLI11 parses it, each subcommand's file registers itself.
#include "trisect/cli/run.hpp"

#include "errors.hpp"
#include "output.hpp"
#include "subcommands.hpp"

#include <trisect/io/text_token.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <span>
#include <sstream>

namespace trisect::cli {
namespace {

using Registration = void (*)(CLI::App&, Context&);

// Every subcommand, in the order `trisect --help` lists them.
constexpr Registration registrations[] = {
    add_query_command,     add_slice_command,    add_info_command,  add_overlap_command,
    add_clearance_command, add_distance_command, add_build_command, add_demo_command};

constexpr const char* general_footer = R"(
MESH is .obj, .ply (ascii or binary) or .stl (ascii or binary). Triangle ids are 0-based in
file order, polygons fan-triangulated. Answers are exact: closed sets, touching counts.
Exit status: 0 on success, 2 on bad input (message on stderr naming file and line, or the
argument), 1 when the answers could not be written.
Run 'trisect CMD --help' for the arguments of one command.)";

void build_command_line(CLI::App& app, Context& context) {
  app.require_subcommand(1);
  app.footer(general_footer);
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
  return std::string(is_option ? "unknown option " : "unknown command ") +
         quoted_excerpt(arguments[0]) + " (expected a command: " + names + "; see trisect --help)";
}

// True for a token that CLI11 takes for an option name rather than a value.
bool looks_like_option(const std::string& token) {
  return token.size() > 1 && token[0] == '-' && !read_float(token);
}

// How many of `tokens`, from the first on, are numbers.
std::size_t leading_numbers(std::span<const std::string> tokens) {
  std::size_t count = 0;
  while (count < tokens.size() && read_float(tokens[count])) ++count;
  return count;
}

// CLI11 reports an option left without its values, or given a wrong count of numbers, as a
// complaint about something else (an option group's requirement, a positional argument's
// count): such options are named here first. `arguments` follow the subcommand's name.
void check_option_values(const CLI::App& command, std::span<const std::string> arguments) {
  for (std::size_t i = 0; i < arguments.size() && arguments[i] != "--"; ++i) {
    const CLI::Option* option = command.get_option_no_throw(arguments[i]);
    if (option == nullptr || option->get_expected_min() == 0) continue;
    const std::span<const std::string> rest = arguments.subspan(i + 1);
    if (rest.empty() || looks_like_option(rest[0]))
      throw UsageError(arguments[i] + ": expects a value, got none");
    const int expected = option->get_expected_max();
    if (expected <= 1 || option->get_expected_min() != expected) continue;
    const std::size_t numbers = leading_numbers(rest);
    const auto wanted = static_cast<std::size_t>(expected);
    if (numbers < wanted && numbers < rest.size() && !looks_like_option(rest[numbers]))
      throw UsageError(arguments[i] + " number " + std::to_string(numbers + 1) + " " +
                       quoted_excerpt(rest[numbers]) + " is not a number");
    if (numbers != wanted)
      throw UsageError(arguments[i] + " takes " + std::to_string(wanted) + " numbers, got " +
                       std::to_string(numbers));
  }
}

// CLI11's message with every argument longer than `quoted_length` cut short, as the commands
// quote untrusted text.
std::string shortened(std::string message, const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments) {
    if (argument.size() <= quoted_length) continue;
    const std::string cut = argument.substr(0, quoted_length) + "...";
    for (std::size_t at = message.find(argument); at != std::string::npos;
         at = message.find(argument, at + cut.size()))
      message.replace(at, argument.size(), cut);
  }
  return message;
}

// Writes `text` (help) to `out` through the one writer: 0, or `exit_write_failed`.
int write_help(const std::string& text, std::ostream& out) {
  OutputWriter writer(out);
  writer.stream() << text;
  try {
    writer.finish();
    return 0;
  } catch (const WriteError&) {
    return exit_write_failed;
  }
}

// CLI11 2.1 loops forever on an empty argument that it takes for a positional one when another
// argument follows (`slice m.obj '' --at 1`): an empty argument that is not an option's value
// is refused first. `arguments` follow the subcommand's name.
void check_empty_arguments(const CLI::App& command, std::span<const std::string> arguments) {
  bool positional_only = false;  // after "--", every argument is a positional one
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    positional_only = positional_only || arguments[i] == "--";
    if (!arguments[i].empty()) continue;
    const CLI::Option* option = i > 0 ? command.get_option_no_throw(arguments[i - 1]) : nullptr;
    if (positional_only || option == nullptr || option->get_expected_min() == 0)
      throw UsageError("argument " + std::to_string(i + 2) + " is empty");
  }
}

// `check_option_values` and `check_empty_arguments` for the subcommand that `arguments` name, if
// any; its message is prefixed with the subcommand's name.
void check_command_values(const CLI::App& app, const std::vector<std::string>& arguments) {
  if (arguments.empty()) return;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!command->check_name(arguments[0])) continue;
    try {
      check_option_values(*command, std::span(arguments).subspan(1));
      check_empty_arguments(*command, std::span(arguments).subspan(1));
    } catch (const UsageError& error) {
      throw UsageError(command->get_name() + ": " + error.what());
    }
  }
}

// Parses the command line; throws `UsageError` or `CLI::ParseError`.
void parse(CLI::App& app, const std::vector<std::string>& arguments) {
  check_command_values(app, arguments);
  std::vector<std::string> remaining = reversed(arguments);
  app.parse(remaining);
}

}  // namespace

int run(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  Context context{out, err};
  CLI::App app("trisect: exact BVH queries over triangle meshes", "trisect");
  build_command_line(app, context);
  try {
    parse(app, arguments);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {  // --help
      std::ostringstream help;
      app.exit(error, help, err);
      return write_help(help.str(), out);
    }
    const auto message = unknown_command(app, arguments);
    err << "trisect: " << shortened(message ? *message : error.what(), arguments)
        << "\nRun 'trisect --help' or 'trisect CMD --help' for usage.\n";
    return exit_bad_input;
  } catch (const UsageError& error) {  // named by its command: "slice: --at: ..."
    err << "trisect " << error.what() << '\n';
    return exit_bad_input;
  }
  for (const CLI::App* chosen : app.get_subcommands()) return context.actions.at(chosen)();
  return exit_bad_input;  // unreachable: one subcommand is required
}

}  // namespace trisect::cli
