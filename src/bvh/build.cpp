// Binned SAH construction after Wald, "On fast Construction of SAH-based Bounding Volume
// Hierarchies" (IEEE Symposium on Interactive Ray Tracing, 2007), with the per-bin box
// accumulation in 4-lane SIMD as in Embree's builders (Wald et al., "Embree: A Kernel
// Framework for Efficient CPU Ray Tracing", 2014).
//
// Determinism: every node decision depends only on its range of references, and parallel
// reductions combine exact operations (float min/max, integer counts), so the tree does not
// depend on the thread count. Subtrees below the parallel threshold are built depth first into
// their own arrays, and the pieces are laid out in one array of the tree's exact size
// (tree_pieces.hpp).
#include "trisect/bvh/build.hpp"

#include "box4.hpp"
#include "finish.hpp"
#include "huge_pages.hpp"
#include "mesh/checked_soup.hpp"
#include "morton_build.hpp"
#include "tree_pieces.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trisect {
namespace {

using detail::BinaryNode;
using detail::Box4;

// A triangle's bounds; the unused fourth lane of `lower` carries its id's bits.
struct alignas(16) Reference {
  float lower[4];
  float upper[4];

  [[nodiscard]] Box4 box() const { return {Float4::load_xyz(lower), Float4::load(upper)}; }
  // Twice the centroid (lower + upper): the bin mapping needs no halving.
  [[nodiscard]] Float4 centroid2() const { return Float4::load_xyz(lower) + Float4::load(upper); }
  [[nodiscard]] TriangleId id() const {
    TriangleId id;
    std::memcpy(&id, &lower[3], sizeof id);
    return id;
  }
};

Reference make_reference(const Aabb& bounds, TriangleId id) {
  Reference reference{{bounds.min.x, bounds.min.y, bounds.min.z, 0.0f},
                      {bounds.max.x, bounds.max.y, bounds.max.z, 0.0f}};
  std::memcpy(&reference.lower[3], &id, sizeof id);
  return reference;
}

// Bounds of a range of references and of their doubled centroids.
struct RangeBounds {
  Box4 bounds = Box4::empty();
  Box4 centroids = Box4::empty();

  void add(const Reference& reference) {
    bounds.extend(reference.box());
    centroids.extend(reference.centroid2());
  }
  void add(const RangeBounds& other) {
    bounds.extend(other.bounds);
    centroids.extend(other.centroids);
  }
};

constexpr std::uint32_t max_bins = 64;
// Ranges at least this large build their two subtrees in parallel; smaller ones are built into
// one piece.
constexpr std::size_t parallel_subtree_threshold = 4096;
// Ranges at least this large bin in parallel.
constexpr std::size_t parallel_scan_threshold = 1 << 16;
// Ranges at least this large bin into two interleaved binnings.
constexpr std::size_t interleaved_binning_threshold = 256;
// Below this depth splits follow the SAH; deeper ones split at the object median, which halves
// the range, so the depth stays under max_bvh_depth for any 32-bit triangle count.
constexpr int sah_depth_limit = max_bvh_depth - 40;

// Bins of all three axes for one range. Only the first `bin_count` bins per axis are used and
// initialised, so that small ranges do not pay for the largest bin count.
struct Binning {
  std::uint32_t bin_count;
  Box4 boxes[3][max_bins];
  std::uint32_t counts[3][max_bins];

  explicit Binning(std::uint32_t count) : bin_count(count) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < count; ++i) {
        boxes[axis][i] = Box4::empty();
        counts[axis][i] = 0;
      }
  }

  void add(const Binning& other) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < bin_count; ++i) {
        boxes[axis][i].extend(other.boxes[axis][i]);
        counts[axis][i] += other.counts[axis][i];
      }
  }
};

// Maps doubled centroids to bins along each axis. Axes where all centroids coincide get scale
// 0 (everything in bin 0); a subnormal extent may give an infinite scale, whose 0·inf NaN the
// clamp below maps to bin 0, so every reference still gets a bin and binning and partitioning
// always agree (they call the same function).
struct BinMapping {
  Float4 origin;
  Float4 scale;
  Float4 last;
  // Per axis, as plain arrays: indexing a glm vector by a run-time axis compiles to a switch.
  float scale_by_axis[3];
  float origin_by_axis[3];
  std::uint32_t bin_count;

  BinMapping(const Box4& centroids, std::uint32_t count) : bin_count(count) {
    const Vec3 low = to_vec3(centroids.lower), high = to_vec3(centroids.upper);
    for (int axis = 0; axis < 3; ++axis) {
      const float extent = high[axis] - low[axis];
      scale_by_axis[axis] = extent > 0 ? static_cast<float>(count) / extent : 0.0f;
    }
    origin = centroids.lower;
    for (int axis = 0; axis < 3; ++axis) origin_by_axis[axis] = low[axis];
    scale = Float4::xyz(scale_by_axis[0], scale_by_axis[1], scale_by_axis[2]);
    last = Float4::splat(static_cast<float>(count - 1));
  }

  [[nodiscard]] bool all_coincide() const {
    return scale_by_axis[0] == 0 && scale_by_axis[1] == 0 && scale_by_axis[2] == 0;
  }

  // Bin of `reference` along x, y and z (and a fourth, unused lane).
  void bins(const Reference& reference, std::uint32_t (&index)[4]) const {
    Float4 position = (reference.centroid2() - origin) * scale;
    position = min_ignoring_nan(max_ignoring_nan(position, Float4::splat(0.0f)), last);
    truncate_to_int(position, index);
  }

  // Bin of `reference` along `axis` alone: the same arithmetic as `bins` on one lane.
  [[nodiscard]] std::uint32_t bin(const Reference& reference, int axis) const {
    const float centroid2 = reference.lower[axis] + reference.upper[axis];
    const float position = (centroid2 - origin_by_axis[axis]) * scale_by_axis[axis];
    // As _mm_max_ps / _mm_min_ps do it: a NaN position becomes 0.
    const float above = position > 0.0f ? position : 0.0f;
    const float last_bin = static_cast<float>(bin_count - 1);
    return static_cast<std::uint32_t>(above < last_bin ? above : last_bin);
  }
};

struct Split {
  int axis = -1;
  std::uint32_t last_left_bin = 0;                      // left child: bins [0, last_left_bin]
  float cost = std::numeric_limits<float>::infinity();  // sum of area * count of both sides
};

// Where a range splits and the bounds of both halves.
struct Partition {
  std::size_t middle;
  RangeBounds left, right;
};

class Builder {
 public:
  // The references are made in the pass that validates the triangles (`detail::read_checked`),
  // into an array left uninitialised until then: the soup's shape must be valid; throws as
  // `validate(soup)` does when a triangle is not.
  Builder(const TriangleSoup& soup, const BuildOptions& options)
      : options_(options), size_(soup.size()), references_(new Reference[soup.size()]) {
    detail::advise_huge_pages(references_.get(), size_ * sizeof(Reference));
    std::atomic<bool> invalid = false;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, soup.size(), 4096), [&](const auto& r) {
      Triangle triangle;
      for (std::size_t id = r.begin(); id != r.end(); ++id) {
        if (!detail::read_checked(soup, id, triangle)) {
          invalid.store(true, std::memory_order_relaxed);
          return;
        }
        references_[id] = make_reference(triangle.bounds(), static_cast<TriangleId>(id));
      }
    });
    if (invalid.load()) validate(soup);  // throws, naming the first invalid triangle
  }

  void build_root() { root_ = build_piece(0, size_, 0, bounds_of(0, size_)); }

  // The BVH: the finishing step over the laid-out tree, with the references' ids as leaf
  // order (leaves cover reference ranges left to right). The references are freed first.
  [[nodiscard]] Bvh finish(const TriangleSoup& soup) && {
    std::vector<TriangleId> leaf_order;
    detail::resize_on_huge_pages(leaf_order, size_);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size_, 4096), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i)
        leaf_order[i] = references_[i].id();
    });
    references_.reset();
    const std::unique_ptr<BinaryNode[]> nodes(new BinaryNode[root_.size]);
    detail::advise_huge_pages(nodes.get(), root_.size * sizeof(BinaryNode));
    detail::lay_out(root_, nodes.get(), 0, parallel_subtree_threshold);
    root_ = {};
    return detail::finish(nodes.get(), std::move(leaf_order), soup,
                          {1.0f, 1.0f, options_.max_leaf_size});
  }

 private:
  // The subtree over references [begin, end), whose bounds are `range`: built depth first
  // into one piece below the parallel threshold, else its halves in parallel.
  detail::TreePiece build_piece(std::size_t begin, std::size_t end, int depth,
                                const RangeBounds& range) {
    if (end - begin < parallel_subtree_threshold) {
      std::vector<BinaryNode> nodes;
      nodes.reserve(2 * (end - begin) - 1);
      build_node(begin, end, depth, range, nodes);
      return detail::TreePiece::whole(std::move(nodes));
    }
    const std::optional<Partition> split = choose_split(begin, end, range, depth);
    if (!split) return detail::TreePiece::whole({leaf(begin, end, range)});
    detail::TreePiece left, right;
    tbb::parallel_invoke([&] { left = build_piece(begin, split->middle, depth + 1, split->left); },
                         [&] { right = build_piece(split->middle, end, depth + 1, split->right); });
    return detail::TreePiece::joined(range.bounds.to_aabb(), std::move(left), std::move(right));
  }

  // The leaf over references [begin, end).
  static BinaryNode leaf(std::size_t begin, std::size_t end, const RangeBounds& range) {
    return {range.bounds.to_aabb(), static_cast<std::uint32_t>(begin),
            static_cast<std::uint32_t>(end - begin)};
  }

  // Appends the subtree over references [begin, end) to `nodes`, depth first, the right
  // children's indices counted from nodes[0].
  void build_node(std::size_t begin, std::size_t end, int depth, const RangeBounds& range,
                  std::vector<BinaryNode>& nodes) {
    const std::size_t at = nodes.size();
    const std::optional<Partition> split = choose_split(begin, end, range, depth);
    if (!split) {
      nodes.push_back(leaf(begin, end, range));
      return;
    }
    nodes.push_back({range.bounds.to_aabb(), 0, 0});
    build_node(begin, split->middle, depth + 1, split->left, nodes);
    nodes[at].first = static_cast<std::uint32_t>(nodes.size());
    build_node(split->middle, end, depth + 1, split->right, nodes);
  }

  [[nodiscard]] RangeBounds bounds_of(std::size_t begin, std::size_t end) const {
    const auto scan = [&](const tbb::blocked_range<std::size_t>& r, RangeBounds into) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) into.add(references_[i]);
      return into;
    };
    if (end - begin < parallel_scan_threshold)
      return scan(tbb::blocked_range<std::size_t>(begin, end), RangeBounds{});
    return tbb::parallel_reduce(tbb::blocked_range<std::size_t>(begin, end, 8192), RangeBounds{},
                                scan, [](RangeBounds a, const RangeBounds& b) {
                                  a.add(b);
                                  return a;
                                });
  }

  void bin_one(const Reference& reference, const BinMapping& mapping, Binning& into) const {
    std::uint32_t index[4];
    const Box4 box = reference.box();
    mapping.bins(reference, index);
    for (int axis = 0; axis < 3; ++axis) {
      into.boxes[axis][index[axis]].extend(box);
      ++into.counts[axis][index[axis]];
    }
  }

  // Longer ranges alternate between two binnings, so that neighbours, which often fall in the
  // same bin, do not wait on each other's updates.
  void bin_into(std::size_t begin, std::size_t end, const BinMapping& mapping,
                Binning& into) const {
    if (end - begin < interleaved_binning_threshold) {
      for (std::size_t i = begin; i != end; ++i) bin_one(references_[i], mapping, into);
      return;
    }
    Binning odd(mapping.bin_count);
    std::size_t i = begin;
    for (; i + 1 < end; i += 2) {
      bin_one(references_[i], mapping, into);
      bin_one(references_[i + 1], mapping, odd);
    }
    if (i != end) bin_one(references_[i], mapping, into);
    into.add(odd);
  }

  // Small ranges bin in place; large ones reduce per-thread binnings (exact, so deterministic).
  void bin(std::size_t begin, std::size_t end, const BinMapping& mapping, Binning& into) const {
    if (end - begin < parallel_scan_threshold) return bin_into(begin, end, mapping, into);
    into = tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(begin, end, 8192), into,
        [&](const tbb::blocked_range<std::size_t>& r, Binning partial) {
          bin_into(r.begin(), r.end(), mapping, partial);
          return partial;
        },
        [](Binning a, const Binning& b) {
          a.add(b);
          return a;
        });
  }

  // The lowest-cost split over all axes; axis -1 when every centroid falls in one bin. Only
  // non-empty bins are swept: a split after an empty bin separates the same references as
  // the split before it, at the same cost, and the first of equal costs wins, so skipping them
  // changes no choice (it matters for small ranges, which have as many bins as references).
  static Split best_split(const Binning& binning, const BinMapping& mapping) {
    Split best;
    // Entries [0, used) are written before they are read: no zeroing.
    std::array<std::uint32_t, max_bins> used_bins;
    std::array<float, max_bins> right_cost;
    for (int axis = 0; axis < 3; ++axis) {
      if (mapping.scale_by_axis[axis] == 0) continue;
      const std::uint32_t* counts = binning.counts[axis];
      std::uint32_t used = 0;
      for (std::uint32_t i = 0; i < mapping.bin_count; ++i) {
        used_bins[used] = i;
        used += counts[i] != 0 ? 1 : 0;
      }
      Box4 right = Box4::empty();
      std::uint32_t right_count = 0;
      for (std::uint32_t j = used; j-- > 1;) {
        right.extend(binning.boxes[axis][used_bins[j]]);
        right_count += counts[used_bins[j]];
        right_cost[j] = right.half_area() * static_cast<float>(right_count);
      }
      Box4 left = Box4::empty();
      std::uint32_t left_count = 0;
      for (std::uint32_t j = 0; j + 1 < used; ++j) {
        left.extend(binning.boxes[axis][used_bins[j]]);
        left_count += counts[used_bins[j]];
        const float cost = left.half_area() * static_cast<float>(left_count) + right_cost[j + 1];
        if (cost < best.cost) best = {axis, used_bins[j], cost};
      }
    }
    return best;
  }

  // What `best_split` finds for the two references at `begin`, without binning them (over
  // half of the ranges a build weighs have two references): along every axis where their
  // centroids differ they fall in the first and the last bin, so every such axis separates
  // them at the same cost (x + y = y + x in floats) and the first one wins.
  [[nodiscard]] Split pair_split(std::size_t begin, const BinMapping& mapping) const {
    for (int axis = 0; axis < 3; ++axis)
      if (mapping.scale_by_axis[axis] != 0)
        return {axis, 0,
                references_[begin].box().half_area() + references_[begin + 1].box().half_area()};
    return {};
  }

  // The split of [begin, end), or nothing for a leaf; reorders references accordingly.
  std::optional<Partition> choose_split(std::size_t begin, std::size_t end,
                                        const RangeBounds& range, int depth) {
    const std::size_t count = end - begin;
    if (count == 1) return std::nullopt;
    const bool must_split = count > options_.max_leaf_size;
    // Small ranges need no more bins than references.
    const auto bins = static_cast<std::uint32_t>(
        std::min<std::size_t>(options_.bin_count, std::max<std::size_t>(count, 4)));
    const BinMapping mapping(range.centroids, bins);
    Split split;
    if (!mapping.all_coincide() && depth < sah_depth_limit) {
      if (count == 2) {
        split = pair_split(begin, mapping);
      } else {
        Binning binning(mapping.bin_count);
        bin(begin, end, mapping, binning);
        split = best_split(binning, mapping);
      }
    }
    if (split.axis < 0) {
      if (!must_split) return std::nullopt;
      return median_split(begin, end, range.centroids);
    }
    const float leaf_cost = options_.intersection_cost * static_cast<float>(count);
    const float split_cost = options_.traversal_cost +
                             options_.intersection_cost * split.cost / range.bounds.half_area();
    if (!must_split && leaf_cost <= split_cost) return std::nullopt;
    return partition(begin, end, mapping, split);
  }

  // In-place two-way partition that also gathers both halves' bounds.
  Partition partition(std::size_t begin, std::size_t end, const BinMapping& mapping,
                      const Split& split) {
    Partition result{begin, {}, {}};
    std::size_t left = begin, right = end;
    while (left < right) {
      if (mapping.bin(references_[left], split.axis) <= split.last_left_bin) {
        result.left.add(references_[left]);
        ++left;
      } else {
        --right;
        std::swap(references_[left], references_[right]);
        result.right.add(references_[right]);
      }
    }
    result.middle = left;
    return result;
  }

  // Object median along the widest centroid axis, ties broken by id for determinism.
  Partition median_split(std::size_t begin, std::size_t end, const Box4& centroids) {
    const Vec3 extent = to_vec3(centroids.upper - centroids.lower);
    const int axis =
        extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    const std::size_t middle = begin + (end - begin) / 2;
    const auto at = [&](std::size_t i) { return references_.get() + i; };
    std::nth_element(
        at(begin), at(middle), at(end), [axis](const Reference& a, const Reference& b) {
          const float ca = a.lower[axis] + a.upper[axis], cb = b.lower[axis] + b.upper[axis];
          return ca < cb || (ca == cb && a.id() < b.id());
        });
    return {middle, bounds_of(begin, middle), bounds_of(middle, end)};
  }

  const BuildOptions& options_;
  std::size_t size_;
  std::unique_ptr<Reference[]> references_;
  detail::TreePiece root_;
};

void check(const BuildOptions& options) {
  if (options.max_leaf_size < 1 || options.max_leaf_size > 255)
    throw InvalidInput("build options: max_leaf_size " + std::to_string(options.max_leaf_size) +
                       " is outside [1, 255]");
  if (options.bin_count < 2 || options.bin_count > max_bins)
    throw InvalidInput("build options: bin_count " + std::to_string(options.bin_count) +
                       " is outside [2, 64]");
  if (!(options.traversal_cost >= 0) || !(options.intersection_cost > 0) ||
      !std::isfinite(options.traversal_cost) || !std::isfinite(options.intersection_cost))
    throw InvalidInput(
        "build options: costs must be finite, traversal_cost >= 0 and "
        "intersection_cost > 0");
}

Bvh build_in_arena(const TriangleSoup& soup, const BuildOptions& options) {
  if (options.method == BuildMethod::morton) return detail::build_morton(soup, options);
  Builder builder(soup, options);
  builder.build_root();
  return std::move(builder).finish(soup);
}

}  // namespace

Bvh build(const TriangleSoup& soup, const BuildOptions& options) {
  check(options);
  // The builders check the triangles in their first pass over them.
  if (!detail::soup_shape_is_valid(soup) || soup.empty()) validate(soup);
  if (soup.empty()) return {};
  const int threads = options.threads == 0 ? tbb::this_task_arena::max_concurrency()
                                           : static_cast<int>(options.threads);
  tbb::task_arena arena(threads);
  return arena.execute([&] { return build_in_arena(soup, options); });
}

}  // namespace trisect
