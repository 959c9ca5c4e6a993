// libFuzzer target for the mesh readers. Built once per format with TRISECT_FUZZ_FORMAT set to
// obj, ply or stl (see scripts/fuzz.sh). Any input must either parse into a consistent mesh or
// throw MeshError; anything else (a crash, a sanitizer report, a broken mesh, an OBJ input
// holding a binary byte that parses) is a finding.
#include <trisect/io/load_mesh.hpp>
#include <trisect/io/text_token.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  constexpr trisect::MeshFormat format = trisect::MeshFormat::TRISECT_FUZZ_FORMAT;
  try {
    const trisect::Mesh mesh = trisect::parse_mesh(content, format, "fuzz");
    if (format == trisect::MeshFormat::obj &&
        trisect::find_binary_byte(content) != std::string_view::npos)
      std::abort();
    if (mesh.indices.size() % 3 != 0 || mesh.source_faces.size() != mesh.triangle_count())
      std::abort();
    for (const std::uint32_t index : mesh.indices)
      if (index >= mesh.positions.size()) std::abort();
    for (const trisect::Vec3& p : mesh.positions)
      if (!trisect::is_finite(p)) std::abort();
  } catch (const trisect::MeshError&) {
  }
  return 0;
}
