// Wavefront OBJ: `v` positions and `f` polygons (v, v/vt, v/vt/vn, v//vn, negative indices
// relative to the vertices read so far), fan-triangulated in file order. Every other element
// (vt, vn, l, p, o, g, s, usemtl, mtllib, comments) is ignored, but text in which no line is an
// OBJ statement (a README, a material library) is not OBJ: an error, not an empty mesh. Written
// here rather than with tinyobjloader, whose number parsing goes through double (so it may round
// differently from strtof, which the trisect contract requires) and whose errors carry no line
// numbers.
#include "mesh_readers.hpp"
#include "text_lines.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <vector>

namespace trisect::detail {
namespace {

// Every statement of the OBJ specification (Wavefront, "Object Files (.obj)", version 3.0,
// Appendix B1), the superseded ones of its older versions included.
bool is_obj_keyword(std::string_view keyword) {
  static constexpr std::string_view keywords[] = {
      "v",      "vt",     "vn",         "vp",        "cstype",   "deg",   "bmat",   "step",
      "p",      "l",      "f",          "fo",        "curv",     "curv2", "surf",   "parm",
      "trim",   "hole",   "scrv",       "sp",        "end",      "con",   "g",      "s",
      "mg",     "o",      "bevel",      "c_interp",  "d_interp", "lod",   "usemtl", "mtllib",
      "maplib", "usemap", "shadow_obj", "trace_obj", "ctech",    "stech", "call",   "csh",
      "bsp",    "bzp",    "cdc",        "cdp",       "res"};
  return std::find(std::begin(keywords), std::end(keywords), keyword) != std::end(keywords);
}

struct PendingIndex {  // a positive index checked once every vertex is known
  std::uint32_t value;
  std::size_t line;
};

class ObjReader {
 public:
  explicit ObjReader(const std::string& name) : name_(name) {}

  Mesh read(std::string_view content) {
    require_text(content, name_);
    LineScanner lines(content);
    while (const auto line = lines.next()) {
      Tokens tokens(*line);
      const std::string_view keyword = tokens.next();
      if (keyword == "v") {
        read_vertex(tokens, lines.number());
        has_statement_ = true;
      } else if (keyword == "f") {
        read_face(tokens, lines.number());
        has_statement_ = true;
      } else if (!has_statement_ && !keyword.empty() && keyword.front() != '#') {
        note_other(keyword, lines.number());
      }
    }
    if (!has_statement_ && first_other_line_ != 0)
      fail(name_, "not an OBJ file: no line is an OBJ statement (line " +
                      std::to_string(first_other_line_) + " starts with " + first_other_ + ")");
    for (const PendingIndex& index : pending_)
      if (index.value >= mesh_.positions.size())
        fail_at_line(name_, index.line,
                     "vertex index " + std::to_string(index.value + 1) + " is beyond the " +
                         std::to_string(mesh_.positions.size()) + " vertices of the file");
    return std::move(mesh_);
  }

 private:
  // A line that is neither a vertex, a face nor a comment, before any OBJ statement: one makes
  // the file OBJ (whose unknown statements are ignored); text without one is some other file.
  void note_other(std::string_view keyword, std::size_t line) {
    if (is_obj_keyword(keyword)) {
      has_statement_ = true;
    } else if (first_other_line_ == 0) {
      first_other_line_ = line;
      first_other_ = quoted_excerpt(keyword);
    }
  }

  void read_vertex(Tokens& tokens, std::size_t line) {
    float xyz[3];
    for (float& coordinate : xyz) {
      const std::string_view token = tokens.next();
      if (token.empty()) fail_at_line(name_, line, "vertex needs 3 coordinates");
      const auto value = read_float(token);
      if (!value)
        fail_at_line(name_, line,
                     "vertex coordinate " + quoted_excerpt(token) + " is not a number");
      if (!std::isfinite(*value))
        fail_at_line(name_, line, "vertex coordinate " + quoted_excerpt(token) + " is not finite");
      coordinate = *value;
    }
    if (mesh_.positions.size() >= std::numeric_limits<std::uint32_t>::max())
      fail_at_line(name_, line, "more vertices than 32-bit indices can address");
    mesh_.positions.emplace_back(xyz[0], xyz[1], xyz[2]);
  }

  // The position index (0-based) of one face corner "v", "v/vt", "v/vt/vn" or "v//vn".
  std::uint32_t corner_index(std::string_view corner, std::size_t line) {
    const std::string_view vertex = corner.substr(0, corner.find('/'));
    const auto index = parse_integer(vertex);
    if (!index)
      fail_at_line(name_, line, "face vertex " + quoted_excerpt(corner) + " is not an index");
    if (*index == 0) fail_at_line(name_, line, "face vertex index 0 (OBJ indices start at 1)");
    if (*index < 0) {
      const std::int64_t resolved = std::int64_t(mesh_.positions.size()) + *index;
      if (resolved < 0)
        fail_at_line(name_, line,
                     "relative vertex index " + std::to_string(*index) + " reaches before the " +
                         std::to_string(mesh_.positions.size()) + " vertices read so far");
      return static_cast<std::uint32_t>(resolved);
    }
    if (*index > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
      fail_at_line(name_, line, "vertex index " + std::to_string(*index) + " is out of range");
    const auto zero_based = static_cast<std::uint32_t>(*index - 1);
    if (zero_based >= mesh_.positions.size()) pending_.push_back({zero_based, line});
    return zero_based;
  }

  void read_face(Tokens& tokens, std::size_t line) {
    polygon_.clear();
    // A '#' ends the line (a trailing comment, which some writers add).
    for (std::string_view corner = tokens.next(); !corner.empty() && corner.front() != '#';
         corner = tokens.next()) {
      if (polygon_.size() == max_polygon_vertices)
        fail_at_line(name_, line,
                     "face has more than " + std::to_string(max_polygon_vertices) + " vertices");
      polygon_.push_back(corner_index(corner, line));
    }
    if (polygon_.size() < 3)
      fail_at_line(
          name_, line,
          "face has " + std::to_string(polygon_.size()) + " vertices; at least 3 are needed");
    append_fan(mesh_, polygon_, faces_++);
  }

  const std::string& name_;
  Mesh mesh_;
  std::vector<std::uint32_t> polygon_;
  std::vector<PendingIndex> pending_;
  std::uint32_t faces_ = 0;
  bool has_statement_ = false;        // an OBJ statement seen
  std::size_t first_other_line_ = 0;  // the first line with an unknown statement, 0 for none
  std::string first_other_;           // its first token, quoted
};

}  // namespace

Mesh read_obj(std::string_view content, const std::string& name) {
  return ObjReader(name).read(content);
}

}  // namespace trisect::detail
