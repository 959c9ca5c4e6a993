// Binned SAH construction after Wald, "On fast Construction of SAH-based Bounding Volume
// Hierarchies" (IEEE Symposium on Interactive Ray Tracing, 2007).
//
// Determinism: every node decision depends only on its range of references, and parallel
// reductions combine exact operations (float min/max, integer counts), so the tree does not
// depend on the thread count. Node slots are assigned without coordination: the subtree over
// reference range [b, e) owns 2(e - b) - 1 slots starting at its root's slot, the left child
// takes the next slot and the right child the slot after the left subtree's region. Leaves
// leave holes in that region; a final depth-first pass compacts the nodes.
#include "trisect/bvh/build.hpp"

#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace trisect {
namespace {

struct Reference {
  Aabb bounds;
  Vec3 centroid;
  TriangleId id;
};

struct RangeBounds {
  Aabb bounds = Aabb::empty();
  Aabb centroids = Aabb::empty();

  void add(const Reference& reference) {
    bounds.extend(reference.bounds);
    centroids.extend(reference.centroid);
  }
  void add(const RangeBounds& other) {
    bounds.extend(other.bounds);
    centroids.extend(other.centroids);
  }
};

constexpr std::uint32_t max_bins = 64;
// Ranges at least this large bin and partition their children's subtrees in parallel.
constexpr std::size_t parallel_subtree_threshold = 4096;
constexpr std::size_t parallel_scan_threshold = 1 << 16;
// Below this depth splits follow the SAH; deeper ones split at the object median, which halves
// the range, so the depth stays under max_bvh_depth for any 32-bit triangle count.
constexpr int sah_depth_limit = max_bvh_depth - 40;

// Half the surface area of a box; 0 for the empty box.
float half_area(const Aabb& box) {
  if (box.is_empty()) return 0.0f;
  const Vec3 size = box.max - box.min;
  return size.x * size.y + size.y * size.z + size.z * size.x;
}

// Bins of all three axes for one range. Only the first `bin_count` bins per axis are used and
// initialised, so that small ranges do not pay for the largest bin count.
struct Binning {
  std::uint32_t bin_count;
  Aabb bounds[3][max_bins];
  std::uint32_t counts[3][max_bins];

  explicit Binning(std::uint32_t count) : bin_count(count) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < count; ++i) {
        bounds[axis][i] = Aabb::empty();
        counts[axis][i] = 0;
      }
  }

  void add(const Binning& other) {
    for (int axis = 0; axis < 3; ++axis)
      for (std::uint32_t i = 0; i < bin_count; ++i) {
        bounds[axis][i].extend(other.bounds[axis][i]);
        counts[axis][i] += other.counts[axis][i];
      }
  }
};

// Maps a centroid coordinate to its bin along one axis. Computed in double so that tiny
// (even subnormal) centroid extents still give finite scales.
struct BinMapping {
  Vec3 origin;
  glm::dvec3 scale;  // 0 on axes where all centroids coincide
  std::uint32_t bin_count;

  BinMapping(const Aabb& centroids, std::uint32_t count) : origin(centroids.min), bin_count(count) {
    for (int axis = 0; axis < 3; ++axis) {
      const double extent = double(centroids.max[axis]) - double(centroids.min[axis]);
      scale[axis] = extent > 0 ? double(count) / extent : 0.0;
    }
  }

  [[nodiscard]] bool all_coincide() const { return scale == glm::dvec3(0.0); }

  [[nodiscard]] std::uint32_t bin(const Vec3& centroid, int axis) const {
    const double position = (double(centroid[axis]) - double(origin[axis])) * scale[axis];
    const auto index = static_cast<std::uint32_t>(std::max(position, 0.0));
    return std::min(index, bin_count - 1);
  }
};

struct Split {
  int axis = -1;
  std::uint32_t last_left_bin = 0;                      // left child: bins [0, last_left_bin]
  float cost = std::numeric_limits<float>::infinity();  // sum of area * count of both sides
};

class Builder {
 public:
  Builder(const TriangleSoup& soup, const BuildOptions& options)
      : options_(options), references_(soup.size()), slots_(2 * soup.size() - 1) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, soup.size(), 4096), [&](const auto& r) {
      for (std::size_t id = r.begin(); id != r.end(); ++id) {
        const Aabb bounds = soup.triangle(id).bounds();
        references_[id] = {bounds, bounds.center(), static_cast<TriangleId>(id)};
      }
    });
  }

  // Builds the subtree over references [begin, end) with its root in slot `slot`.
  void build_node(std::size_t begin, std::size_t end, std::size_t slot, int depth) {
    const RangeBounds range = bounds_of(begin, end);
    const std::size_t count = end - begin;
    const std::size_t middle = choose_split(begin, end, range, depth);
    BvhNode& node = slots_[slot];
    node.bounds = range.bounds;
    if (middle == end) {
      node.first = static_cast<std::uint32_t>(begin);
      node.count = static_cast<std::uint32_t>(count);
      return;
    }
    const std::size_t right_slot = slot + 2 * (middle - begin);
    node.first = static_cast<std::uint32_t>(right_slot);
    node.count = 0;
    const auto left = [&] { build_node(begin, middle, slot + 1, depth + 1); };
    const auto right = [&] { build_node(middle, end, right_slot, depth + 1); };
    if (count >= parallel_subtree_threshold) {
      tbb::parallel_invoke(left, right);
    } else {
      left();
      right();
    }
  }

  // Copies the reachable slots into depth-first order.
  std::vector<BvhNode> compact() const {
    std::vector<BvhNode> nodes;
    nodes.reserve(slots_.size());
    append_subtree(0, nodes);
    return nodes;
  }

  const std::vector<Reference>& references() const { return references_; }

 private:
  void append_subtree(std::size_t slot, std::vector<BvhNode>& nodes) const {
    const std::size_t index = nodes.size();
    nodes.push_back(slots_[slot]);
    if (slots_[slot].is_leaf()) return;
    append_subtree(slot + 1, nodes);
    nodes[index].first = static_cast<std::uint32_t>(nodes.size());
    append_subtree(slots_[slot].first, nodes);
  }

  RangeBounds bounds_of(std::size_t begin, std::size_t end) const {
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

  void bin_into(std::size_t begin, std::size_t end, const BinMapping& mapping,
                Binning& into) const {
    for (std::size_t i = begin; i != end; ++i)
      for (int axis = 0; axis < 3; ++axis) {
        const std::uint32_t index = mapping.bin(references_[i].centroid, axis);
        into.bounds[axis][index].extend(references_[i].bounds);
        ++into.counts[axis][index];
      }
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

  // The lowest-cost split over all axes; axis -1 when every centroid falls in one bin.
  static Split best_split(const Binning& binning, const BinMapping& mapping) {
    Split best;
    const std::uint32_t n = mapping.bin_count;
    std::array<float, max_bins> right_cost{};
    std::array<std::uint32_t, max_bins> right_count{};
    for (int axis = 0; axis < 3; ++axis) {
      if (mapping.scale[axis] == 0) continue;
      Aabb right = Aabb::empty();
      std::uint32_t count = 0;
      for (std::uint32_t i = n - 1; i > 0; --i) {
        right.extend(binning.bounds[axis][i]);
        count += binning.counts[axis][i];
        right_count[i] = count;
        right_cost[i] = half_area(right) * static_cast<float>(count);
      }
      Aabb left = Aabb::empty();
      std::uint32_t left_count = 0;
      for (std::uint32_t i = 0; i + 1 < n; ++i) {
        left.extend(binning.bounds[axis][i]);
        left_count += binning.counts[axis][i];
        if (left_count == 0 || right_count[i + 1] == 0) continue;
        const float cost = half_area(left) * static_cast<float>(left_count) + right_cost[i + 1];
        if (cost < best.cost) best = {axis, i, cost};
      }
    }
    return best;
  }

  // Returns where the range splits, or `end` for a leaf; reorders references accordingly.
  std::size_t choose_split(std::size_t begin, std::size_t end, const RangeBounds& range,
                           int depth) {
    const std::size_t count = end - begin;
    if (count == 1) return end;
    const bool must_split = count > options_.max_leaf_size;
    // Small ranges need no more bins than references.
    const auto bins = static_cast<std::uint32_t>(
        std::min<std::size_t>(options_.bin_count, std::max<std::size_t>(count, 4)));
    const BinMapping mapping(range.centroids, bins);
    Split split;
    if (!mapping.all_coincide() && depth < sah_depth_limit) {
      Binning binning(mapping.bin_count);
      bin(begin, end, mapping, binning);
      split = best_split(binning, mapping);
    }
    if (split.axis < 0) return must_split ? median_split(begin, end, range.centroids) : end;
    const float leaf_cost = options_.intersection_cost * static_cast<float>(count);
    const float split_cost =
        options_.traversal_cost + options_.intersection_cost * split.cost / half_area(range.bounds);
    if (!must_split && leaf_cost <= split_cost) return end;
    const auto middle = std::partition(
        references_.begin() + static_cast<std::ptrdiff_t>(begin),
        references_.begin() + static_cast<std::ptrdiff_t>(end), [&](const Reference& r) {
          return mapping.bin(r.centroid, split.axis) <= split.last_left_bin;
        });
    return static_cast<std::size_t>(middle - references_.begin());
  }

  // Object median along the widest centroid axis, ties broken by id for determinism.
  std::size_t median_split(std::size_t begin, std::size_t end, const Aabb& centroids) {
    const Vec3 extent = centroids.max - centroids.min;
    const int axis =
        extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    const std::size_t middle = begin + (end - begin) / 2;
    const auto at = [&](std::size_t i) {
      return references_.begin() + static_cast<std::ptrdiff_t>(i);
    };
    std::nth_element(at(begin), at(middle), at(end),
                     [axis](const Reference& a, const Reference& b) {
                       return a.centroid[axis] < b.centroid[axis] ||
                              (a.centroid[axis] == b.centroid[axis] && a.id < b.id);
                     });
    return middle;
  }

  const BuildOptions& options_;
  std::vector<Reference> references_;
  std::vector<BvhNode> slots_;
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
  Builder builder(soup, options);
  builder.build_node(0, soup.size(), 0, 0);
  Bvh bvh;
  bvh.nodes = builder.compact();
  const auto& references = builder.references();
  bvh.triangles.resize(soup.size());
  bvh.ids.resize(soup.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, soup.size(), 4096), [&](const auto& r) {
    for (std::size_t slot = r.begin(); slot != r.end(); ++slot) {
      const TriangleId id = references[slot].id;
      bvh.ids[slot] = id;
      bvh.triangles[slot] = soup.triangle(id);
    }
  });
  return bvh;
}

}  // namespace

Bvh build(const TriangleSoup& soup, const BuildOptions& options) {
  check(options);
  validate(soup);
  if (soup.empty()) return {};
  const int threads = options.threads == 0 ? tbb::this_task_arena::max_concurrency()
                                           : static_cast<int>(options.threads);
  tbb::task_arena arena(threads);
  return arena.execute([&] { return build_in_arena(soup, options); });
}

}  // namespace trisect
