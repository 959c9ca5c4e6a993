// The tree file: a fixed header, then the BVH's arrays as they lie in memory, each at a
// multiple of 64 bytes, so that a load maps the file and views them where they are (the way
// tinybvh and madmann91/bvh serialise their nodes, here with a checksum and checked counts).
#include "trisect/io/bvh_file.hpp"

#include "atomic_file.hpp"
#include "trisect/math/validate.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <system_error>

namespace trisect {
namespace {

constexpr char magic[8] = {'\x89', 'T', 'R', 'B', 'V', 'H', '\r', '\n'};
constexpr std::uint32_t byte_order_mark = 0x01020304u;
constexpr std::uint64_t section_alignment = 64;

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint32_t header_bytes;
  std::uint32_t node_bytes;
  std::uint64_t triangle_count;
  std::uint64_t node_count;
  std::uint64_t coordinate_count;
  std::uint64_t leaf_start_words;
  float root_bounds[6];
  double built_sah_cost;
  std::uint64_t file_bytes;
  std::uint64_t checksum;
  std::uint8_t reserved[24];
};
static_assert(sizeof(FileHeader) == 128);

// Where each array starts in the file, and where the file ends.
struct Sections {
  std::uint64_t wide, coordinates, leaf_starts, ids, end;
};

std::uint64_t aligned(std::uint64_t offset) {
  return (offset + section_alignment - 1) / section_alignment * section_alignment;
}

// The sections of a file with `header`'s counts; the counts must be small enough not to
// overflow (`check_counts`).
Sections sections_of(const FileHeader& header) {
  Sections at;
  at.wide = sizeof(FileHeader);
  at.coordinates = aligned(at.wide + header.node_count * sizeof(WideNode));
  at.leaf_starts = aligned(at.coordinates + header.coordinate_count * sizeof(float));
  at.ids = aligned(at.leaf_starts + header.leaf_start_words * sizeof(std::uint64_t));
  at.end = at.ids + header.triangle_count * sizeof(TriangleId);
  return at;
}

// The arrays of a tree as a file holds them; an empty tree holds the storage of no triangles.
struct Arrays {
  std::span<const WideNode> wide;
  std::span<const float> coordinates;
  std::span<const std::uint64_t> leaf_starts;
  std::span<const TriangleId> ids;
};

constexpr float no_coordinates[TriangleGroup::width - 1] = {};
constexpr std::uint64_t no_leaf_starts[1] = {1};

Arrays arrays_of(const Bvh& bvh) {
  if (bvh.empty()) return {{}, no_coordinates, no_leaf_starts, {}};
  return {bvh.wide.span(), bvh.triangles.coordinate_array().span(),
          bvh.triangles.leaf_start_array().span(), bvh.ids.span()};
}

FileHeader header_of(const Bvh& bvh, const Arrays& arrays) {
  FileHeader header{};
  std::memcpy(header.magic, magic, sizeof magic);
  header.version = bvh_file_version;
  header.byte_order = byte_order_mark;
  header.header_bytes = sizeof(FileHeader);
  header.node_bytes = sizeof(WideNode);
  header.triangle_count = arrays.ids.size();
  header.node_count = arrays.wide.size();
  header.coordinate_count = arrays.coordinates.size();
  header.leaf_start_words = arrays.leaf_starts.size();
  const Aabb box = bvh.bounds();
  const float bounds[6] = {box.min.x, box.min.y, box.min.z, box.max.x, box.max.y, box.max.z};
  std::memcpy(header.root_bounds, bounds, sizeof bounds);
  header.built_sah_cost = bvh.built_sah_cost;
  header.file_bytes = sections_of(header).end;
  return header;
}

// Calls `write(bytes, count)` for every piece of the file in order: the header, then each
// array after the zeros that align it.
template <class Write>
void for_each_piece(const FileHeader& header, const Arrays& arrays, Write&& write) {
  static constexpr char zeros[section_alignment] = {};
  const Sections at = sections_of(header);
  std::uint64_t written = 0;
  const auto piece = [&](std::uint64_t offset, const void* bytes, std::size_t count) {
    write(zeros, static_cast<std::size_t>(offset - written));
    write(bytes, count);
    written = offset + count;
  };
  piece(0, &header, sizeof header);
  piece(at.wide, arrays.wide.data(), arrays.wide.size_bytes());
  piece(at.coordinates, arrays.coordinates.data(), arrays.coordinates.size_bytes());
  piece(at.leaf_starts, arrays.leaf_starts.data(), arrays.leaf_starts.size_bytes());
  piece(at.ids, arrays.ids.data(), arrays.ids.size_bytes());
}

// The header ready to write: its checksum taken over the whole file with the field zero.
FileHeader checksummed_header(const Bvh& bvh, const Arrays& arrays) {
  FileHeader header = header_of(bvh, arrays);
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for_each_piece(header, arrays, [&](const void* bytes, std::size_t count) {
    XXH3_64bits_update(&state, bytes, count);
  });
  header.checksum = XXH3_64bits_digest(&state);
  return header;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw FileError(path.string() + ": " + problem);
}

std::string system_message(int error) { return std::generic_category().message(error); }

// --- loading ---

// A private, writable mapping of a whole file, unmapped when the last owner lets go.
struct Mapping {
  void* data = MAP_FAILED;
  std::size_t size = 0;
  ~Mapping() {
    if (data != MAP_FAILED) munmap(data, size);
  }
  [[nodiscard]] const std::byte* bytes() const { return static_cast<const std::byte*>(data); }
};

std::shared_ptr<Mapping> map_file(const std::filesystem::path& path) {
  refuse_special_file(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open file: " + system_message(errno));
  struct stat status {};
  auto mapping = std::make_shared<Mapping>();
  if (fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    fail(path, "cannot read file: " + system_message(error));
  }
  mapping->size = static_cast<std::size_t>(status.st_size);
  if (mapping->size < sizeof(FileHeader)) {
    ::close(fd);
    fail(path, "truncated: " + std::to_string(mapping->size) +
                   " bytes, fewer than a tree file's header of " +
                   std::to_string(sizeof(FileHeader)));
  }
  mapping->data = mmap(nullptr, mapping->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  const int error = errno;
  ::close(fd);
  if (mapping->data == MAP_FAILED) fail(path, "cannot map file: " + system_message(error));
    // Prefaults the pages readable, sharing the page cache's: the checks read every page. Not
    // MAP_POPULATE: on a private writable mapping it faults every page for writing, copying the
    // whole file (a third of a checked load's time, and the file's size in memory). Only a
    // hint: kernels before 5.14 refuse it, and the checks then fault the pages in as they read.
#ifdef MADV_POPULATE_READ
  madvise(mapping->data, mapping->size, MADV_POPULATE_READ);
#endif
  return mapping;
}

// Checks everything the header says before any array is looked at.
void check_header(const std::filesystem::path& path, const FileHeader& header,
                  std::uint64_t file_size) {
  if (std::memcmp(header.magic, magic, sizeof magic) != 0)
    fail(path, "not a trisect tree file (it does not start with the tree file's magic bytes)");
  if (header.byte_order != byte_order_mark)
    fail(path, "written on a machine of the other byte order; rebuild the tree here");
  if (header.version != bvh_file_version)
    fail(path, "tree file version " + std::to_string(header.version) +
                   ", but this trisect reads "
                   "version " +
                   std::to_string(bvh_file_version) + "; rebuild the tree");
  if (header.header_bytes != sizeof(FileHeader) || header.node_bytes != sizeof(WideNode))
    fail(path, "a tree file of another layout (header " + std::to_string(header.header_bytes) +
                   " bytes, nodes " + std::to_string(header.node_bytes) + " bytes)");
  const std::uint64_t triangles = header.triangle_count;
  if (triangles >= std::numeric_limits<TriangleId>::max() ||
      header.node_count > std::max<std::uint64_t>(triangles, 1) ||
      (header.node_count == 0) != (triangles == 0) ||
      header.coordinate_count != 9 * triangles + TriangleGroup::width - 1 ||
      header.leaf_start_words != triangles / 64 + 1)
    fail(path, "inconsistent counts in the header (" + std::to_string(triangles) + " triangles, " +
                   std::to_string(header.node_count) + " nodes)");
  const std::uint64_t expected = sections_of(header).end;
  if (header.file_bytes != expected)
    fail(path, "inconsistent sizes in the header (" + std::to_string(header.file_bytes) +
                   " bytes stated, " + std::to_string(expected) + " from the counts)");
  if (file_size < expected)
    fail(path, "truncated: " + std::to_string(file_size) + " bytes of " + std::to_string(expected));
  if (file_size > expected)
    fail(path, "trailing bytes: " + std::to_string(file_size) + " bytes, the tree takes " +
                   std::to_string(expected));
}

void check_checksum(const std::filesystem::path& path, const Mapping& mapping, FileHeader header) {
  const std::uint64_t stated = header.checksum;
  header.checksum = 0;
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, &header, sizeof header);
  XXH3_64bits_update(&state, mapping.bytes() + sizeof header, mapping.size - sizeof header);
  if (XXH3_64bits_digest(&state) != stated) fail(path, "checksum mismatch: the file is corrupted");
}

// A view of `count` elements of type T at byte `offset` of the mapping.
template <class T>
BvhArray<T> view(const std::shared_ptr<Mapping>& mapping, std::uint64_t offset,
                 std::uint64_t count) {
  auto* first = reinterpret_cast<T*>(static_cast<std::byte*>(mapping->data) + offset);
  return BvhArray<T>(first, static_cast<std::size_t>(count), mapping);
}

Bvh tree_of(const std::filesystem::path& path, const std::shared_ptr<Mapping>& mapping,
            const FileHeader& header) {
  Bvh bvh;
  if (header.triangle_count == 0) return bvh;
  const Sections at = sections_of(header);
  bvh.wide = view<WideNode>(mapping, at.wide, header.node_count);
  try {
    bvh.triangles = LeafTriangles::from_arrays(
        header.triangle_count, view<float>(mapping, at.coordinates, header.coordinate_count),
        view<std::uint64_t>(mapping, at.leaf_starts, header.leaf_start_words));
  } catch (const InvalidInput& problem) {
    fail(path, problem.what());
  }
  bvh.ids = view<TriangleId>(mapping, at.ids, header.triangle_count);
  const float* b = header.root_bounds;
  bvh.root_bounds = {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
  bvh.built_sah_cost = header.built_sah_cost;
  return bvh;
}

// Checks the loaded tree: its structure, which every query relies on, always; with
// `validate_tree`, all of `validate`.
void check_tree(const std::filesystem::path& path, const Bvh& bvh, bool validate_tree) {
  try {
    if (validate_tree)
      validate(bvh);
    else
      validate_structure(bvh);
  } catch (const InvalidInput& problem) {
    fail(path, problem.what());
  }
}

}  // namespace

void write_bvh(const Bvh& bvh, std::ostream& out) {
  const Arrays arrays = arrays_of(bvh);
  const FileHeader header = checksummed_header(bvh, arrays);
  for_each_piece(header, arrays, [&](const void* bytes, std::size_t count) {
    out.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(count));
  });
}

void save_bvh(const Bvh& bvh, const std::filesystem::path& path) {
  try {
    io::AtomicFile file(path);
    write_bvh(bvh, file.stream());
    file.publish();
  } catch (const std::system_error& error) {
    fail(path, error.what());
  }
}

Bvh load_bvh(const std::filesystem::path& path, const BvhLoadOptions& options) {
  const std::shared_ptr<Mapping> mapping = map_file(path);
  FileHeader header;
  std::memcpy(&header, mapping->data, sizeof header);
  check_header(path, header, mapping->size);
  if (options.verify_checksum) check_checksum(path, *mapping, header);
  Bvh bvh = tree_of(path, mapping, header);
  check_tree(path, bvh, options.validate_tree);
  return bvh;
}

bool is_bvh_file(const std::filesystem::path& path) noexcept {
  try {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) return false;
    std::ifstream file(path, std::ios::binary);
    char start[sizeof magic] = {};
    return file.read(start, sizeof start) && std::memcmp(start, magic, sizeof magic) == 0;
  } catch (...) {
    return false;
  }
}

}  // namespace trisect
