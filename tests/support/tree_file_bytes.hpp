#pragma once
// The tree file format as docs/contracts.md (section 8, "Tree files") documents it, read and
// written byte by byte without the library's writer: where each field and array lies, and the
// checksum recomputed after an edit, so that a forged file reaches the checks behind it.

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace trisect::testing::tree_file {

// Byte offsets of the header's fields.
inline constexpr std::size_t version_at = 8, byte_order_at = 12, header_bytes_at = 16,
                             node_bytes_at = 20, triangles_at = 24, nodes_at = 32,
                             coordinates_count_at = 40, leaf_start_words_at = 48,
                             root_bounds_at = 56, sah_cost_at = 80, file_bytes_at = 88,
                             checksum_at = 96, header_size = 128;
// Byte offsets of a wide node's fields, and its size.
inline constexpr std::size_t origin_at = 0, exponent_at = 12, used_at = 15, faces_at = 16,
                             child_at = 64, first_at = 96, node_size = 128;
inline constexpr std::size_t alignment = 64;

template <class T>
T get(const std::string& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

template <class T>
void put(std::string& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Where each array of a tree file starts, computed from its header's counts.
struct Layout {
  std::size_t wide, coordinates, leaf_starts, ids, end;

  explicit Layout(const std::string& bytes) {
    const auto aligned = [](std::size_t at) {
      return (at + alignment - 1) / alignment * alignment;
    };
    wide = header_size;
    coordinates = aligned(wide + node_size * get<std::uint64_t>(bytes, nodes_at));
    leaf_starts = aligned(coordinates + 4 * get<std::uint64_t>(bytes, coordinates_count_at));
    ids = aligned(leaf_starts + 8 * get<std::uint64_t>(bytes, leaf_start_words_at));
    end = ids + 4 * get<std::uint64_t>(bytes, triangles_at);
  }
  // Byte offset of field `field_at` of wide node `node`.
  [[nodiscard]] std::size_t node(std::size_t index, std::size_t field_at = 0) const {
    return wide + node_size * index + field_at;
  }
};

// XXH3-64 of the whole file with the checksum field read as zero.
inline std::uint64_t checksum_of(std::string bytes) {
  put<std::uint64_t>(bytes, checksum_at, 0);
  return XXH3_64bits(bytes.data(), bytes.size());
}

// `bytes` with its checksum field recomputed: what anyone forging a file can do.
inline std::string rechecksummed(std::string bytes) {
  put<std::uint64_t>(bytes, checksum_at, checksum_of(bytes));
  return bytes;
}

}  // namespace trisect::testing::tree_file
