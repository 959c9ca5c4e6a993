// Morton clusters for the SAH builder (sah_clusters.hpp).
#include "sah_clusters.hpp"

#include "morton_order.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

namespace trisect::detail {
namespace {

// Ranges of sorted keys at least this long are cut into clusters as parallel tasks.
constexpr std::uint32_t parallel_cut_threshold = 1 << 14;

// Marks in `first` the first key of every cluster of keys [begin, end).
void mark_clusters(const std::uint64_t* keys, std::uint32_t begin, std::uint32_t end,
                   std::uint32_t max_size, std::uint8_t* first) {
  if (end - begin <= max_size) {
    first[begin] = 1;
    return;
  }
  const std::uint32_t cut = code_split(keys, begin, end);
  const auto left = [&] { mark_clusters(keys, begin, cut, max_size, first); };
  const auto right = [&] { mark_clusters(keys, cut, end, max_size, first); };
  if (end - begin < parallel_cut_threshold) {
    left();
    right();
  } else {
    tbb::parallel_invoke(left, right);
  }
}

// The box centre of a reference, halved before adding so that no coordinate overflows.
Vec3 centre_of(const Reference& reference) {
  return {0.5f * reference.lower[0] + 0.5f * reference.upper[0],
          0.5f * reference.lower[1] + 0.5f * reference.upper[1],
          0.5f * reference.lower[2] + 0.5f * reference.upper[2]};
}

// The references in key order, read ahead of use (the reads jump about `by_id`).
std::unique_ptr<Reference[]> in_key_order(const Reference* by_id, const std::uint64_t* keys,
                                          std::size_t size) {
  constexpr std::size_t ahead = 16;
  auto ordered = fresh_array<Reference>(size);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size, 4096), [&](const auto& range) {
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      if (k + ahead < range.end()) __builtin_prefetch(by_id + id_of_key(keys[k + ahead]));
      ordered[k] = by_id[id_of_key(keys[k])];
    }
  });
  return ordered;
}

}  // namespace

Clusters make_clusters(std::unique_ptr<Reference[]> by_id, std::size_t size, const Box4& bounds,
                       std::uint32_t max_size) {
  auto keys = fresh_array<std::uint64_t>(size);
  const MortonCoder coder(bounds.to_aabb());
  for_each_index(size, [&](std::size_t id) {
    keys[id] = std::uint64_t{coder.code(centre_of(by_id[id]))} << 32 | id;
  });
  sort_keys_by_code(keys, size);

  Clusters clusters;
  const auto count = static_cast<std::uint32_t>(size);
  std::vector<std::uint8_t> first(size, 0);
  mark_clusters(keys.get(), 0, count, max_size, first.data());
  for (std::uint32_t i = 0; i < count; ++i)
    if (first[i] != 0) clusters.starts.push_back(i);
  clusters.count = clusters.starts.size();
  clusters.starts.push_back(count);
  clusters.triangles = in_key_order(by_id.get(), keys.get(), size);
  keys.reset();
  by_id.reset();

  clusters.references = fresh_array<Reference>(clusters.count);
  for_each_index(clusters.count, [&](std::size_t c) {
    const auto cluster = static_cast<TriangleId>(c);
    Box4 box = Box4::empty();
    for (const Reference* t = clusters.begin_of(cluster); t != clusters.end_of(cluster); ++t)
      box.extend(t->box());
    clusters.references[c] =
        Reference::of(box.to_aabb(), cluster, clusters.starts[c + 1] - clusters.starts[c]);
  });
  return clusters;
}

}  // namespace trisect::detail
