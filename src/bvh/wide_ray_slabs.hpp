#pragma once
// The slab test of `RaySlabs` for all eight children of a wide node (or a ray node) at once, in
// three forms: four lanes at a time (SSE on x86-64, scalar elsewhere) and, where the compiler
// can target them, eight lanes in one AVX2 operation per row, and the same with AVX-512's mask
// registers. All evaluate the same float operations in the same
// order (no fused multiply-add: this header is compiled with -ffp-contract=off), but for the
// eight-lane decode of a face, one fused multiply-add, which gives the same float as the four
// lanes' multiplication and addition (the product is exact, see `WideNode`); so they choose the
// same children and give the same entry parameters. Internal to the library.
#include "instruction_sets.hpp"
#include "trisect/bvh/ray_node.hpp"
#include "trisect/bvh/wide_node.hpp"
#include "trisect/geometry/ray_aabb.hpp"
#include "trisect/math/float4.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace trisect::detail {

/// The per-ray constants of the wide slab test. Each axis's entry and exit rows of
/// `WideNode::faces` are picked once per ray by the direction's sign. With the same
/// conservative widening and the same treatment of NaN as `RaySlabs::overlaps` (max/min
/// return their second operand when either is NaN: an axis the ray does not move along and
/// whose plane holds the origin does not constrain it).
struct WideRayRows {
  float origin[3];
  float inverse[3];
  int entry_row[3];
  int exit_row[3];
  bool nonnegative_t;  // t_min >= 0: every entry is >= 0, widening is one multiplication

  static WideRayRows of(const RaySlabs& slabs, float t_min) noexcept {
    WideRayRows rows{};
    for (int axis = 0; axis < 3; ++axis) {
      rows.origin[axis] = slabs.origin[axis];
      rows.inverse[axis] = slabs.inverse[axis];
      rows.entry_row[axis] = 2 * axis + (slabs.negative[axis] ? 1 : 0);
      rows.exit_row[axis] = 2 * axis + (slabs.negative[axis] ? 0 : 1);
    }
    rows.nonnegative_t = t_min >= 0;
    return rows;
  }
};

// Widening [entered, exited] outwards by `RaySlabs::relative_slack` of each end's magnitude:
// with t_min >= 0, entered >= 0 and the lower end scales down by (1 - slack); a negative exited
// scaled by (1 + slack) moves inwards instead, but stays below entered either way, so the
// answer (a miss) is the same.

/// The wide slab test four lanes at a time.
struct FourLaneRaySlabs {
  WideRayRows rows;

  static FourLaneRaySlabs of(const Ray& ray) noexcept {
    return {WideRayRows::of(RaySlabs::of(ray), ray.t_min)};
  }

  /// Bit i set when the ray, for t in [t_min, t_max], may touch child i (used or not); `near[i]`
  /// receives its entry parameter. For a wide node the faces are decoded, for a ray node read;
  /// they are the same floats.
  template <class Node>
  unsigned children(const Node& node, float t_min, float t_max,
                    float (&near)[WideNode::width]) const noexcept {
    unsigned mask = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 entered = Float4::splat(t_min), exited = Float4::splat(t_max);
      for (int axis = 0; axis < 3; ++axis) {
        const Float4 from = Float4::splat(rows.origin[axis]);
        const Float4 scale = Float4::splat(rows.inverse[axis]);
        const Float4 entry = (face_row(node, rows.entry_row[axis], group) - from) * scale;
        const Float4 exit = (face_row(node, rows.exit_row[axis], group) - from) * scale;
        entered = max_ignoring_nan(entry, entered);
        exited = min_ignoring_nan(exit, exited);
      }
      if (rows.nonnegative_t) {
        entered = entered * Float4::splat(1.0f - RaySlabs::relative_slack);
        exited = exited * Float4::splat(1.0f + RaySlabs::relative_slack);
      } else {
        const Float4 slack = Float4::splat(RaySlabs::relative_slack);
        entered = entered - abs(entered) * slack;
        exited = exited + abs(exited) * slack;
      }
      std::memcpy(near + 4 * group, &entered, 4 * sizeof(float));
      mask |= less_equal_mask(entered, exited) << (4 * group);
    }
    return mask;
  }

 private:
  static Float4 face_row(const WideNode& node, int row, int group) noexcept {
    return node.face_row(row, group);
  }
  static Float4 face_row(const RayNode& node, int row, int group) noexcept {
    return Float4::load(node.bounds[row] + 4 * group);
  }
};

#if TRISECT_HAVE_AVX2_KERNEL
/// The wide slab test with all eight lanes in one AVX2 operation per row. Its functions carry
/// the AVX2 and FMA target: only code that runs after checking the processor may call them.
struct EightLaneRaySlabs {
  WideRayRows rows;
  __m256 origin_lanes[3];   // rows.origin[axis] in every lane, broadcast once per ray
  __m256 inverse_lanes[3];  // rows.inverse[axis] in every lane

  /// The constants of `ray`: those of `WideRayRows::of(RaySlabs::of(ray), t_min)`, the three
  /// reciprocals in one division (IEEE division rounds alike in every lane, so the floats
  /// are the same), a cost paid by every ray.
  TRISECT_AVX2_TARGET static EightLaneRaySlabs of(const Ray& ray) noexcept {
    const __m128 zero = _mm_setzero_ps();
    const __m128 direction = _mm_setr_ps(ray.direction.x, ray.direction.y, ray.direction.z, 1.0f);
    // +0 for a zero direction of either sign (-0 + 0 is +0), so its reciprocal is +inf.
    const __m128 inverse = _mm_div_ps(_mm_set1_ps(1.0f), _mm_add_ps(direction, zero));
    // As in `RaySlabs::of`: NaN where a non-zero direction's reciprocal overflowed.
    const __m128 infinite = _mm_cmpeq_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), inverse),
                                         _mm_set1_ps(std::numeric_limits<float>::infinity()));
    const __m128 overflowed = _mm_and_ps(infinite, _mm_cmpneq_ps(direction, zero));
    const __m128 fixed =
        _mm_blendv_ps(inverse, _mm_set1_ps(std::numeric_limits<float>::quiet_NaN()), overflowed);
    const int negative = _mm_movemask_ps(_mm_cmplt_ps(direction, zero));
    EightLaneRaySlabs slabs;  // every field set below
    alignas(16) float inverses[4];
    _mm_store_ps(inverses, fixed);
    for (int axis = 0; axis < 3; ++axis) {
      const bool backwards = (negative >> axis & 1) != 0;
      slabs.rows.origin[axis] = ray.origin[axis];
      slabs.rows.inverse[axis] = inverses[axis];
      slabs.rows.entry_row[axis] = 2 * axis + (backwards ? 1 : 0);
      slabs.rows.exit_row[axis] = 2 * axis + (backwards ? 0 : 1);
      slabs.origin_lanes[axis] = _mm256_set1_ps(ray.origin[axis]);
      slabs.inverse_lanes[axis] = _mm256_set1_ps(inverses[axis]);
    }
    slabs.rows.nonnegative_t = ray.t_min >= 0;
    return slabs;
  }

  /// The decoded faces `row` of all eight lanes, given the grid's origin and step on the row's
  /// axis in every lane: the floats of `WideNode::face_row`, by one fused multiply-add (the
  /// product being exact, the same float).
  TRISECT_AVX2_TARGET static __m256 face_lanes(const WideNode& node, int row, __m256 origin,
                                               __m256 step) noexcept {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(node.faces[row]));
    const __m256 steps = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
    return _mm256_fmadd_ps(steps, step, origin);
  }

  /// The node's three grid steps in lanes 0 to 2 (`WideNode::step`): each exponent byte moved
  /// into a float's exponent field, all three at once.
  TRISECT_AVX2_TARGET static __m128 grid_steps(const WideNode& node) noexcept {
    static_assert(offsetof(WideNode, used) == offsetof(WideNode, exponent) + 3);
    std::int32_t four;  // the three exponents and `used`, whose lane is not read
    std::memcpy(&four, node.exponent, sizeof four);
    return _mm_castsi128_ps(_mm_slli_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(four)), 23));
  }

  /// The faces of a wide node, decoded a row at a time.
  struct DecodedFaces {
    const WideNode& node;
    __m256 step_lanes[3];  // each axis's grid step in every lane

    TRISECT_AVX2_TARGET static DecodedFaces of(const WideNode& node) noexcept {
      const __m128 steps = grid_steps(node);
      return {node,
              {_mm256_broadcastss_ps(steps),
               _mm256_broadcastss_ps(_mm_shuffle_ps(steps, steps, 0b01010101)),
               _mm256_broadcastss_ps(_mm_shuffle_ps(steps, steps, 0b10101010))}};
    }
    TRISECT_AVX2_TARGET __m256 row(int axis, int row) const noexcept {
      return face_lanes(node, row, _mm256_set1_ps(node.origin[axis]), step_lanes[axis]);
    }
  };

  /// The faces of a ray node, read as they are.
  struct FloatFaces {
    const RayNode& node;

    TRISECT_AVX2_TARGET static FloatFaces of(const RayNode& node) noexcept { return {node}; }
    TRISECT_AVX2_TARGET __m256 row(int, int row) const noexcept {
      return _mm256_load_ps(node.bounds[row]);
    }
  };

  /// As `FourLaneRaySlabs::children` (of a wide node or a ray node), the same bits and
  /// parameters.
  template <class Node>
  TRISECT_AVX2_TARGET unsigned children(const Node& node, float t_min, float t_max,
                                        float (&near)[WideNode::width]) const noexcept {
    return entered_mask(clip(faces_of(node), t_min, t_max, near));
  }

 protected:
  /// The faces of a wide node, decoded.
  TRISECT_AVX2_TARGET static DecodedFaces faces_of(const WideNode& node) noexcept {
    return DecodedFaces::of(node);
  }
  /// The faces of a ray node.
  TRISECT_AVX2_TARGET static FloatFaces faces_of(const RayNode& node) noexcept {
    return FloatFaces::of(node);
  }

  /// Each lane's parameter interval [entered, exited], widened.
  struct Interval {
    __m256 entered, exited;
  };

  /// The widened interval of the eight lanes whose faces `faces` gives; `near` receives its
  /// lower ends.
  template <class Faces>
  [[gnu::always_inline]] TRISECT_AVX2_TARGET Interval clip(
      const Faces& faces, float t_min, float t_max, float (&near)[WideNode::width]) const noexcept {
    __m256 entered = _mm256_set1_ps(t_min), exited = _mm256_set1_ps(t_max);
    for (int axis = 0; axis < 3; ++axis) {
      const __m256 from = origin_lanes[axis], scale = inverse_lanes[axis];
      const __m256 entry =
          _mm256_mul_ps(_mm256_sub_ps(faces.row(axis, rows.entry_row[axis]), from), scale);
      const __m256 exit =
          _mm256_mul_ps(_mm256_sub_ps(faces.row(axis, rows.exit_row[axis]), from), scale);
      entered = _mm256_max_ps(entry, entered);
      exited = _mm256_min_ps(exit, exited);
    }
    if (rows.nonnegative_t) {
      entered = _mm256_mul_ps(entered, _mm256_set1_ps(1.0f - RaySlabs::relative_slack));
      exited = _mm256_mul_ps(exited, _mm256_set1_ps(1.0f + RaySlabs::relative_slack));
    } else {
      const __m256 slack = _mm256_set1_ps(RaySlabs::relative_slack);
      const __m256 sign = _mm256_set1_ps(-0.0f);
      entered = _mm256_sub_ps(entered, _mm256_mul_ps(_mm256_andnot_ps(sign, entered), slack));
      exited = _mm256_add_ps(exited, _mm256_mul_ps(_mm256_andnot_ps(sign, exited), slack));
    }
    _mm256_store_ps(near, entered);
    return {entered, exited};
  }

 private:
  /// Bit i set where lane i's interval is not empty.
  [[gnu::always_inline]] TRISECT_AVX2_TARGET static unsigned entered_mask(Interval lanes) noexcept {
    return static_cast<unsigned>(
        _mm256_movemask_ps(_mm256_cmp_ps(lanes.entered, lanes.exited, _CMP_LE_OQ)));
  }
};

/// The eight-lane slab test of `EightLaneRaySlabs` with AVX-512's mask registers: the lanes'
/// comparison writes a mask register instead of a vector to move to a general register, and
/// everything around it (the walk, the leaf test) is compiled for AVX-512 (EVEX encodings, 32
/// vector registers). The same floating-point operations in the same order: the same bits and
/// parameters. Its functions carry the AVX-512 target: only code that runs after checking the
/// processor may call them.
struct MaskRegisterRaySlabs : EightLaneRaySlabs {
  /// The constants of `ray`, as `EightLaneRaySlabs::of`.
  TRISECT_AVX512_TARGET static MaskRegisterRaySlabs of(const Ray& ray) noexcept {
    return {EightLaneRaySlabs::of(ray)};
  }
  /// As `FourLaneRaySlabs::children` (of a wide node or a ray node), the same bits and
  /// parameters.
  template <class Node>
  TRISECT_AVX512_TARGET unsigned children(const Node& node, float t_min, float t_max,
                                          float (&near)[WideNode::width]) const noexcept {
    return entered_mask(clip(faces_of(node), t_min, t_max, near));
  }

 private:
  [[gnu::always_inline]] TRISECT_AVX512_TARGET static unsigned entered_mask(
      Interval lanes) noexcept {
    return _mm256_cmp_ps_mask(lanes.entered, lanes.exited, _CMP_LE_OQ);
  }
};
#endif

}  // namespace trisect::detail
