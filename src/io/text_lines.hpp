#pragma once
// Number parsing, errors and triangulation shared by the mesh readers (lines, tokens and the
// text check are in trisect/io/text_token.hpp, shared with the query file).

#include "trisect/io/load_mesh.hpp"
#include "trisect/io/text_token.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace trisect::detail {

/// A whole-token signed integer, or nothing.
inline std::optional<std::int64_t> parse_integer(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || error != std::errc() || end != token.data() + token.size())
    return std::nullopt;
  return value;
}

/// "<name>:<line>: <problem>".
[[noreturn]] inline void fail_at_line(const std::string& name, std::size_t line,
                                      const std::string& problem) {
  throw MeshError(name + ":" + std::to_string(line) + ": " + problem);
}

/// "<name>: byte <offset>: <problem>".
[[noreturn]] inline void fail_at_byte(const std::string& name, std::size_t offset,
                                      const std::string& problem) {
  throw MeshError(name + ": byte " + std::to_string(offset) + ": " + problem);
}

/// Throws the `MeshError` of `binary_data_problem` when file[begin, end) is not text.
inline void require_text(std::string_view file, const std::string& name, std::size_t begin = 0,
                         std::size_t end = std::string_view::npos) {
  if (auto problem = binary_data_problem(file, name, begin, end)) throw MeshError(*problem);
}

/// "<name>: <problem>".
[[noreturn]] inline void fail(const std::string& name, const std::string& problem) {
  throw MeshError(name + ": " + problem);
}

/// Appends the fan (v0, vi, vi+1) of one polygon to the mesh, all from source face `face`.
template <class Indices>
void append_fan(Mesh& mesh, const Indices& polygon, std::uint32_t face) {
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    mesh.indices.insert(mesh.indices.end(), {polygon[0], polygon[i], polygon[i + 1]});
    mesh.source_faces.push_back(face);
  }
}

/// Formats a float for messages.
inline std::string describe(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(value));
  return buffer;
}

}  // namespace trisect::detail
