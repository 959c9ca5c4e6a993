// libFuzzer target for the mesh readers. Built once per format with TRISECT_FUZZ_FORMAT set to
// obj, ply or stl (see scripts/fuzz.sh). Any input must either parse into a consistent mesh or
// throw MeshError; anything else (a crash, a sanitizer report, a broken mesh) is a finding.
#include <trisect/io/load_mesh.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    const trisect::Mesh mesh =
        trisect::parse_mesh(content, trisect::MeshFormat::TRISECT_FUZZ_FORMAT, "fuzz");
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
