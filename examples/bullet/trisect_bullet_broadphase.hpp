#pragma once
/// \file
/// trisect's broadphase behind Bullet's `btBroadphaseInterface`, so that a Bullet world
/// (`btDiscreteDynamicsWorld`, `btCollisionWorld`) finds its pairs, ray tests and box tests
/// with `trisect::Broadphase` instead of `btDbvtBroadphase`. See docs/bullet.md.

#include <trisect/broadphase/broadphase.hpp>

#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>

#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

namespace trisect::bullet {

// trisect's boxes are floats: Bullet's boxes are passed on exactly only when btScalar is float.
static_assert(std::is_same_v<btScalar, float>,
              "the adapter needs Bullet built with float btScalar (no BT_USE_DOUBLE_PRECISION)");

/// What a `BroadphaseAdapter` is made with.
struct AdapterOptions {
  /// The fat boxes of trisect's trees: how often a proxy searches for new pairs, never which
  /// pairs are reported. The default is an absolute margin of 0.1 (Bullet's worlds are in
  /// metres; btDbvtBroadphase grows its boxes by 0.05) stretched 8 displacements ahead. On
  /// `bench_physics_step`'s 5000 falling boxes the whole step then took about 1.01 times the
  /// instructions it takes with Bullet's own broadphase (callgrind), against 1.02 with trisect's
  /// defaults (a margin of 0.05 of a box's largest side, which makes the floor's fat box 10 m
  /// thick, and 32 displacements ahead).
  FatBoxOptions fat_boxes = FatBoxOptions(0.1f, 8.0f);
  /// True when `createProxy`'s `userPtr` is a `btCollisionObject` or null (what
  /// `btCollisionWorld` passes): a proxy of an object with `isStaticObject()` then goes to
  /// trisect's static layer. False, or a null `userPtr`: the `btBroadphaseProxy::StaticFilter`
  /// bit of the group decides (`userPtr` is then never read).
  bool clients_are_collision_objects = true;
};

/// A `btBroadphaseInterface` backed by `trisect::Broadphase`. Every Bullet proxy is one
/// trisect proxy whose `ProxyId` is the proxy's `m_uniqueId`; its `m_aabbMin`/`m_aabbMax` are
/// the box last given to `createProxy` or `setAabb`.
///
/// - Pairs: `calculateOverlappingPairs` ends trisect's frame and hands its events to the pair
///   cache, `addOverlappingPair` for a pair whose boxes began to overlap (closed boxes: touching
///   counts) and `removeOverlappingPair` for one that stopped. So the cache holds exactly the
///   pairs whose boxes overlap as of the last `calculateOverlappingPairs` that the cache's
///   `needsBroadphaseCollision` accepted when they began, but for pairs of two static proxies.
///   (Bullet's own broadphases keep a pair while the proxies' fat boxes overlap.)
/// - Filters: without an overlap filter callback on the cache, a pair needs Bullet's rule
///   `(a.group & b.mask) != 0 && (b.group & a.mask) != 0`, applied inside trisect; with one,
///   the callback alone decides, asked once when a pair begins. A filter changed on a
///   `btBroadphaseProxy` is taken over at its next `setAabb`.
/// - Layers: static objects (see `AdapterOptions::clients_are_collision_objects`) go to the
///   static layer; two static proxies never pair.
/// - A proxy destroyed by `destroyProxy` leaves the pair cache at once, as with
///   `btDbvtBroadphase`; a created one pairs from the next `calculateOverlappingPairs` on.
///
/// Boxes must be finite (Bullet's planes have huge but finite boxes): `trisect::InvalidInput`
/// otherwise, from the call that passes the box. Not thread-safe, as Bullet's broadphases are
/// not; `calculateOverlappingPairs` runs trisect's parallel steps on TBB's threads.
class BroadphaseAdapter final : public btBroadphaseInterface {
 public:
  /// An empty broadphase handing its pairs to `pair_cache` (not owned; it must outlive the
  /// adapter), or to a `btHashedOverlappingPairCache` of its own when null, as
  /// `btDbvtBroadphase`'s constructor does.
  explicit BroadphaseAdapter(const AdapterOptions& options = {},
                             btOverlappingPairCache* pair_cache = nullptr);
  ~BroadphaseAdapter() override;
  BroadphaseAdapter(const BroadphaseAdapter&) = delete;
  BroadphaseAdapter& operator=(const BroadphaseAdapter&) = delete;

  /// Adds a proxy with box [aabbMin, aabbMax], client `userPtr` and Bullet's filter bits; its
  /// layer is static for a static object (`AdapterOptions`). `shapeType` and `dispatcher` are
  /// not used. The proxy lives until `destroyProxy`.
  btBroadphaseProxy* createProxy(const btVector3& aabbMin, const btVector3& aabbMax, int shapeType,
                                 void* userPtr, int collisionFilterGroup, int collisionFilterMask,
                                 btDispatcher* dispatcher) override;

  /// Removes `proxy`: the cache's pairs with it are removed now (through `dispatcher`, which
  /// frees their collision algorithms), and the proxy must not be used again.
  void destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override;

  /// Gives `proxy` the box [aabbMin, aabbMax] (trisect's `move_proxy`, the displacement being
  /// the change of the box's centre; nothing happens for the box it has) and takes over a
  /// filter changed on it. Its pairs follow at the next `calculateOverlappingPairs`.
  void setAabb(btBroadphaseProxy* proxy, const btVector3& aabbMin, const btVector3& aabbMax,
               btDispatcher* dispatcher) override;

  /// The box last given for `proxy`.
  void getAabb(btBroadphaseProxy* proxy, btVector3& aabbMin, btVector3& aabbMax) const override;

  /// Calls `rayCallback.process` for each proxy whose box, grown by the cast shape's local box
  /// [aabbMin, aabbMax] (zero for a ray: the box itself), meets the segment rayFrom → rayTo
  /// (closed boxes; nearest first, as trisect's `cast` estimates, for a ray). A callback that
  /// lowers `m_lambda_max` meanwhile shortens the segment in proportion for the proxies after
  /// (the value at the start is taken as reaching rayTo, as `btCollisionWorld`'s callbacks set
  /// it); `process`'s result is ignored, as `btDbvtBroadphase` ignores it. While the cache has no
  /// filter callback, proxies whose group or mask is 0 (they pair with nothing) are not reported.
  void rayTest(const btVector3& rayFrom, const btVector3& rayTo,
               btBroadphaseRayCallback& rayCallback, const btVector3& aabbMin = btVector3(0, 0, 0),
               const btVector3& aabbMax = btVector3(0, 0, 0)) override;

  /// Calls `callback.process` for each proxy whose box meets the closed box [aabbMin, aabbMax]
  /// (none when a min exceeds its max); `process`'s result is ignored.
  void aabbTest(const btVector3& aabbMin, const btVector3& aabbMax,
                btBroadphaseAabbCallback& callback) override;

  /// Ends the frame: adds the pairs that began to the pair cache and removes those that ended
  /// (through `dispatcher`).
  void calculateOverlappingPairs(btDispatcher* dispatcher) override;

  /// The pair cache the pairs go to.
  btOverlappingPairCache* getOverlappingPairCache() override { return pair_cache_; }

  /// The pair cache the pairs go to.
  const btOverlappingPairCache* getOverlappingPairCache() const override { return pair_cache_; }

  /// The smallest box holding every proxy's box (the point 0 when there is none).
  void getBroadphaseAabb(btVector3& aabbMin, btVector3& aabbMax) const override;

  /// Starts again from an empty trisect broadphase, so that ids are handed out from 0 as in a new
  /// adapter, when no proxy is left; does nothing otherwise.
  void resetPool(btDispatcher* dispatcher) override;

  /// Prints the proxies per layer, the pairs and the trees' heights to stdout.
  void printStats() override;

  /// The layer of live proxy `proxy`.
  [[nodiscard]] Layer layer(const btBroadphaseProxy& proxy) const;

  /// The trisect broadphase underneath (for statistics and `validate()`).
  [[nodiscard]] const Broadphase& broadphase() const noexcept { return *broadphase_; }

 private:
  [[nodiscard]] static ProxyId id_of(const btBroadphaseProxy& proxy) noexcept {
    return static_cast<ProxyId>(proxy.m_uniqueId);
  }
  [[nodiscard]] Layer layer_for(const void* client, int group) const;
  // The filter trisect applies: Bullet's bits, or none while the cache has a filter callback.
  [[nodiscard]] ProxyFilter filter_for(const btBroadphaseProxy& proxy) const;
  void take_filter(const btBroadphaseProxy& proxy);
  void follow_filter_callback();
  btBroadphaseProxy& slot(ProxyId id);
  void cast_ray(const btVector3& from, const btVector3& to, btBroadphaseRayCallback& callback);
  void sweep_box(const btVector3& from, const btVector3& to, btBroadphaseRayCallback& callback,
                 const btVector3& aabbMin, const btVector3& aabbMax);

  AdapterOptions options_;
  std::unique_ptr<Broadphase> broadphase_;
  std::unique_ptr<btHashedOverlappingPairCache> owned_pair_cache_;
  btOverlappingPairCache* pair_cache_;
  // The filter callback the proxies' trisect filters were made for.
  const btOverlapFilterCallback* filter_callback_ = nullptr;
  // Bullet's proxies by trisect id (a deque, so that growing never moves them).
  std::deque<btBroadphaseProxy> proxies_;
  // The filter each proxy has in trisect, by id (what `setAabb` compares with).
  std::vector<ProxyFilter> filters_;
};

}  // namespace trisect::bullet
