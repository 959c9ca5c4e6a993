// A linear BVH: triangles sorted along a Morton curve of their box centres (morton_order.hpp),
// then split top down where the codes' highest differing bit changes (Lauterbach et al., "Fast
// BVH Construction on GPUs", 2009; the top-down split search as in Karras, "Maximizing
// Parallelism in the Construction of BVHs, Octrees, and k-d Trees", HPG 2012). The 8-wide
// nodes are written directly (wide_writer.hpp): each node splits its child with the most
// triangles at that child's highest differing bit until it has 8 children or every child is a
// leaf (as Embree's Morton builder grows its wide nodes), and its child boxes are gathered
// bottom up.
//
// Determinism: the keys are sorted by (code, id), all distinct, so their order, and with it
// every split and box, does not depend on the thread count; which subtrees are built apart
// depends only on their sizes.
#include "morton_build.hpp"

#include "morton_order.hpp"
#include "soup_reader.hpp"
#include "wide_writer.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace trisect::detail {
namespace {

// Ranges of at most this many triangles (and at most `max_leaf_size`) become leaves.
constexpr std::uint32_t morton_leaf_size = 4;

// The triangle ids of the sorted keys, position by position (for `SoupReader`).
struct KeyIds {
  const std::uint64_t* keys;
  std::size_t count;

  [[nodiscard]] TriangleId operator[](std::size_t i) const noexcept { return id_of_key(keys[i]); }
  [[nodiscard]] std::size_t size() const noexcept { return count; }
};

// The tree of code splits over the sorted keys, as the wide writer reads it: a range is a
// span of sorted positions, which are the slots.
class CodeSplits {
 public:
  struct Range {
    std::uint32_t begin, end;
  };

  // Writes each leaf's triangles into `triangles` (`LeafTriangles::unfilled` over the keys'
  // count) as it reads them for the leaf's box.
  CodeSplits(const TriangleSoup& soup, const std::uint64_t* keys, std::uint32_t size,
             std::uint32_t leaf_size, LeafTriangles& triangles)
      : reader_(soup, KeyIds{keys, size}),
        keys_(keys),
        leaf_size_(leaf_size),
        triangles_(&triangles) {}

  // A node splits its child with the most triangles (the first of equals) at its code split,
  // while that child is larger than a leaf.
  [[nodiscard]] std::pair<Range, Range> halves(const Range& range) const {
    const std::uint32_t cut = split_of(range.begin, range.end);
    return {{range.begin, cut}, {cut, range.end}};
  }
  [[nodiscard]] double priority(const Range& range) const {
    return is_leaf(range) ? -1.0 : double(range.end - range.begin);
  }
  [[nodiscard]] bool is_leaf(const Range& range) const {
    return range.end - range.begin <= leaf_size_;
  }
  // The box of the triangles at sorted positions [begin, end), read from the soup, and those
  // triangles written into the leaf's slots: the soup is read once, in slot order (the writer
  // asks for the leaves in that order, so the reader asks ahead for the next ones).
  [[nodiscard]] Aabb leaf_bounds(const Range& range) const {
    Aabb box = Aabb::empty();
    triangles_->rewrite_leaf({range.begin, range.end}, [&](std::uint32_t slot) {
      const Triangle triangle = reader_.triangle(slot);
      box.extend(triangle.bounds());
      return triangle;
    });
    return box;
  }
  [[nodiscard]] std::uint32_t first(const Range& range) const { return range.begin; }
  [[nodiscard]] std::uint32_t end(const Range& range) const { return range.end; }

 private:
  [[nodiscard]] std::uint32_t code_at(std::uint32_t i) const noexcept {
    return code_of_key(keys_[i]);
  }

  // Where [begin, end) splits: at the first code with the highest bit in which the range's
  // first and last codes differ set, or in the middle when all codes are equal.
  [[nodiscard]] std::uint32_t split_of(std::uint32_t begin, std::uint32_t end) const {
    const std::uint32_t first = code_at(begin), last = code_at(end - 1);
    if (first == last) return begin + (end - begin) / 2;
    const std::uint32_t bit = std::bit_floor(first ^ last);
    // The first code with `bit` among (begin, end - 1]: code_at(low) lacks it, and each step
    // keeps the half that holds the change, moving `low` without a branch (the halves are taken
    // at random, and a mispredicted branch cost more than the step).
    std::uint32_t low = begin, length = end - 1 - begin;  // the answer is in (low, low + length]
    while (length > 1) {
      const std::uint32_t half = length / 2;
      low += (code_at(low + half) & bit) == 0 ? half : 0;
      length -= half;
    }
    return low + 1;
  }

  SoupReader<KeyIds> reader_;
  const std::uint64_t* keys_;
  std::uint32_t leaf_size_;
  LeafTriangles* triangles_;
};

}  // namespace

Bvh build_morton(const TriangleSoup& soup, const BuildOptions& options) {
  const auto size = static_cast<std::uint32_t>(soup.size());
  std::unique_ptr<std::uint64_t[]> keys = morton_sorted_keys(soup);
  LeafTriangles triangles = LeafTriangles::unfilled(size);
  const CodeSplits splits(soup, keys.get(), size, std::min(options.max_leaf_size, morton_leaf_size),
                          triangles);
  const WrittenPiece root = WideWriter<CodeSplits>(splits).write({0, size});
  std::vector<TriangleId> ids;
  resize_on_huge_pages(ids, size);
  tbb::parallel_for(tbb::blocked_range<std::uint32_t>(0, size, 4096), [&](const auto& range) {
    for (std::uint32_t i = range.begin(); i != range.end(); ++i) ids[i] = id_of_key(keys[i]);
  });
  keys.reset();
  return assemble(root.piece, std::move(ids), std::move(triangles), root.bounds);
}

}  // namespace trisect::detail
