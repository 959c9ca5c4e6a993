// Binary data where a reader expects text (issue 22, item 7): a PNG named .obj, a NUL in an
// otherwise valid file, junk after an ascii header are errors naming the file, the line and the
// byte offset, never an empty mesh; UTF-8 and other bytes from 0x80 up stay text.
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>

#include "support/scratch_folder.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

namespace trisect {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

const std::string one_triangle_obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

fs::path malformed(const char* file) {
  return fs::path(TRISECT_TEST_DATA_DIR) / "malformed" / file;
}

// The message of the MeshError that parsing `content` as `format` throws, or "no error".
std::string error_of(const std::string& content, MeshFormat format, const std::string& name) {
  try {
    (void)parse_mesh(content, format, name);
  } catch (const MeshError& error) {
    return error.what();
  }
  return "no error";
}

TEST_CASE("a byte is binary when it is a control character other than tab to CR, or DEL", "[io]") {
  for (int byte = 0; byte < 256; ++byte) {
    INFO(byte);
    const bool binary = byte < 0x09 || (byte >= 0x0E && byte < 0x20) || byte == 0x7F;
    CHECK(is_binary_byte(static_cast<unsigned char>(byte)) == binary);
    // In an OBJ comment: first and last in the first 256-byte block, which find_binary_byte
    // tests at once, and in the bytes after it, which it tests one by one.
    for (const std::size_t at :
         {std::size_t{2}, std::size_t{255}, std::size_t{256}, std::size_t{298}}) {
      std::string comment = "# " + std::string(297, 'c') + "\n";
      comment[at] = static_cast<char>(byte);
      if (byte == '\n') continue;  // ends the comment: the rest is an unknown statement
      char hex[3];
      std::snprintf(hex, sizeof hex, "%02X", static_cast<unsigned>(byte));
      const std::string expected =
          binary ? "b.obj:1: byte " + std::to_string(at) + " (0x" + hex +
                       ") is binary, not text; text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F"
                 : "no error";
      CHECK(error_of(comment + one_triangle_obj, MeshFormat::obj, "b.obj") == expected);
    }
  }
}

TEST_CASE("binary data named as a text format is an error naming the file, line and byte", "[io]") {
  const std::string rule = " is binary, not text; text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F";
  // A PNG's first 33 bytes: 89 'PNG' CR LF 1A LF and the IHDR chunk, as .obj, after an ascii PLY
  // header that declares 3 vertices, and after "solid photo" (the first line is text, so ascii).
  const std::pair<const char*, std::string> cases[] = {
      {"png_header.obj", ":2: byte 6 (0x1A)" + rule},
      {"png_after_ascii_header.ply", ":9: byte 106 (0x1A)" + rule},
      {"png_after_solid.stl", ":3: byte 18 (0x1A)" + rule},
  };
  for (const auto& [file, message] : cases) {
    INFO(file);
    const fs::path path = malformed(file);
    CHECK_THROWS_WITH(load_mesh(path), path.string() + message);
  }
  // A PNG as .ply is refused by its first line, as .stl by its size (it starts not with solid).
  const testing::ScratchFolder folder;
  const std::string png = "\x89PNG\r\n\x1A\n\0\0\0\rIHDR"s;
  CHECK_THROWS_WITH(
      load_mesh(folder.write("p.ply", png)),
      (folder.path() / "p.ply").string() + ":1: not a PLY file (first line must be 'ply')");
  CHECK_THROWS_WITH(load_mesh(folder.write("p.stl", png)),
                    (folder.path() / "p.stl").string() + ": binary STL is truncated: " +
                        std::to_string(png.size()) + " bytes, the header alone needs 84");
}

TEST_CASE("a binary byte anywhere in the text of a mesh is an error, not skipped", "[io]") {
  const std::string rule = " is binary, not text; text holds no bytes 0x00-0x08, 0x0E-0x1F or 0x7F";
  // OBJ: in a comment, in an unknown statement, in a vertex, after the last face.
  CHECK(error_of("v 0 0 0\nv 1 0 0\nv 0 1 0\n# made\0 by hand\nf 1 2 3\n"s, MeshFormat::obj,
                 "n.obj") == "n.obj:4: byte 30 (0x00)" + rule);
  CHECK(error_of("o na\x7Fme\n" + one_triangle_obj, MeshFormat::obj, "d.obj") ==
        "d.obj:1: byte 4 (0x7F)" + rule);
  CHECK(error_of("v 0 0 0\x01\n", MeshFormat::obj, "v.obj") == "v.obj:1: byte 7 (0x01)" + rule);
  CHECK(error_of(one_triangle_obj + "\x1B[0m", MeshFormat::obj, "e.obj") ==
        "e.obj:5: byte 32 (0x1B)" + rule);
  // PLY: in a header comment (binary data after the header is fine), after the ascii data.
  const std::string header =
      "ply\nformat binary_little_endian 1.0\ncomment \x02\nelement vertex 0\nproperty float x\n"
      "property float y\nproperty float z\nend_header\n";
  CHECK(error_of(header, MeshFormat::ply, "h.ply") == "h.ply:3: byte 44 (0x02)" + rule);
  const std::string ascii =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  CHECK(error_of(ascii + "\0\0\0\0"s, MeshFormat::ply, "t.ply") ==
        "t.ply:14: byte " + std::to_string(ascii.size()) + " (0x00)" + rule);
  // Ascii STL: junk inside, and a tail of zero bytes (as a crash can leave a file).
  const std::string facet =
      "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
      "endfacet\n";
  CHECK(error_of("solid s\nfacet normal 0 0 1\n\x03\x04\n", MeshFormat::stl, "j.stl") ==
        "j.stl:3: byte 27 (0x03)" + rule);
  CHECK(error_of("solid s\n" + facet + std::string(100, '\0'), MeshFormat::stl, "z.stl") ==
        "z.stl:9: byte " + std::to_string(8 + facet.size()) + " (0x00)" + rule);
}

TEST_CASE("UTF-8, Latin-1, tab, VT, FF and CR are text, and a byte order mark is skipped", "[io]") {
  const std::string texts[] = {
      "# Modèle créé à la main, 立方体\no Würfel\ng 三角形\n" + one_triangle_obj,
      "# Mod\xE8le cr\xE9\xE9\n" + one_triangle_obj,  // Latin-1
      "v 0 0 0\r\nv\t1 0 0\r\n\f\n\v\nv 0 1 0\r\nf 1 2 3\r\n",
      "\xEF\xBB\xBF" + one_triangle_obj,  // the first vertex is read, not an unknown statement
  };
  for (const std::string& text : texts) {
    INFO(text);
    const Mesh mesh = parse_mesh(text, MeshFormat::obj, "u.obj");
    CHECK(mesh.positions == std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    CHECK(mesh.indices == std::vector<std::uint32_t>{0, 1, 2});
  }
}

TEST_CASE("a byte order mark before an ascii STL or PLY is skipped", "[io]") {
  const std::string stl =
      "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
      "endloop\nendfacet\nendsolid s\n";
  const std::string ply =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  for (const auto& [text, format] : {std::pair{stl, MeshFormat::stl}, {ply, MeshFormat::ply}}) {
    INFO(text);
    const Mesh plain = parse_mesh(text, format, "plain");
    const Mesh marked = parse_mesh("\xEF\xBB\xBF" + text, format, "marked");
    CHECK(plain.triangle_count() == 1);
    CHECK(marked.positions == plain.positions);
    CHECK(marked.indices == plain.indices);
  }
}

TEST_CASE("text in which no line is an OBJ statement is not an OBJ file", "[io]") {
  CHECK(error_of("hello world\nthis is a readme\n", MeshFormat::obj, "r.obj") ==
        "r.obj: not an OBJ file: no line is an OBJ statement (line 1 starts with 'hello')");
  CHECK(error_of("# material library\nnewmtl red\nKd 1 0 0\n", MeshFormat::obj, "m.obj") ==
        "m.obj: not an OBJ file: no line is an OBJ statement (line 2 starts with 'newmtl')");
  // Any statement of the specification makes it OBJ: its unknown statements are ignored.
  for (const std::string& text :
       {""s, "\n \n"s, "# only comments\n"s, "o empty\nunknown 1 2\n"s, "unknown\nmtllib a.mtl\n"s,
        "vp 0.5 0.5\ncstype bspline\n"s, "unknown 1 2\nv 0 0 0\n"s}) {
    INFO(text);
    CHECK(error_of(text, MeshFormat::obj, "e.obj") == "no error");
  }
  CHECK(parse_mesh("vc 1 2 3\n" + one_triangle_obj, MeshFormat::obj, "v.obj").triangle_count() ==
        1);
}

}  // namespace
}  // namespace trisect
