// Morton order of a soup's triangles (morton_order.hpp): centres in one pass that also checks
// the triangles, codes from the centres, then three parallel counting-sort passes of 10 bits.
#include "morton_order.hpp"

#include "box4.hpp"
#include "mesh/checked_soup.hpp"
#include "trisect/math/float4.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <utility>
#include <vector>

namespace trisect::detail {
namespace {

// Keys per chunk of a parallel radix-sort pass (at most 64 chunks).
constexpr std::size_t radix_chunk_size = std::size_t(1) << 16;
// Bits per axis of a Morton code: 3 x 10 = 30 bits.
constexpr int bits_per_axis = 10;
// Code bits per radix-sort pass: three passes over the 30 bits, 1024 buckets each.
constexpr int radix_bits = 10;

// The 10 low bits of `v` spread to every third bit (bit i to bit 3i).
constexpr std::uint32_t spread_bits(std::uint32_t v) noexcept {
  v &= 0x3FFu;
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

// `spread_bits` of every 10-bit cell number, looked up rather than computed: the spreading was
// half of a code's instructions.
constexpr auto spread_cells = [] {
  std::array<std::uint32_t, 1 << bits_per_axis> table{};
  for (std::uint32_t v = 0; v < table.size(); ++v) table[v] = spread_bits(v);
  return table;
}();

// The centre of triangle `id`'s box, halved before adding so that no coordinate overflows (in
// lanes x, y and z), and true; false when `validate(soup)` rejects the triangle. The checks of
// `read_checked` and the arithmetic of `Triangle::bounds`, an axis per lane: the bits of
// 0.5 min + 0.5 max are the scalar ones.
bool checked_centre(const TriangleSoup& soup, std::size_t id, Float4& centre) noexcept {
  const std::array<std::size_t, 3> slots = vertex_slots(soup, id);
  if (std::max({slots[0], slots[1], slots[2]}) >= soup.positions.size()) return false;
  const Float4 a = Float4::load_vec3(soup.positions[slots[0]]);
  const Float4 b = Float4::load_vec3(soup.positions[slots[1]]);
  const Float4 c = Float4::load_vec3(soup.positions[slots[2]]);
  // x - x is 0 for a finite x and NaN for an infinite or NaN one; a sum with a NaN stays NaN.
  const Float4 probe = (a - a) + (b - b) + (c - c);
  if (equal_mask(probe, Float4::splat(0.0f)) != 0xFu) return false;
  // As min3 and max3: (a < b ? a : b) < c ? ... : c, lane by lane.
  const Float4 low = min_ignoring_nan(min_ignoring_nan(a, b), c);
  const Float4 high = max_ignoring_nan(max_ignoring_nan(a, b), c);
  const Float4 half = Float4::splat(0.5f);
  centre = half * low + half * high;
  return true;
}

// Maps centres inside `bounds` to 10-bit cells per axis and interleaves them.
class MortonCoder {
 public:
  explicit MortonCoder(const Aabb& bounds) {
    for (int axis = 0; axis < 3; ++axis) {
      low_[axis] = double(bounds.min[axis]);
      const double extent = double(bounds.max[axis]) - low_[axis];
      scale_[axis] = extent > 0 ? double(1 << bits_per_axis) / extent : 0.0;
    }
  }

  [[nodiscard]] std::uint32_t code(const Vec3& point) const noexcept {
    const double coordinates[3] = {point.x, point.y, point.z};
    std::uint32_t code = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const double cell = (coordinates[axis] - low_[axis]) * scale_[axis];
      const double clamped = std::clamp(cell, 0.0, double((1 << bits_per_axis) - 1));
      code |= spread_cells[static_cast<std::uint32_t>(clamped)] << (2 - axis);
    }
    return code;
  }

 private:
  double low_[3] = {0, 0, 0};
  double scale_[3] = {0, 0, 0};
};

template <class Body>
void for_each_index(std::size_t size, const Body& body) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) body(i);
  });
}

// The bounds of the triangles' centres, in the pass that validates the triangles
// (`read_checked`) and writes each triangle's centre to `centres[id]` (so that the codes are
// made without reading the soup again); throws as `validate(soup)` does when a triangle is
// invalid.
Aabb centre_bounds(const TriangleSoup& soup, Vec3* centres) {
  std::atomic<bool> invalid = false;
  const Box4 bounds = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, soup.size(), 8192), Box4::empty(),
      [&](const tbb::blocked_range<std::size_t>& r, Box4 into) {
        Float4 centre;
        for (std::size_t id = r.begin(); id != r.end(); ++id) {
          if (!checked_centre(soup, id, centre)) {
            invalid.store(true, std::memory_order_relaxed);
            break;
          }
          centre.store_vec3(centres[id]);
          into.extend(centre);
        }
        return into;
      },
      [](Box4 a, const Box4& b) {
        a.extend(b);
        return a;
      });
  if (invalid.load()) validate(soup);  // throws, naming the first invalid triangle
  return bounds.to_aabb();
}

// One stable counting-sort pass of `size` keys by bits [shift, shift + radix_bits), in
// parallel: fixed chunks count their keys per bucket, each chunk writes a bucket's keys after
// those of the chunks before it, so the result is the serial pass's for any thread count.
void radix_pass(const std::uint64_t* from, std::uint64_t* to, std::size_t size, int shift) {
  constexpr std::size_t buckets = std::size_t(1) << radix_bits;
  const std::size_t chunks = std::clamp<std::size_t>(size / radix_chunk_size, 1, 64);
  const std::size_t chunk_size = (size + chunks - 1) / chunks;
  const auto bucket = [&](std::size_t i) { return (from[i] >> shift) & (buckets - 1); };
  std::vector<std::size_t> position(chunks * buckets, 0);  // [chunk][bucket]
  const auto for_each_chunk = [&](const auto& body) {
    tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t chunk) {
      body(position.data() + chunk * buckets, chunk * chunk_size,
           std::min(size, (chunk + 1) * chunk_size));
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

}  // namespace

// The keys start in id order, so a stable sort by the code alone orders them by (code, id).
std::unique_ptr<std::uint64_t[]> morton_sorted_keys(const TriangleSoup& soup) {
  const std::size_t size = soup.size();
  auto centres = fresh_array<Vec3>(size);
  const MortonCoder coder(centre_bounds(soup, centres.get()));
  auto keys = fresh_array<std::uint64_t>(size);
  for_each_index(
      size, [&](std::size_t id) { keys[id] = std::uint64_t(coder.code(centres[id])) << 32 | id; });
  centres.reset();
  auto scratch = fresh_array<std::uint64_t>(size);
  std::uint64_t* from = keys.get();
  std::uint64_t* to = scratch.get();
  for (int shift = 32; shift < 32 + 3 * bits_per_axis; shift += radix_bits) {
    radix_pass(from, to, size, shift);
    std::swap(from, to);
  }
  return from == keys.get() ? std::move(keys) : std::move(scratch);
}

}  // namespace trisect::detail
