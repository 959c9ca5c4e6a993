#pragma once
/// \file
/// Saving a built BVH to a file and loading it back without rebuilding: the arrays are written
/// as they lie in memory and a load maps the file and views them in place (zero copy).

#include "trisect/bvh/bvh.hpp"
#include "trisect/io/read_file.hpp"

#include <cstdint>
#include <filesystem>
#include <iosfwd>

namespace trisect {

/// The version of the tree file format that `write_bvh` writes and `load_bvh` reads.
inline constexpr std::uint32_t bvh_file_version = 1;

/// Writes `bvh` to `out` in the tree file format, version `bvh_file_version`, which
/// docs/contracts.md (section 8, "Tree files") gives byte by byte:
/// - a 128-byte header: the magic bytes `89 54 52 42 56 48 0D 0A` ("\x89TRBVH\r\n", which a
///   text transfer would mangle), the version, a byte-order mark (0x01020304 as written),
///   the header and wide node sizes in bytes, the counts of triangles, wide nodes, coordinate
///   floats and leaf-start words, `root_bounds`, `built_sah_cost`, the file's size, and an
///   XXH3-64 checksum of the whole file taken with the checksum field zero;
/// - then the arrays `wide`, the leaf triangles' coordinates and leaf starts, and `ids`, as
///   they are in memory, each starting at the next multiple of 64 bytes (zeros between), the
///   file ending with the last id.
/// The numbers are in the writing machine's byte order. Sets `out`'s error state when a write
/// fails (check it); the stream should be binary.
void write_bvh(const Bvh& bvh, std::ostream& out);

/// Writes `bvh` to the file `path` (as `write_bvh`), first under a temporary name beside it,
/// renamed over `path` once every byte is written and flushed, so that a failure (a full disk)
/// leaves any old file at `path` as it was and no partial file. A symbolic link is followed,
/// even a dangling one, and the file it leads to is written (the link stays); a device or FIFO
/// is written in place (the rules of the command's outputs, docs/contracts.md section 5).
/// Throws `FileError` ("<path>: <problem>") when the file cannot be written.
void save_bvh(const Bvh& bvh, const std::filesystem::path& path);

/// How `load_bvh` checks what it maps, beyond the header and `validate_structure`, which it
/// always checks.
struct BvhLoadOptions {
  /// Recompute the checksum over the whole file and refuse a file whose checksum differs: any
  /// corruption, and any file `write_bvh` did not write whole.
  bool verify_checksum = true;
  /// Also run the rest of `validate(bvh)` on the loaded tree: that every child box holds the
  /// triangles below it, without which a query may miss triangles (but stays safe). For a
  /// file from an untrusted source; a second, sequential walk over every node and triangle.
  bool validate_tree = false;
};

/// The BVH saved in the tree file at `path`, mapped (copy-on-write, so a `refit` of it
/// changes memory, never the file) and viewed in place: the arrays are not copied, and the
/// mapping lives as long as the tree or any copy of its arrays. Throws `FileError`
/// ("<path>: <problem>") for a file that is not a regular file, cannot be opened or mapped, is
/// shorter than its header or than its header says ("truncated"), longer ("trailing bytes"),
/// does not start with the magic bytes ("not a trisect tree file"), was written on a machine of
/// the other byte order, has another version, inconsistent counts, a checksum that differs, a
/// tree that fails `validate_structure` ("<path>: bvh: <problem>"; checked on every load, as a
/// checksum anyone can recompute vouches for nothing), or (with `validate_tree`) one that fails
/// `validate`. So any tree it returns is safe to query, whoever wrote the file. A file of
/// another layout is never read past its header. The structure is checked in one pass over the
/// arrays, in parallel on the calling task arena: a load stays a few percent of a build.
[[nodiscard]] Bvh load_bvh(const std::filesystem::path& path, const BvhLoadOptions& options = {});

/// True when the file at `path` starts with the tree file's magic bytes (a regular file that
/// can be opened); false for anything else, without throwing.
[[nodiscard]] bool is_bvh_file(const std::filesystem::path& path) noexcept;

}  // namespace trisect
