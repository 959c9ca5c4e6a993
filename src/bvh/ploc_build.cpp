// Parallel locally-ordered clustering (Meister & Bittner, "Parallel Locally-Ordered Clustering
// for Bounding Volume Hierarchy Construction", IEEE TVCG 2018). The triangles start as one
// cluster each, in Morton order (morton_order.hpp). Each round, every cluster finds the
// cluster within `search_radius` places of it whose merged box has the smallest surface area;
// clusters that are each other's nearest merge into a binary node, and the survivors close up
// in order. A round costs a pass over the clusters, and each round merges a large share of
// them. The binary tree is then written as 8-wide nodes (wide_writer.hpp): a node opens its
// child with the largest box until it has 8 children, and subtrees of at most 4 triangles are
// leaves.
//
// The distances are computed on copies of the boxes scaled into the unit cube (so that no
// area overflows or underflows for any finite input); the tree's boxes are the exact unions
// of the triangles' boxes. Ties in distance are broken by a hash of the pair, the same from
// either side, so that equal distances (a regular grid, repeated triangles) still pair up in
// few rounds.
//
// Determinism: every round is a function of the previous one's clusters (nearest neighbours,
// then integer prefix sums), so the tree does not depend on the thread count.
#include "ploc_build.hpp"

#include "morton_build.hpp"
#include "morton_order.hpp"
#include "trisect/math/float4.hpp"
#include "wide_writer.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace trisect::detail {
namespace {

// Places searched on each side of a cluster (the paper's r; it reports 16 to 32 as the sweet
// spot for ray tracing speed, smaller for build speed).
constexpr int search_radius = 8;
// Subtrees of at most this many triangles (and at most `max_leaf_size`) become leaves.
constexpr std::uint32_t ploc_leaf_size = 4;
// Clusters per chunk of a parallel pass over the clusters.
constexpr std::size_t chunk_size = 8192;
// A round of more than 256 clusters that merges fewer than 1 in 256 of them has stalled.
constexpr std::size_t stalled_share(std::size_t clusters) noexcept {
  return clusters > 256 ? clusters / 256 : 1;
}
// Sentinel boxes around the clusters: far larger than any scaled box, with a finite area.
constexpr float sentinel_extent = 1e18f;

// The clusters of one round, in order: the binary node each is, and its box scaled into the
// unit cube as structure-of-arrays rows padded with sentinels on each side.
// Allocated once for the first round; each round's clusters are fewer.
class Clusters {
 public:
  explicit Clusters(std::size_t capacity) : node_(fresh_array<std::uint32_t>(capacity)) {
    for (int r = 0; r < 6; ++r) {
      row_[r] = fresh_array<float>(capacity + 2 * search_radius + 3);
      std::fill_n(row_[r].get(), search_radius, sentinel(r));
    }
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  // Sets the count to `size` (at most the capacity given) and the sentinels after the last.
  void resize(std::size_t size) noexcept {
    size_ = size;
    for (int r = 0; r < 6; ++r)
      std::fill_n(row_[r].get() + search_radius + size, search_radius + 3, sentinel(r));
  }
  [[nodiscard]] std::uint32_t node(std::size_t c) const noexcept { return node_[c]; }
  // Row r (min x, y, z, max x, y, z) from place c - search_radius on.
  [[nodiscard]] const float* window(int r, std::size_t c) const noexcept {
    return row_[r].get() + c;
  }
  [[nodiscard]] float scaled(int r, std::size_t c) const noexcept {
    return row_[r][c + search_radius];
  }
  void set(std::size_t c, std::uint32_t node, const float (&scaled)[6]) {
    node_[c] = node;
    for (int r = 0; r < 6; ++r) row_[r][c + search_radius] = scaled[r];
  }

 private:
  static float sentinel(int r) noexcept { return r < 3 ? -sentinel_extent : sentinel_extent; }

  std::unique_ptr<std::uint32_t[]> node_;
  // Cluster c at c + search_radius; search_radius + 3 sentinels after the last (the last
  // window's group of four reads 3 past the radius).
  std::unique_ptr<float[]> row_[6];
  std::size_t size_ = 0;
};

// A pair's rank among pairs of equal distance: a hash of (low, high), the same from both sides.
std::uint64_t pair_rank(std::uint32_t a, std::uint32_t b) noexcept {
  std::uint64_t x = std::uint64_t(std::min(a, b)) << 32 | std::max(a, b);
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  return x ^ (x >> 33);
}

class PlocBuilder {
 public:
  // The binary tree over `soup`'s triangles in `keys`' Morton order.
  PlocBuilder(const TriangleSoup& soup, const std::uint64_t* keys, std::uint32_t leaf_size)
      : size_(static_cast<std::uint32_t>(soup.size())),
        leaf_size_(leaf_size),
        box_(fresh_array<Aabb>(2 * std::size_t{size_} - 1)),
        count_(fresh_array<std::uint32_t>(2 * std::size_t{size_} - 1)),
        children_(fresh_array<std::uint32_t>(2 * std::size_t{size_})) {
    Clusters clusters(size_), next(size_);
    set_leaves(soup, keys, clusters);
    next_node_ = size_;
    while (clusters.size() > 1) {
      merge(clusters, next);
      // Each round merges at least the pair nearest of all (the windows are symmetric and the
      // ties ordered), and on meshes a large share; a round that merges almost nothing (points
      // spaced in a geometric series, say) would make the build quadratic.
      if (next.size() + stalled_share(clusters.size()) > clusters.size()) return;
      std::swap(clusters, next);
    }
    complete_ = true;
  }

  // Whether the clustering ran to one root; it stops early when it stalls (see above).
  [[nodiscard]] bool complete() const noexcept { return complete_; }

  // The tree as the wide writer reads it: a range is a binary node.
  struct Range {
    std::uint32_t node, first;
  };
  [[nodiscard]] Range root() const { return {2 * size_ - 2, 0}; }
  // A node opens its inner child with the largest box (the first of equals).
  [[nodiscard]] std::pair<Range, Range> halves(const Range& range) const {
    const std::uint32_t left = children_[2 * (range.node - size_)];
    const std::uint32_t right = children_[2 * (range.node - size_) + 1];
    return {{left, range.first}, {right, range.first + count_[left]}};
  }
  [[nodiscard]] double priority(const Range& range) const {
    return is_leaf(range) ? -1.0 : double_half_area(box_[range.node]);
  }
  [[nodiscard]] bool is_leaf(const Range& range) const { return count_[range.node] <= leaf_size_; }
  [[nodiscard]] Aabb leaf_bounds(const Range& range) const { return box_[range.node]; }
  [[nodiscard]] std::uint32_t first(const Range& range) const { return range.first; }
  [[nodiscard]] std::uint32_t end(const Range& range) const {
    return range.first + count_[range.node];
  }

  // The triangle ids in slot order: the leaves of the binary tree left to right. `keys` as
  // given to the constructor.
  [[nodiscard]] std::vector<TriangleId> slot_ids(const std::uint64_t* keys) const {
    std::vector<TriangleId> ids;
    resize_on_huge_pages(ids, size_);
    auto first = fresh_array<std::uint32_t>(2 * std::size_t{size_} - 1);
    first[root().node] = 0;
    // Parents are made after their children: top down is from the last node to the first.
    for (std::uint32_t node = 2 * size_ - 2; node >= size_; --node) {
      const std::uint32_t left = children_[2 * (node - size_)];
      first[left] = first[node];
      first[children_[2 * (node - size_) + 1]] = first[node] + count_[left];
    }
    for (std::uint32_t t = 0; t < size_; ++t) ids[first[t]] = id_of_key(keys[t]);
    return ids;
  }

  // The depth of the binary tree (a leaf alone has depth 0).
  [[nodiscard]] int depth() const {
    std::vector<std::uint8_t> level(2 * std::size_t{size_} - 1, 0);
    int deepest = 0;
    for (std::uint32_t node = 2 * size_ - 2; node >= size_; --node) {
      const int below = std::min(level[node] + 1, 255);
      for (std::uint32_t side = 0; side < 2; ++side)
        level[children_[2 * (node - size_) + side]] = static_cast<std::uint8_t>(below);
      deepest = std::max(deepest, below);
    }
    return deepest;
  }

 private:
  static double double_half_area(const Aabb& box) noexcept {
    const glm::dvec3 d = glm::dvec3(box.max) - glm::dvec3(box.min);
    const double dx = d.x, dy = d.y, dz = d.z;
    return dx * dy + dy * dz + dz * dx;
  }

  template <class Body>
  static void for_each_chunk(std::size_t count, const Body& body) {
    const std::size_t chunks = (count + chunk_size - 1) / chunk_size;
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t chunk) {
      body(chunk, chunk * chunk_size, std::min(count, (chunk + 1) * chunk_size));
    });
  }

  // One cluster per triangle, in Morton order; node t is the triangle at Morton place t.
  void set_leaves(const TriangleSoup& soup, const std::uint64_t* keys, Clusters& clusters) {
    for_each_chunk(size_, [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t t = begin; t < end; ++t) {
        box_[t] = soup.triangle(id_of_key(keys[t])).bounds();
        count_[t] = 1;
      }
    });
    const Aabb scene = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, size_, chunk_size), Aabb::empty(),
        [&](const tbb::blocked_range<std::size_t>& range, Aabb into) {
          for (std::size_t t = range.begin(); t != range.end(); ++t) into = into.merged(box_[t]);
          return into;
        },
        [](const Aabb& a, const Aabb& b) { return a.merged(b); });
    double extent = 0;
    for (int axis = 0; axis < 3; ++axis)
      extent = std::max(extent, double(scene.max[axis]) - double(scene.min[axis]));
    const double scale = extent > 0 ? 1 / extent : 1;
    clusters.resize(size_);
    for_each_chunk(size_, [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t t = begin; t < end; ++t) {
        float scaled[6];
        for (int axis = 0; axis < 3; ++axis) {
          const double low = scene.min[axis];
          scaled[axis] = float((double(box_[t].min[axis]) - low) * scale);
          scaled[axis + 3] = float((double(box_[t].max[axis]) - low) * scale);
        }
        clusters.set(t, static_cast<std::uint32_t>(t), scaled);
      }
    });
  }

  // The place of cluster c's nearest neighbour within the search radius (at least one other
  // cluster exists): smallest merged area, then smallest pair rank, then smallest place.
  static std::uint32_t nearest(const Clusters& clusters, std::size_t c) {
    // The distances to places c - radius to c + radius and 3 more, four at a time. Places
    // outside the clusters are sentinels, farther than any cluster; the place itself and the 3
    // past the window are set at infinity (the windows must be symmetric for nearest
    // neighbours to pair up).
    constexpr int groups = (2 * search_radius + 1 + 3) / 4;
    Float4 distance[groups];
    const auto lanes = [&](int r, int g) {
      return Float4::load_unaligned(clusters.window(r, c) + 4 * static_cast<std::size_t>(g));
    };
    Float4 own[6];
    for (int r = 0; r < 6; ++r) own[r] = Float4::splat(clusters.scaled(r, c));
    for (int g = 0; g < groups; ++g) {
      const Float4 dx =
          max_ignoring_nan(own[3], lanes(3, g)) - min_ignoring_nan(own[0], lanes(0, g));
      const Float4 dy =
          max_ignoring_nan(own[4], lanes(4, g)) - min_ignoring_nan(own[1], lanes(1, g));
      const Float4 dz =
          max_ignoring_nan(own[5], lanes(5, g)) - min_ignoring_nan(own[2], lanes(2, g));
      distance[g] = dx * dy + dy * dz + dz * dx;
    }
    constexpr float infinity = std::numeric_limits<float>::infinity();
    static_assert(search_radius % 4 == 0, "the place itself is lane 0 of its group");
    static_assert(groups * 4 - (2 * search_radius + 1) == 3, "the last group has one place");
    distance[search_radius / 4] =
        max_ignoring_nan(distance[search_radius / 4], Float4::lanes(infinity, 0, 0, 0));
    distance[groups - 1] =
        max_ignoring_nan(distance[groups - 1], Float4::lanes(0, infinity, infinity, infinity));
    // The least distance, then the places that have it (usually one).
    Float4 least4 = distance[0];
    for (int g = 1; g < groups; ++g) least4 = min_ignoring_nan(least4, distance[g]);
    alignas(16) float least_lanes[4];
    std::memcpy(least_lanes, &least4, sizeof least_lanes);
    const Float4 least = Float4::splat(std::min(std::min(least_lanes[0], least_lanes[1]),
                                                std::min(least_lanes[2], least_lanes[3])));
    std::uint32_t at_least = 0;
    for (int g = 0; g < groups; ++g) at_least |= equal_mask(distance[g], least) << (4 * g);
    std::size_t best = c - search_radius + static_cast<std::size_t>(std::countr_zero(at_least));
    for (at_least &= at_least - 1; at_least != 0; at_least &= at_least - 1) {
      const std::size_t j =
          c - search_radius + static_cast<std::size_t>(std::countr_zero(at_least));
      if (tie_first(c, j, best)) best = j;
    }
    return static_cast<std::uint32_t>(best);
  }

  // Of two pairs (c, j) and (c, k) at the same distance, whether (c, j) comes first: by pair
  // rank, then by the pair's places (low, high). An order on pairs, the same from either side.
  static bool tie_first(std::size_t c, std::size_t j, std::size_t k) noexcept {
    const auto place = [](std::size_t p) { return static_cast<std::uint32_t>(p); };
    const std::uint64_t rank_j = pair_rank(place(c), place(j));
    const std::uint64_t rank_k = pair_rank(place(c), place(k));
    if (rank_j != rank_k) return rank_j < rank_k;
    return std::min(j, c) != std::min(k, c) ? std::min(j, c) < std::min(k, c)
                                            : std::max(j, c) < std::max(k, c);
  }

  // The next round's clusters, into `next`: mutual nearest neighbours merged into new binary
  // nodes (at the lower place), the rest kept, in order.
  void merge(const Clusters& clusters, Clusters& next) {
    const std::size_t count = clusters.size();
    near_.resize(count);
    for_each_chunk(count, [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t c = begin; c < end; ++c) near_[c] = nearest(clusters, c);
    });
    // Per chunk: merges led (by the lower place of a mutual pair) and clusters kept.
    const std::size_t chunks = (count + chunk_size - 1) / chunk_size;
    std::vector<std::size_t> leads(chunks + 1, 0), kept(chunks + 1, 0);
    const auto mutual = [&](std::size_t c) { return near_[near_[c]] == c; };
    for_each_chunk(count, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
      for (std::size_t c = begin; c < end; ++c) {
        const bool pairs = mutual(c);
        leads[chunk + 1] += pairs && c < near_[c];
        kept[chunk + 1] += !pairs || c < near_[c];
      }
    });
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
      leads[chunk + 1] += leads[chunk];
      kept[chunk + 1] += kept[chunk];
    }
    next.resize(kept[chunks]);
    const std::uint32_t base = next_node_;
    for_each_chunk(count, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
      std::size_t lead = leads[chunk], at = kept[chunk];
      for (std::size_t c = begin; c < end; ++c) {
        const bool pairs = mutual(c);
        if (pairs && c > near_[c]) continue;  // merged into the lower place
        float scaled[6];
        for (int r = 0; r < 6; ++r) scaled[r] = clusters.scaled(r, c);
        if (!pairs) {
          next.set(at++, clusters.node(c), scaled);
          continue;
        }
        const std::size_t other = near_[c];
        for (int r = 0; r < 3; ++r) {
          scaled[r] = std::min(scaled[r], clusters.scaled(r, other));
          scaled[r + 3] = std::max(scaled[r + 3], clusters.scaled(r + 3, other));
        }
        const auto node = static_cast<std::uint32_t>(base + lead++);
        join(node, clusters.node(c), clusters.node(other));
        next.set(at++, node, scaled);
      }
    });
    next_node_ = base + static_cast<std::uint32_t>(leads[chunks]);
  }

  // Makes binary node `node` over `left` and `right` (in slot order).
  void join(std::uint32_t node, std::uint32_t left, std::uint32_t right) noexcept {
    children_[2 * (node - size_)] = left;
    children_[2 * (node - size_) + 1] = right;
    box_[node] = box_[left].merged(box_[right]);
    count_[node] = count_[left] + count_[right];
  }

  std::uint32_t size_;
  std::uint32_t leaf_size_;
  std::unique_ptr<Aabb[]> box_;                // per binary node: exact box of its triangles
  std::unique_ptr<std::uint32_t[]> count_;     // per binary node: its triangles
  std::unique_ptr<std::uint32_t[]> children_;  // per inner node n - size: left, right
  std::uint32_t next_node_ = 0;
  bool complete_ = false;
  std::vector<std::uint32_t> near_;  // per cluster of the round: its nearest neighbour's place
};

}  // namespace

Bvh build_ploc(const TriangleSoup& soup, const BuildOptions& options) {
  // Binary node numbers go up to 2 n - 2 in 32 bits.
  if (soup.size() >= std::size_t{1} << 31) return build_morton(soup, options);
  std::unique_ptr<std::uint64_t[]> keys = morton_sorted_keys(soup);
  const std::uint32_t leaf_size = std::min(options.max_leaf_size, ploc_leaf_size);
  WrittenPiece root;
  std::vector<TriangleId> ids;
  {
    // The binary tree is freed before the triangles are copied (the peak of memory).
    const PlocBuilder tree(soup, keys.get(), leaf_size);
    // A wide tree is never deeper than its binary tree. A clustering that stalls or a binary
    // tree too deep for the walks' stacks (only from pathological inputs) gives way to Morton
    // order, so that the build stays O(n log n) and the tree walkable.
    if (!tree.complete() || tree.depth() > max_bvh_depth) return build_morton(soup, options);
    root = WideWriter<PlocBuilder>(tree).write(tree.root());
    ids = tree.slot_ids(keys.get());
  }
  keys.reset();
  return assemble(root.piece, std::move(ids), soup, root.bounds);
}

}  // namespace trisect::detail
