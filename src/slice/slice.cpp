#include "trisect/slice/slice.hpp"

#include "mesh/checked_soup.hpp"
#include "section.hpp"
#include "trisect/bvh/collect.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <glm/geometric.hpp>
#include "trisect/detail/thread_fallback.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

namespace trisect {
namespace {

// Where values fall among the sorted distinct offsets. Planes are usually evenly spaced, so a
// guess from linear interpolation is refined by a few steps; binary search otherwise.
class PlaneLocator {
 public:
  explicit PlaneLocator(std::span<const float> sorted) : planes_(sorted) {
    if (sorted.size() > 1)
      scale_ = double(sorted.size() - 1) / (double(sorted.back()) - double(sorted.front()));
  }

  // The index of the first plane with offset > value (planes_.size() when none).
  [[nodiscard]] std::size_t first_above(double value) const {
    const std::size_t count = planes_.size();
    const double guess = (value - double(planes_.front())) * scale_;
    std::size_t i = guess <= 0 ? 0 : guess >= double(count) ? count : std::size_t(guess);
    for (int step = 0; step < 4; ++step) {
      if (i > 0 && double(planes_[i - 1]) > value) {
        --i;
      } else if (i < count && double(planes_[i]) <= value) {
        ++i;
      } else {
        return i;
      }
    }
    return std::size_t(std::upper_bound(planes_.begin(), planes_.end(), value,
                                        [](double v, float plane) { return v < double(plane); }) -
                       planes_.begin());
  }

  // The same, knowing that no plane before `from` has offset > value.
  [[nodiscard]] std::size_t first_above(double value, std::size_t from) const {
    while (from < planes_.size() && double(planes_[from]) <= value) ++from;
    return from;
  }

 private:
  std::span<const float> planes_;
  double scale_ = 0;
};

// The range of planes [first, last) a triangle may contribute to.
struct PlaneRange {
  std::uint32_t first;
  std::uint32_t last;
};

// Computes each vertex slot's `VertexPlanes` entry once (a vertex is shared by about six
// triangles, and a slot is 4 bytes where a position is 12). Along an axis n·v is one product
// of floats, exact in double, so low = high: the planes with offsets > n·v. Otherwise the
// products are exact and the two sums err by at most 2u times the sum of the terms'
// magnitudes; widening by twice 3u times that sum brackets the exact n·v.
class VertexLocator {
 public:
  VertexLocator(const Vec3& normal, std::span<const float> planes)
      : locator_(planes),
        normal_(normal),
        abs_normal_(glm::abs(normal_)),
        axis_(detail::single_axis(normal)) {}

  // The entries of slots [begin, end) of `positions`.
  void locate(std::span<const Vec3> positions, std::size_t begin, std::size_t end,
              std::uint32_t* low, std::uint32_t* high) const {
    for (std::size_t i = begin; i < end; ++i) {
      const Vec3& v = positions[i];
      if (!is_finite(v)) {
        low[i] = high[i] = detail::VertexPlanes::non_finite;
      } else if (axis_ >= 0) {
        low[i] = high[i] = std::uint32_t(locator_.first_above(normal_[axis_] * double(v[axis_])));
      } else {
        const glm::dvec3 p(v);
        const double h = normal_.x * p.x + normal_.y * p.y + normal_.z * p.z;
        const double widen = 6 * exact::unit_roundoff * glm::dot(abs_normal_, glm::abs(p));
        low[i] = std::uint32_t(locator_.first_above(h - widen));
        high[i] = std::uint32_t(locator_.first_above(h + widen, low[i]));
      }
    }
  }

 private:
  PlaneLocator locator_;
  glm::dvec3 normal_, abs_normal_;
  int axis_;
};

// Every vertex slot's planes, in parallel blocks (each entry depends on its slot alone).
// Along an axis `high` is `low` (one array is filled, and both views show it).
struct LocatedVertices {
  std::vector<std::uint32_t> low, high;

  [[nodiscard]] detail::VertexPlanes view() const {
    return {low, high.empty() ? std::span<const std::uint32_t>(low) : high};
  }
};

LocatedVertices locate_vertices(const TriangleSoup& soup, const Vec3& normal,
                                std::span<const float> planes) {
  const VertexLocator locator(normal, planes);
  const std::size_t slots = soup.positions.size();
  LocatedVertices located;
  located.low.resize(slots);
  if (detail::single_axis(normal) < 0) located.high.resize(slots);
  std::uint32_t* low = located.low.data();
  std::uint32_t* high = located.high.empty() ? low : located.high.data();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, slots, 8192), [&](const auto& block) {
    locator.locate(soup.positions, block.begin(), block.end(), low, high);
  });
  return located;
}

// Triangle t's planes from its vertex slots; false for a triangle that `validate(soup)`
// rejects (an index out of range, a non-finite vertex).
bool range_of(const TriangleSoup& soup, const detail::VertexPlanes& vertices, std::size_t t,
              PlaneRange& range) {
  range = {0, 0};
  const std::array<std::size_t, 3> slots = detail::vertex_slots(soup, t);
  const std::size_t count = soup.positions.size();
  if (slots[0] >= count || slots[1] >= count || slots[2] >= count) return false;
  const std::uint32_t last =
      std::max({vertices.high[slots[0]], vertices.high[slots[1]], vertices.high[slots[2]]});
  if (last == detail::VertexPlanes::non_finite) return false;
  range = {std::min({vertices.low[slots[0]], vertices.low[slots[1]], vertices.low[slots[2]]}),
           last};
  return true;
}

// Triangle ids per plane, ascending: buckets[offsets[i] .. offsets[i + 1]) for plane i. One
// pass over the triangles in parallel chunks; each chunk writes its own ascending run of every
// bucket, so the buckets do not depend on the thread count.
struct Buckets {
  std::vector<std::size_t> offsets;
  std::vector<TriangleId> ids;

  [[nodiscard]] std::span<const TriangleId> of(std::size_t plane) const {
    return {ids.data() + offsets[plane], offsets[plane + 1] - offsets[plane]};
  }
};

// Chunks: enough for two threads to balance, few enough that per-chunk counts stay small.
std::size_t chunk_count_for(std::size_t triangles, std::size_t planes) {
  return std::clamp<std::size_t>(std::min(triangles / 4096, (std::size_t(1) << 24) / (planes + 1)),
                                 1, 64);
}

// Turns counts[chunk][plane] into each chunk's write position in its bucket; sets offsets.
void count_to_positions(std::vector<std::size_t>& counts, std::size_t chunk_count,
                        Buckets& buckets) {
  const std::size_t plane_count = counts.size() / chunk_count;
  buckets.offsets.assign(plane_count + 1, 0);
  std::size_t total = 0;
  for (std::size_t p = 0; p < plane_count; ++p) {
    buckets.offsets[p] = total;
    for (std::size_t chunk = 0; chunk < chunk_count; ++chunk) {
      const std::size_t count = counts[chunk * plane_count + p];
      counts[chunk * plane_count + p] = total;
      total += count;
    }
  }
  buckets.offsets[plane_count] = total;
}

// Throws `InvalidInput` as `validate(soup)` does when a triangle is invalid. The triangles
// are read in order, but the vertex planes of an indexed soup are not: asked for ahead.
constexpr std::size_t prefetch_distance = 16;

Buckets bucket_triangles(const TriangleSoup& soup, const detail::VertexPlanes& vertices,
                         std::size_t plane_count) {
  const std::size_t triangles = soup.size();
  const auto ranges = std::make_unique_for_overwrite<PlaneRange[]>(triangles);
  const std::size_t chunk_count = chunk_count_for(triangles, plane_count);
  const std::size_t chunk_size = (triangles + chunk_count - 1) / chunk_count;
  std::vector<std::size_t> counts(chunk_count * plane_count, 0);  // [chunk][plane]
  std::vector<std::uint8_t> invalid(chunk_count, 0);
  tbb::parallel_for(std::size_t(0), chunk_count, [&](std::size_t chunk) {
    std::size_t* count = counts.data() + chunk * plane_count;
    const std::size_t end = std::min(triangles, (chunk + 1) * chunk_size);
    for (std::size_t t = chunk * chunk_size; t < end; ++t) {
      if (t + prefetch_distance < end) {
        detail::prefetch_slots(soup, t + prefetch_distance, vertices.low.data());
        if (vertices.high.data() != vertices.low.data())
          detail::prefetch_slots(soup, t + prefetch_distance, vertices.high.data());
      }
      if (!range_of(soup, vertices, t, ranges[t])) invalid[chunk] = 1;
      for (std::uint32_t p = ranges[t].first; p < ranges[t].last; ++p) ++count[p];
    }
  });
  if (std::ranges::find(invalid, 1) != invalid.end()) validate(soup);  // throws, naming it
  Buckets buckets;
  count_to_positions(counts, chunk_count, buckets);
  buckets.ids.resize(buckets.offsets.back());
  tbb::parallel_for(std::size_t(0), chunk_count, [&](std::size_t chunk) {
    std::size_t* position = counts.data() + chunk * plane_count;
    const std::size_t end = std::min(triangles, (chunk + 1) * chunk_size);
    for (std::size_t t = chunk * chunk_size; t < end; ++t)
      for (std::uint32_t p = ranges[t].first; p < ranges[t].last; ++p)
        buckets.ids[position[p]++] = TriangleId(t);
  });
  return buckets;
}

// Checks the normal, the offsets and the BVH; when one is invalid, a problem of the soup's
// is reported instead (as `validate(soup)` first would).
void validate_arguments(const TriangleSoup& soup, const Vec3& normal,
                        std::span<const float> offsets, const SliceOptions& options) {
  const auto reject = [&](const std::string& message) {
    validate(soup);
    throw InvalidInput(message);
  };
  if (!is_finite(normal)) reject("slice: the normal is not finite");
  if (normal == Vec3(0.0f)) reject("slice: the normal is zero");
  for (std::size_t i = 0; i < offsets.size(); ++i)
    if (!std::isfinite(offsets[i])) reject("slice: offset " + std::to_string(i) + " is not finite");
  if (options.bvh != nullptr && options.bvh->size() != soup.size())
    reject("slice: the BVH holds " + std::to_string(options.bvh->size()) + " triangles, the soup " +
           std::to_string(soup.size()));
}

bool uses_bvh(const SliceOptions& options, std::size_t plane_count) {
  return options.bvh != nullptr && plane_count <= options.bvh_plane_limit;
}

std::vector<Section> slice_distinct(const TriangleSoup& soup, const Vec3& normal,
                                    std::span<const float> planes, const SliceOptions& options,
                                    SliceStats& stats) {
  if (planes.empty()) return {};
  const bool use_bvh = uses_bvh(options, planes.size());
  stats.path = use_bvh ? SlicePath::bvh : SlicePath::sweep;
  Buckets buckets;
  LocatedVertices located;
  if (!use_bvh) {
    located = locate_vertices(soup, normal, planes);
    buckets = bucket_triangles(soup, located.view(), planes.size());
  }
  const detail::VertexPlanes vertices = located.view();
  std::vector<Section> sections(planes.size());
  tbb::enumerable_thread_specific<detail::SectionScratch> scratch;
  tbb::enumerable_thread_specific<SliceStats> counters;
  tbb::parallel_for(std::size_t(0), planes.size(), [&](std::size_t p) {
    std::vector<TriangleId> found;
    if (use_bvh) found = collect_touching(*options.bvh, Plane{normal, planes[p]});
    const std::span<const TriangleId> candidates = use_bvh ? found : buckets.of(p);
    sections[p] =
        detail::cut_section(soup, normal, planes[p], candidates, scratch.local(), counters.local(),
                            use_bvh ? nullptr : &vertices, std::uint32_t(p));
  });
  for (const SliceStats& local : counters) {
    stats.candidates += local.candidates;
    stats.segments += local.segments;
    stats.contours += local.contours;
  }
  return sections;
}

}  // namespace

std::vector<Section> slice(const TriangleSoup& soup, const Vec3& normal,
                           std::span<const float> offsets, const SliceOptions& options,
                           SliceStats* stats) {
  validate_arguments(soup, normal, offsets, options);
  std::vector<float> planes(offsets.begin(), offsets.end());
  for (float& plane : planes) plane += 0.0f;  // -0 is 0: one plane
  std::sort(planes.begin(), planes.end());
  planes.erase(std::unique(planes.begin(), planes.end()), planes.end());
  // The sweep checks the triangles in its pass (`bucket_triangles`), once it knows the shape.
  const bool sweep = !planes.empty() && !uses_bvh(options, planes.size());
  if (!sweep || !detail::soup_shape_is_valid(soup)) validate(soup);

  SliceStats local;
  std::vector<Section> distinct;
  validate_thread_count(options.threads, "slice");
  // More workers than TBB runs at once would only make TBB warn on stderr.
  distinct = detail::with_thread_fallback(options.threads, [&] {
    local = {};
    return slice_distinct(soup, normal, planes, options, local);
  });
  // Each offset's section, moved out of `distinct` at its last use and copied before.
  std::vector<std::size_t> plane_of(offsets.size()), remaining_uses(planes.size(), 0);
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const auto at = std::lower_bound(planes.begin(), planes.end(), offsets[i] + 0.0f);
    plane_of[i] = std::size_t(at - planes.begin());
    ++remaining_uses[plane_of[i]];
  }
  std::vector<Section> sections;
  sections.reserve(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    Section& section = distinct[plane_of[i]];
    if (--remaining_uses[plane_of[i]] == 0) {
      sections.push_back(std::move(section));
    } else {
      sections.push_back(section);
    }
    sections.back().d = offsets[i];
  }
  if (stats != nullptr) {
    stats->path = local.path;
    stats->candidates += local.candidates;
    stats->segments += local.segments;
    stats->contours += local.contours;
  }
  return sections;
}

Section slice(const TriangleSoup& soup, const Plane& plane, const SliceOptions& options,
              SliceStats* stats) {
  const float offset[1] = {plane.d};
  return std::move(slice(soup, plane.normal, offset, options, stats).front());
}

Extent extent_along(const TriangleSoup& soup, const Vec3& normal) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  const glm::dvec3 n(normal);
  for (std::size_t t = 0; t < soup.size(); ++t) {
    const Triangle triangle = soup.triangle(t);
    for (const Vec3& v : {triangle.a, triangle.b, triangle.c}) {
      const double h = glm::dot(n, glm::dvec3(v));
      low = std::min(low, h);
      high = std::max(high, h);
    }
  }
  if (soup.empty()) return {};
  return {low, high};
}

namespace {

// An offset computed in double, rounded to float; beyond the float range, ±FLT_MAX.
float offset_to_float(double offset) {
  const double largest = std::numeric_limits<float>::max();
  return float(std::clamp(offset, -largest, largest));
}

}  // namespace

std::vector<float> layer_offsets(const Extent& extent, std::size_t layers) {
  std::vector<float> offsets(layers);
  const double low = extent.low, size = extent.high - low;
  for (std::size_t i = 0; i < layers; ++i)
    offsets[i] = offset_to_float(low + (double(i) + 0.5) * size / double(layers));
  return offsets;
}

std::vector<float> step_offsets(const Extent& extent, float step, std::size_t max_offsets) {
  if (!(std::isfinite(step) && step > 0))
    throw InvalidInput("slice: the step must be finite and positive");
  const double low = extent.low, high = extent.high;
  const double count = std::max(1.0, std::ceil((high - low) / double(step) - 0.5));
  if (count > double(max_offsets))
    throw InvalidInput("slice: the step gives more than " + std::to_string(max_offsets) +
                       " planes");
  // A step as long as the extent or longer: one plane, at the extent's centre, inside it.
  if (low + 0.5 * double(step) >= high) return {offset_to_float(low + 0.5 * (high - low))};
  std::vector<float> offsets;
  for (std::size_t i = 0; i < std::size_t(count); ++i) {
    const double offset = low + (double(i) + 0.5) * double(step);
    if (offset >= high) break;
    offsets.push_back(offset_to_float(offset));
  }
  return offsets;
}

}  // namespace trisect
