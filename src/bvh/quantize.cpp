#include "quantize.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace trisect::detail {
namespace {

// Grid steps are normal floats, so that a step's bit pattern is its biased exponent alone.
constexpr int lowest_exponent = -126;
constexpr int highest_exponent = 127;
constexpr int largest_face = 255;

// 2^exponent for a normal exponent, built from its bits as `WideNode::step` decodes it
// (std::ldexp is a library call, and the builder asks for millions of steps).
float power_of_two(int exponent) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(exponent + 127) << 23);
}

// Face value q on a grid, rounded once: what a fused multiply-add gives, and also what a
// multiplication then an addition give whenever q * step is a float (see `Grid::product_fits`).
//
// Evaluated in double, which gives the fused multiply-add's float without a call to fmaf (there
// is no fused instruction at the baseline instruction set): q * step is exact (8 bits times a
// power of two), and the double sum is exact when the operands' bits span at most 53 places.
// When they span more, the smaller one is below 2^-21 of the larger, and rounding the sum to
// double moves it by less than 2^-53 of itself: a float rounding midpoint that close to it
// would need the sum to span at most 50 places, which it does not, so both round alike
// (tests/bvh/quantize_test.cpp compares the two over random and extreme operands).
float decoded(int q, float step, float origin) {
  return static_cast<float>(double(origin) + double(q) * double(step));
}

// The smallest exponent whose grid from `low` reaches `high` in 255 steps, once decoded.
// 2^127 always does: 255 * 2^127 + low rounds to +inf for any finite low.
int grid_exponent(float low, float high) {
  int exponent = lowest_exponent;
  const double extent = double(high) - double(low);
  if (extent > 0) {
    // extent / 255 < 2^above (the exponent std::frexp gives, read from the bits of a normal
    // double without a library call; a multiplication by the rounded 1 / 255 where a division
    // would wait); start two below, in case either rounded.
    const auto bits = std::bit_cast<std::uint64_t>(extent * (1.0 / largest_face));
    const int above = static_cast<int>((bits >> 52) & 0x7ff) - 1022;
    exponent = std::clamp(above - 2, lowest_exponent, highest_exponent);
  }
  while (exponent < highest_exponent && decoded(largest_face, power_of_two(exponent), low) < high)
    ++exponent;
  return exponent;
}

// One axis's grid: its origin (the lowest face) and step, and whether every face's product
// q * step is a float (always below 2^120, the step of a span beyond about 1.3e36).
struct Grid {
  float origin, step;
  bool products_fit;

  static Grid of(float low, int exponent) { return {low, power_of_two(exponent), exponent < 120}; }
  [[nodiscard]] float decoded(int q) const { return trisect::detail::decoded(q, step, origin); }
  // True when face q's product is a float, so that every evaluation of the decode gives `decoded`.
  [[nodiscard]] bool product_fits(int q) const {
    return double(q) * double(step) <= double(std::numeric_limits<float>::max());
  }
  // `value` - origin in steps, clamped to 0..255 and rounded down. The step is a power of two,
  // so multiplying by its inverse is the exact division; after the clamp a conversion
  // truncates as std::floor would, without a library call.
  [[nodiscard]] int steps_below(float value) const {
    return static_cast<int>(std::clamp((double(value) - double(origin)) * (1.0 / double(step)), 0.0,
                                       double(largest_face)));
  }
};

// The largest face whose decoded value is <= `value` (origin <= value) and whose product fits,
// so that no evaluation of the decode can overflow on a lower face. Face 0 always qualifies.
int lower_face(float value, const Grid& grid) {
  const auto holds = [&](int q) { return grid.product_fits(q) && grid.decoded(q) <= value; };
  int q = grid.steps_below(value);
  while (q < largest_face && holds(q + 1)) ++q;
  while (q > 0 && !holds(q)) --q;
  return q;
}

// The smallest face whose decoded value is >= `value`; one exists, as the grid's 255th point
// reaches the highest face. Where its product does not fit (a span beyond 3.4e38), a
// multiplication then an addition decode it to +inf, which is higher still.
int upper_face(float value, const Grid& grid) {
  int q = grid.steps_below(value);
  while (q > 0 && grid.decoded(q - 1) >= value) --q;
  while (q < largest_face && grid.decoded(q) < value) ++q;
  return q;
}

// The upper face (`upper`) or the lower face of `value` on `grid`, by the scalar search.
int face_of(float value, const Grid& grid, bool upper) {
  return upper ? upper_face(value, grid) : lower_face(value, grid);
}

#if defined(__SSE2__)
// `face_of` on a grid whose products fit, four lanes at a time: a face then decodes as a
// multiplication and an addition in float (the product is exact, so the sum is rounded once, as
// `decoded` rounds it). Each lane's float estimate q is checked on the faces around it: the
// answer is q or q + 1 when the decodes bracket the value there (the decode is monotone), and
// a lane whose answer lies outside that window (an estimate off by more than its rounding) is
// answered by the scalar search. Returns the lanes so settled (bit i for lane i). The values
// come in a register: stored as four floats and loaded as one vector, they would wait for the
// stores (a failed store-to-load forwarding).
unsigned four_faces(__m128 v, const Grid& grid, bool upper, std::uint8_t* faces) {
  const __m128 origin = _mm_set1_ps(grid.origin), step = _mm_set1_ps(grid.step);
  const __m128 one = _mm_set1_ps(1.0f);
  // Lower faces look at q, q + 1 and q + 2 (q <= 253); upper ones at q - 1, q and q + 1.
  const __m128 estimate = _mm_mul_ps(_mm_sub_ps(v, origin), _mm_set1_ps(1.0f / grid.step));
  const __m128 clamped = _mm_min_ps(_mm_max_ps(estimate, _mm_set1_ps(upper ? 1.0f : 0.0f)),
                                    _mm_set1_ps(upper ? 254.0f : 253.0f));
  const __m128i q = _mm_cvttps_epi32(clamped);
  const __m128 first = _mm_cvtepi32_ps(q);
  const __m128 below = upper ? _mm_sub_ps(first, one) : first;
  const __m128 d0 = _mm_add_ps(origin, _mm_mul_ps(below, step));
  const __m128 d1 = _mm_add_ps(origin, _mm_mul_ps(_mm_add_ps(below, one), step));
  const __m128 d2 = _mm_add_ps(origin, _mm_mul_ps(_mm_add_ps(below, _mm_add_ps(one, one)), step));
  // Lower: d <= v holds at the first point and not at the last. Upper: d < v at the first
  // point, not at the last.
  const __m128 in0 = upper ? _mm_cmplt_ps(d0, v) : _mm_cmple_ps(d0, v);
  const __m128 in1 = upper ? _mm_cmplt_ps(d1, v) : _mm_cmple_ps(d1, v);
  const __m128 in2 = upper ? _mm_cmplt_ps(d2, v) : _mm_cmple_ps(d2, v);
  // The answer: q + 1 where the middle point holds (lower) or is still below (upper), else q.
  const __m128i face = _mm_sub_epi32(q, _mm_castps_si128(in1));
  const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(face, face), _mm_setzero_si128());
  const auto packed = static_cast<std::uint32_t>(_mm_cvtsi128_si32(bytes));
  std::memcpy(faces, &packed, sizeof packed);
  return static_cast<unsigned>(_mm_movemask_ps(_mm_andnot_ps(in2, in0)));
}
#endif

// The children's faces of one axis: their minima (lower faces) or maxima (upper ones).
struct FaceRow {
  const Aabb* boxes;  // eight
  int count, axis;
  bool upper;

  [[nodiscard]] float value(int lane) const {
    return upper ? boxes[lane].max[axis] : boxes[lane].min[axis];
  }
};

#if defined(__SSE2__)
// The eight boxes' six faces as rows of lanes: row 2 * axis + 1 the maxima on `axis`, row
// 2 * axis its minima, lanes 0 to 3 in `lanes[row][0]`, 4 to 7 in `lanes[row][1]`. Made by
// transposing the boxes four at a time (a box is six floats: two loads of four cover it).
struct FaceLanes {
  __m128 lanes[6][2];

  static FaceLanes of(const Aabb* boxes) {
    static_assert(sizeof(Aabb) == 6 * sizeof(float));
    FaceLanes rows;
    for (int half = 0; half < 2; ++half) {
      const float* box[4];
      for (int i = 0; i < 4; ++i) box[i] = &boxes[4 * half + i].min.x;
      // min x, min y, min z, max x; then min z, max x, max y, max z.
      __m128 a0 = _mm_loadu_ps(box[0]), a1 = _mm_loadu_ps(box[1]), a2 = _mm_loadu_ps(box[2]),
             a3 = _mm_loadu_ps(box[3]);
      __m128 b0 = _mm_loadu_ps(box[0] + 2), b1 = _mm_loadu_ps(box[1] + 2),
             b2 = _mm_loadu_ps(box[2] + 2), b3 = _mm_loadu_ps(box[3] + 2);
      _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
      _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
      const __m128 row[6] = {a0, b1, a1, b2, a2, b3};  // min x, max x, min y, max y, ...
      for (int r = 0; r < 6; ++r) rows.lanes[r][half] = row[r];
    }
    return rows;
  }
};
#endif

// The faces of `row` on `grid` as `face_of` finds them, the unused lanes 0; four lanes at a
// time (`lanes`: the row's) where the processor and the grid allow.
template <class Lanes>
void find_faces(const FaceRow& row, const Lanes* lanes, const Grid& grid,
                std::uint8_t (&faces)[WideNode::width]) {
#if defined(__SSE2__)
  if (grid.products_fit) {
    const unsigned settled = four_faces(lanes[0], grid, row.upper, faces) |
                             four_faces(lanes[1], grid, row.upper, faces + 4) << 4;
    const unsigned used = (1u << row.count) - 1;
    // The unused lanes' bytes cleared at once; the few lanes left open searched one by one.
    std::uint64_t bytes;
    std::memcpy(&bytes, faces, sizeof bytes);
    bytes &= ~std::uint64_t{0} >> (64 - 8 * row.count);
    std::memcpy(faces, &bytes, sizeof bytes);
    for (unsigned open = used & ~settled; open != 0; open &= open - 1) {
      const int i = std::countr_zero(open);
      faces[i] = static_cast<std::uint8_t>(face_of(row.value(i), grid, row.upper));
    }
    return;
  }
#endif
  (void)lanes;
  for (int i = 0; i < WideNode::width; ++i)
    faces[i] =
        static_cast<std::uint8_t>(i < row.count ? face_of(row.value(i), grid, row.upper) : 0);
}

}  // namespace

void quantize_children(WideNode& node, const Aabb (&boxes)[WideNode::width], int count) {
  node.used = static_cast<std::uint8_t>((1u << count) - 1);
#if defined(__SSE2__)
  const FaceLanes lanes = FaceLanes::of(boxes);
#endif
  for (int axis = 0; axis < 3; ++axis) {
    float low = boxes[0].min[axis], high = boxes[0].max[axis];
    for (int i = 1; i < count; ++i) {
      low = std::min(low, boxes[i].min[axis]);
      high = std::max(high, boxes[i].max[axis]);
    }
    const int exponent = grid_exponent(low, high);
    const Grid grid = Grid::of(low, exponent);
    node.origin[axis] = low;
    node.exponent[axis] = static_cast<std::uint8_t>(exponent + 127);
    for (const bool upper : {false, true}) {
      const int row = 2 * axis + (upper ? 1 : 0);
#if defined(__SSE2__)
      find_faces({boxes, count, axis, upper}, lanes.lanes[row], grid, node.faces[row]);
#else
      find_faces<float>({boxes, count, axis, upper}, nullptr, grid, node.faces[row]);
#endif
    }
  }
}

}  // namespace trisect::detail
