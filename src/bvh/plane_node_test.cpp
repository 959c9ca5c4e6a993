// The plane query's float child test with AVX2: PlaneQuery::float_node_test's operations on all
// eight lanes at once (a multiplication then an addition per row, as there; no fused
// multiply-add, which AVX2 alone does not enable), so both give the same masks.
#include "trisect/bvh/plane_query.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

namespace trisect::detail {
namespace {

// Faces `row` of all eight lanes as floats (exactly: bytes).
__attribute__((target("avx2"))) __m256 face_steps(const WideNode& node, int row) noexcept {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(node.faces[row]));
  return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
}

}  // namespace

__attribute__((target("avx2"))) unsigned plane_node_test_avx2(const PlaneQuery& query,
                                                              const WideNode& node) noexcept {
  const PlaneQuery::NodeConstants constants = query.node_constants(node);
  __m256 low = _mm256_set1_ps(constants.corner), high = low;
  for (int axis = 0; axis < 3; ++axis) {
    const __m256 weight = _mm256_set1_ps(constants.weight[axis]);
    const int low_row = constants.low_row[axis];
    low = _mm256_add_ps(low, _mm256_mul_ps(weight, face_steps(node, low_row)));
    high = _mm256_add_ps(high, _mm256_mul_ps(weight, face_steps(node, low_row ^ 1)));
  }
  const __m256 upper_bound = _mm256_set1_ps(query.node_error_bound);
  const __m256 lower_bound = _mm256_set1_ps(-query.node_error_bound);
  const __m256 touching = _mm256_and_ps(_mm256_cmp_ps(low, upper_bound, _CMP_LE_OQ),
                                        _mm256_cmp_ps(lower_bound, high, _CMP_LE_OQ));
  return static_cast<unsigned>(_mm256_movemask_ps(touching));
}

}  // namespace trisect::detail

#else

namespace trisect::detail {

// Never called: processor_has_avx2() is false in such builds.
unsigned plane_node_test_avx2(const PlaneQuery& query, const WideNode& node) noexcept {
  return query.float_node_test(node);
}

}  // namespace trisect::detail

#endif
