// STL: binary (80-byte header, little-endian uint32 facet count, 50 bytes per facet) and ascii
// (solid / facet normal / outer loop / 3 vertex lines / endloop / endfacet / endsolid). Each
// facet gives three fresh positions (no welding), triangle ids in facet order.
#include "mesh_readers.hpp"
#include "text_lines.hpp"

#include <cstring>

namespace trisect::detail {
namespace {

constexpr std::size_t header_bytes = 84, facet_bytes = 50;

std::uint32_t little_endian_u32(const char* bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
         std::uint32_t(b[3]) << 24;
}

float little_endian_f32(const char* bytes) {
  const std::uint32_t bits = little_endian_u32(bytes);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

Mesh read_binary(std::string_view content, const std::string& name) {
  if (content.size() < header_bytes)
    fail(name, "binary STL is truncated: " + std::to_string(content.size()) +
                   " bytes, the header alone needs 84");
  const std::uint32_t count = little_endian_u32(content.data() + 80);
  const std::uint64_t needed = header_bytes + std::uint64_t(count) * facet_bytes;
  if (needed != content.size())
    fail_at_byte(name, 80,
                 "binary STL declares " + std::to_string(count) + " facets (" +
                     std::to_string(needed) + " bytes) but the file has " +
                     std::to_string(content.size()) + " bytes");
  Mesh mesh;
  mesh.positions.reserve(std::size_t(count) * 3);
  for (std::uint32_t facet = 0; facet < count; ++facet) {
    const std::size_t base = header_bytes + std::size_t(facet) * facet_bytes + 12;
    for (int corner = 0; corner < 3; ++corner) {
      const std::size_t offset = base + std::size_t(corner) * 12;
      const Vec3 p(little_endian_f32(content.data() + offset),
                   little_endian_f32(content.data() + offset + 4),
                   little_endian_f32(content.data() + offset + 8));
      if (!is_finite(p)) fail_at_byte(name, offset, "vertex coordinate is not finite");
      mesh.indices.push_back(static_cast<std::uint32_t>(mesh.positions.size()));
      mesh.positions.push_back(p);
    }
    mesh.source_faces.push_back(facet);
  }
  return mesh;
}

// Ascii STL as a sequence of keyword lines, checked in order.
class AsciiReader {
 public:
  AsciiReader(std::string_view content, const std::string& name) : lines_(content), name_(name) {}

  Mesh read() {
    while (next_line()) {
      if (keyword_ == "solid" || keyword_ == "endsolid") continue;
      if (keyword_ != "facet")
        problem("expected 'facet', 'solid' or 'endsolid', found " + quoted_excerpt(keyword_));
      expect("outer");
      for (int corner = 0; corner < 3; ++corner) read_vertex();
      expect("endloop");
      expect("endfacet");
      mesh_.source_faces.push_back(facets_++);
    }
    return std::move(mesh_);
  }

 private:
  bool next_line() {
    while (const auto line = lines_.next()) {
      tokens_ = Tokens(*line);
      keyword_ = tokens_.next();
      if (!keyword_.empty()) return true;
    }
    return false;
  }

  [[noreturn]] void problem(const std::string& what) { fail_at_line(name_, lines_.number(), what); }

  void expect(std::string_view keyword) {
    if (!next_line())
      fail(name_, "ascii STL ends inside a facet (expected '" + std::string(keyword) + "')");
    if (keyword_ != keyword)
      problem("expected '" + std::string(keyword) + "', found " + quoted_excerpt(keyword_));
  }

  void read_vertex() {
    expect("vertex");
    float xyz[3];
    for (float& coordinate : xyz) {
      const std::string_view token = tokens_.next();
      const auto value = read_float(token);
      if (!value) problem("vertex coordinate " + quoted_excerpt(token) + " is not a number");
      if (!std::isfinite(*value))
        problem("vertex coordinate " + quoted_excerpt(token) + " is not finite");
      coordinate = *value;
    }
    mesh_.indices.push_back(static_cast<std::uint32_t>(mesh_.positions.size()));
    mesh_.positions.emplace_back(xyz[0], xyz[1], xyz[2]);
  }

  LineScanner lines_;
  const std::string& name_;
  Tokens tokens_{""};
  std::string_view keyword_;
  Mesh mesh_;
  std::uint32_t facets_ = 0;
};

// Ascii STL starts with "solid" (after a UTF-8 byte order mark, if any, which the line reader
// skips too) and a line of text. A binary header that starts with "solid" is padded with
// spaces or zero bytes to 80 and followed by the facet count, whose high byte is zero below
// 2^24 facets: a binary byte comes before the first line ends.
bool looks_ascii(std::string_view content) {
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);
  const std::size_t start = content.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || content.substr(start, 5) != "solid") return false;
  return find_binary_byte(content.substr(0, content.find('\n'))) == std::string_view::npos;
}

}  // namespace

bool is_binary_stl(std::string_view content) {
  return content.size() >= header_bytes &&
         header_bytes + std::uint64_t(little_endian_u32(content.data() + 80)) * facet_bytes ==
             content.size();
}

Mesh read_stl(std::string_view content, const std::string& name) {
  // A binary file whose header happens to start with "solid" is recognised by its size.
  if (is_binary_stl(content) || !looks_ascii(content)) return read_binary(content, name);
  require_text(content, name);
  return AsciiReader(content, name).read();
}

}  // namespace trisect::detail
