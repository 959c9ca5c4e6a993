// libFuzzer target for tree files (`load_bvh`): any input is either refused with a FileError
// or loads into a tree that every query walks safely. The checksum is not verified here, so
// that mutations reach the header checks and `validate` (which a loaded tree must pass before
// it is queried); with the checksum verified, a mutated file must be refused or be the seed.
#include <trisect/io/bvh_file.hpp>
#include <trisect/trisect.hpp>

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// A file of the fuzzer's bytes, rewritten for each input.
const std::string& input_path() {
  static const std::string path = "/tmp/fuzz_bvh_file_" + std::to_string(::getpid()) + ".bvh";
  return path;
}

void query(const trisect::Bvh& bvh) {
  const trisect::Aabb box{{-1, -1, -1}, {1, 1, 1}};
  (void)trisect::collect_touching(bvh, box);
  (void)trisect::collect_touching(bvh, trisect::Plane{{0, 0, 1}, 0.25f});
  (void)trisect::closest_hit(bvh, trisect::Ray{{0.2f, 0.2f, 5}, {0, 0, -1}});
  (void)trisect::closest_point(bvh, {0.5f, 0.5f, 0.5f});
  (void)trisect::triangle_corners(bvh);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(input_path().c_str(), "wb");
  if (file == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
  std::fclose(file);
  try {
    query(trisect::load_bvh(input_path(), {.verify_checksum = false, .validate_tree = true}));
  } catch (const trisect::FileError&) {
  }
  try {
    query(trisect::load_bvh(input_path()));
  } catch (const trisect::FileError&) {
  }
  return 0;
}
