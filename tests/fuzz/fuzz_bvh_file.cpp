// libFuzzer target for tree files (`load_bvh`): any input is either refused with a FileError
// or loads into a tree that every query walks safely. The input's first byte chooses: odd, the
// harness forges the rest's checksum (recomputes it, as anyone can), so that mutations reach
// the checks behind it, which every load runs; even, the rest is the file as it is, so that a
// mutated file must be refused by its checksum or be a seed. Each file is loaded three ways:
// as commands load (checksum verified), unverified, and with `validate_tree`.
#include "../support/tree_file_bytes.hpp"

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
  (void)trisect::statistics(bvh);
}

void load_and_query(const trisect::BvhLoadOptions& options) {
  try {
    query(trisect::load_bvh(input_path(), options));
  } catch (const trisect::FileError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool forge_checksum = (data[0] & 1) != 0;
  if (forge_checksum && bytes.size() >= trisect::testing::tree_file::checksum_at + 8)
    bytes = trisect::testing::tree_file::rechecksummed(bytes);
  std::FILE* file = std::fopen(input_path().c_str(), "wb");
  if (file == nullptr) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
    std::abort();
  std::fclose(file);
  load_and_query({});
  load_and_query({.verify_checksum = false});
  load_and_query({.verify_checksum = true, .validate_tree = true});
  return 0;
}
