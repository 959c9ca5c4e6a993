#pragma once
/// \file
/// The pairs a broadphase handing Bullet exact pairs must leave in the pair cache, found by
/// brute force over the proxies' boxes, and how a cache differs from them: the check of
/// `bullet_falling_boxes --check` and of the adapter's test.

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace trisect::bullet {

/// Two proxies by their `m_uniqueId`, the smaller first.
using UidPair = std::pair<int, int>;

/// Whether a proxy counts as static: two static proxies never pair.
using IsStatic = std::function<bool(const btBroadphaseProxy&)>;

/// True when the proxy's client (`m_clientObject`, a `btCollisionObject`) is a static object,
/// as `BroadphaseAdapter` decides for a world's proxies.
[[nodiscard]] bool has_static_client(const btBroadphaseProxy& proxy);

/// The broadphase proxies of `world`'s collision objects (those that have one).
[[nodiscard]] std::vector<btBroadphaseProxy*> proxies_of(btCollisionWorld& world);

/// The pairs in `cache`, ascending.
[[nodiscard]] std::vector<UidPair> cached_pairs(const btOverlappingPairCache& cache);

/// Every two of `proxies` whose boxes (`m_aabbMin`, `m_aabbMax`) overlap as closed boxes, that
/// are not both static, and that `cache.needsBroadphaseCollision` accepts (Bullet's group and
/// mask rule, or the cache's filter callback), by brute force over all pairs; ascending.
[[nodiscard]] std::vector<UidPair> expected_pairs(std::span<btBroadphaseProxy* const> proxies,
                                                  const IsStatic& is_static,
                                                  const btOverlappingPairCache& cache);

/// How the pairs of a cache differ from the expected ones.
struct PairDifference {
  std::vector<UidPair> missing;  ///< Expected, not in the cache.
  std::vector<UidPair> extra;    ///< In the cache, not expected.

  /// True when the cache holds exactly the expected pairs.
  [[nodiscard]] bool none() const noexcept { return missing.empty() && extra.empty(); }
};

/// The difference between `cache`'s pairs and `expected_pairs(proxies, is_static, cache)`.
[[nodiscard]] PairDifference compare_with_brute_force(std::span<btBroadphaseProxy* const> proxies,
                                                      const IsStatic& is_static,
                                                      const btOverlappingPairCache& cache);

/// A line naming how many pairs are missing and extra, and the first few of each.
[[nodiscard]] std::string describe(const PairDifference& difference);

}  // namespace trisect::bullet
