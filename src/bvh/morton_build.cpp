// A linear BVH: triangles sorted along a Morton curve of their box centres, then split top
// down where the codes' highest differing bit changes (Lauterbach et al., "Fast BVH
// Construction on GPUs", 2009; the top-down split search as in Karras, "Maximizing
// Parallelism in the Construction of BVHs, Octrees, and k-d Trees", HPG 2012). The 8-wide
// nodes are written directly: each node splits its child with the most triangles at that
// child's highest differing bit until it has 8 children or every child is a leaf (as Embree's
// Morton builder grows its wide nodes), and its child boxes are gathered bottom up. Subtrees
// are built in pieces laid out in one array afterwards (wide_pieces.hpp).
//
// Determinism: the keys are sorted by (code, id), all distinct, so their order, and with it
// every split and box, does not depend on the thread count; which subtrees are built apart
// depends only on their sizes.
#include "morton_build.hpp"

#include "huge_pages.hpp"
#include "mesh/checked_soup.hpp"
#include "wide_pieces.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace trisect::detail {
namespace {

// Ranges at least this large build their two subtrees in parallel; smaller ones are built into
// one piece.
constexpr std::size_t parallel_subtree_threshold = 4096;
// Ranges of at most this many triangles (and at most `max_leaf_size`) become leaves.
constexpr std::uint32_t morton_leaf_size = 4;
// Keys per chunk of a parallel radix-sort pass (at most 64 chunks).
constexpr std::size_t radix_chunk_size = std::size_t(1) << 16;
// Bits per axis of a Morton code: 3 x 10 = 30 bits.
constexpr int bits_per_axis = 10;
// Code bits per radix-sort pass: three passes over the 30 bits, 1024 buckets each.
constexpr int radix_bits = 10;

// The 10 low bits of `v` spread to every third bit (bit i to bit 3i).
std::uint32_t spread_bits(std::uint32_t v) noexcept {
  v &= 0x3FFu;
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

// A box's centre, halved before adding so that no coordinate overflows.
Vec3 centre(const Aabb& box) noexcept { return 0.5f * box.min + 0.5f * box.max; }

// Maps centres inside `bounds` to 10-bit cells per axis and interleaves them.
class MortonCoder {
 public:
  explicit MortonCoder(const Aabb& bounds) : low_(bounds.min) {
    for (int axis = 0; axis < 3; ++axis) {
      const double extent = double(bounds.max[axis]) - double(bounds.min[axis]);
      scale_[axis] = extent > 0 ? double(1 << bits_per_axis) / extent : 0.0;
    }
  }

  [[nodiscard]] std::uint32_t code(const Vec3& point) const noexcept {
    std::uint32_t code = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const double cell = (double(point[axis]) - double(low_[axis])) * scale_[axis];
      const double clamped = std::clamp(cell, 0.0, double((1 << bits_per_axis) - 1));
      code |= spread_bits(static_cast<std::uint32_t>(clamped)) << (2 - axis);
    }
    return code;
  }

 private:
  Vec3 low_;
  double scale_[3] = {0, 0, 0};
};

class MortonBuilder {
 public:
  // The arrays are left uninitialised (every entry is written before it is read) and backed by
  // huge pages where the kernel allows: zeroing and faulting in fresh pages would otherwise
  // cost as much as the sort.
  MortonBuilder(const TriangleSoup& soup, const BuildOptions& options)
      : soup_(soup),
        size_(soup.size()),
        leaf_size_(std::min(options.max_leaf_size, morton_leaf_size)),
        keys_(fresh<std::uint64_t>(size_)) {
    sort_by_code(soup, centre_bounds(soup));
  }

  // The BVH: the wide tree, with the sorted ids as slot order.
  [[nodiscard]] Bvh build() && {
    Built root;
    if (size_ <= leaf_size_) {
      const WideChild only{leaf_bounds(0, size_), 0, true};
      root.piece.nodes.emplace_back();
      write_wide_node(root.piece.nodes[0], &only, 1, static_cast<std::uint32_t>(size_));
      root.piece.leaves.push_back({0, static_cast<std::uint32_t>(size_)});
      root.piece.count();
      root.bounds = only.bounds;
    } else {
      root = build_piece(0, size_);
    }
    std::vector<TriangleId> ids;
    resize_on_huge_pages(ids, size_);
    for_each_index([&](std::size_t i) { ids[i] = id_at(i); });
    keys_.reset();
    return assemble(root.piece, std::move(ids), soup_, root.bounds);
  }

 private:
  template <class T>
  [[nodiscard]] static std::unique_ptr<T[]> fresh(std::size_t count) {
    auto array = std::make_unique_for_overwrite<T[]>(count);
    advise_huge_pages(array.get(), count * sizeof(T));
    return array;
  }

  template <class Body>
  void for_each_index(const Body& body) const {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size_, 4096), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) body(i);
    });
  }

  // The bounds of the triangles' centres, in the pass that validates the triangles
  // (`read_checked`): the soup's shape must be valid; throws as `validate(soup)` does when a
  // triangle is not.
  [[nodiscard]] Aabb centre_bounds(const TriangleSoup& soup) const {
    std::atomic<bool> invalid = false;
    const Aabb bounds = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, size_, 8192), Aabb::empty(),
        [&](const tbb::blocked_range<std::size_t>& r, Aabb into) {
          Triangle triangle;
          for (std::size_t id = r.begin(); id != r.end(); ++id) {
            if (!read_checked(soup, id, triangle)) {
              invalid.store(true, std::memory_order_relaxed);
              break;
            }
            into.extend(centre(triangle.bounds()));
          }
          return into;
        },
        [](const Aabb& a, const Aabb& b) { return a.merged(b); });
    if (invalid.load()) validate(soup);  // throws, naming the first invalid triangle
    return bounds;
  }

  // Keys (code << 32) | id in ascending order. The keys start in id order, so a stable sort by
  // the code alone (LSD radix sort, `radix_bits` per pass) orders them by (code, id).
  void sort_by_code(const TriangleSoup& soup, const Aabb& centres) {
    const MortonCoder coder(centres);
    for_each_index([&](std::size_t id) {
      keys_[id] = std::uint64_t(coder.code(centre(soup.triangle(id).bounds()))) << 32 | id;
    });
    auto scratch = fresh<std::uint64_t>(size_);
    std::uint64_t* from = keys_.get();
    std::uint64_t* to = scratch.get();
    for (int shift = 32; shift < 32 + 3 * bits_per_axis; shift += radix_bits) {
      radix_pass(from, to, shift);
      std::swap(from, to);
    }
    if (from != keys_.get()) keys_ = std::move(scratch);
  }

  // One stable counting-sort pass of `size_` keys by bits [shift, shift + radix_bits), in
  // parallel: fixed chunks count their keys per bucket, each chunk writes a bucket's keys after
  // those of the chunks before it, so the result is the serial pass's for any thread count.
  void radix_pass(const std::uint64_t* from, std::uint64_t* to, int shift) const {
    constexpr std::size_t buckets = std::size_t(1) << radix_bits;
    const std::size_t chunks = std::clamp<std::size_t>(size_ / radix_chunk_size, 1, 64);
    const std::size_t chunk_size = (size_ + chunks - 1) / chunks;
    const auto bucket = [&](std::size_t i) { return (from[i] >> shift) & (buckets - 1); };
    std::vector<std::size_t> position(chunks * buckets, 0);  // [chunk][bucket]
    const auto for_each_chunk = [&](const auto& body) {
      tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t chunk) {
        body(position.data() + chunk * buckets, chunk * chunk_size,
             std::min(size_, (chunk + 1) * chunk_size));
      });
    };
    for_each_chunk([&](std::size_t* count, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) ++count[bucket(i)];
    });
    std::size_t total = 0;
    for (std::size_t b = 0; b < buckets; ++b)
      for (std::size_t chunk = 0; chunk < chunks; ++chunk)
        total += std::exchange(position[chunk * buckets + b], total);
    for_each_chunk([&](std::size_t* next, std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) to[next[bucket(i)]++] = from[i];
    });
  }

  [[nodiscard]] std::uint32_t code_at(std::size_t i) const noexcept {
    return std::uint32_t(keys_[i] >> 32);
  }
  [[nodiscard]] TriangleId id_at(std::size_t i) const noexcept { return TriangleId(keys_[i]); }

  // Where [begin, end) splits: at the first code with the highest bit in which the range's
  // first and last codes differ set, or in the middle when all codes are equal.
  [[nodiscard]] std::size_t split_of(std::size_t begin, std::size_t end) const {
    const std::uint32_t first = code_at(begin), last = code_at(end - 1);
    if (first == last) return begin + (end - begin) / 2;
    const std::uint32_t bit = std::bit_floor(first ^ last);
    std::size_t low = begin, high = end - 1;  // code_at(low) lacks `bit`, code_at(high) has it
    while (high - low > 1) {
      const std::size_t middle = low + (high - low) / 2;
      ((code_at(middle) & bit) != 0 ? high : low) = middle;
    }
    return high;
  }

  static constexpr int width = WideNode::width;

  // A subtree and the box of its triangles.
  struct Built {
    WidePiece piece;
    Aabb bounds = Aabb::empty();
  };

  // The children of the wide node over sorted positions [begin, end) (more than a leaf may
  // hold): child i covers [cuts[i], cuts[i + 1]). The child with the most triangles (the first
  // of equals) is split while it is larger than a leaf and the node has room.
  [[nodiscard]] int children_of(std::size_t begin, std::size_t end,
                                std::size_t (&cuts)[width + 1]) const {
    cuts[0] = begin;
    cuts[1] = end;
    int count = 1;
    while (count < width) {
      int chosen = -1;
      std::size_t largest = leaf_size_;
      for (int i = 0; i < count; ++i)
        if (cuts[i + 1] - cuts[i] > largest) {
          chosen = i;
          largest = cuts[i + 1] - cuts[i];
        }
      if (chosen < 0) break;
      for (int i = count + 1; i > chosen + 1; --i) cuts[i] = cuts[i - 1];
      cuts[chosen + 1] = split_of(cuts[chosen], cuts[chosen + 2]);
      ++count;
    }
    return count;
  }

  [[nodiscard]] bool is_leaf(std::size_t begin, std::size_t end) const {
    return end - begin <= leaf_size_;
  }

  // The box of the triangles at sorted positions [begin, end), read from the soup (an array of
  // boxes in sorted order would cost a pass and fresh pages of its own).
  [[nodiscard]] Aabb leaf_bounds(std::size_t begin, std::size_t end) const {
    Aabb box = Aabb::empty();
    for (std::size_t i = begin; i < end; ++i) box.extend(soup_.triangle(id_at(i)).bounds());
    return box;
  }

  // Writes the wide node over `children` (boxes of inner children set by the caller) at
  // piece.nodes[at], with inner child i at index[i], and returns the box of all children.
  static Aabb finish_node(WidePiece& piece, std::size_t at, const WideChild* children, int count,
                          const std::uint32_t* index, std::size_t end) {
    write_wide_node(piece.nodes[at], children, count, static_cast<std::uint32_t>(end));
    Aabb box = Aabb::empty();
    for (int i = 0; i < count; ++i) {
      if (!children[i].leaf) piece.nodes[at].child[i] = index[i];
      box = box.merged(children[i].bounds);
    }
    return box;
  }

  // Appends the subtree of the wide node over sorted positions [begin, end) to `piece`, depth
  // first, and returns its box.
  Aabb build_node(std::size_t begin, std::size_t end, WidePiece& piece) const {
    std::size_t cuts[width + 1];
    const int count = children_of(begin, end, cuts);
    const std::size_t at = piece.nodes.size();
    piece.nodes.emplace_back();
    WideChild children[width];
    std::uint32_t index[width] = {};
    for (int i = 0; i < count; ++i) {
      const std::size_t first = cuts[i], last = cuts[i + 1];
      children[i].first = static_cast<std::uint32_t>(first);
      children[i].leaf = is_leaf(first, last);
      if (children[i].leaf) {
        children[i].bounds = leaf_bounds(first, last);
        piece.leaves.push_back({std::uint32_t(first), std::uint32_t(last)});
      } else {
        index[i] = static_cast<std::uint32_t>(piece.nodes.size());
        children[i].bounds = build_node(first, last, piece);
      }
    }
    return finish_node(piece, at, children, count, index, end);
  }

  // The subtree of the wide node over sorted positions [begin, end): depth first into one
  // piece below the parallel threshold, else this node alone with its inner children built in
  // parallel as parts.
  Built build_piece(std::size_t begin, std::size_t end) const {
    Built built;
    WidePiece& piece = built.piece;
    if (end - begin < parallel_subtree_threshold) {
      built.bounds = build_node(begin, end, piece);
      piece.count();
      return built;
    }
    std::size_t cuts[width + 1];
    const int count = children_of(begin, end, cuts);
    piece.nodes.emplace_back();
    WideChild children[width];
    int inner[width];
    int parts = 0;
    for (int i = 0; i < count; ++i) {
      children[i].first = static_cast<std::uint32_t>(cuts[i]);
      children[i].leaf = is_leaf(cuts[i], cuts[i + 1]);
      if (children[i].leaf) {
        children[i].bounds = leaf_bounds(cuts[i], cuts[i + 1]);
        piece.leaves.push_back({std::uint32_t(cuts[i]), std::uint32_t(cuts[i + 1])});
      } else {
        inner[parts++] = i;
      }
    }
    std::vector<Built> built_parts(static_cast<std::size_t>(parts));
    tbb::parallel_for(0, parts, [&](int p) {
      const int i = inner[p];
      built_parts[static_cast<std::size_t>(p)] = build_piece(cuts[i], cuts[i + 1]);
    });
    const std::uint32_t placeholder[width] = {};
    for (int p = 0; p < parts; ++p) {
      Built& part = built_parts[static_cast<std::size_t>(p)];
      children[inner[p]].bounds = part.bounds;
      piece.parts.push_back(std::move(part.piece));
      piece.links.push_back(static_cast<std::uint32_t>(inner[p]));
    }
    built.bounds = finish_node(piece, 0, children, count, placeholder, end);
    piece.count();
    return built;
  }

  const TriangleSoup& soup_;
  std::size_t size_;
  std::uint32_t leaf_size_;
  std::unique_ptr<std::uint64_t[]> keys_;  // (code << 32) | id, sorted
};

}  // namespace

Bvh build_morton(const TriangleSoup& soup, const BuildOptions& options) {
  return MortonBuilder(soup, options).build();
}

}  // namespace trisect::detail
