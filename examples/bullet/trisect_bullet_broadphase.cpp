// trisect's broadphase behind Bullet's btBroadphaseInterface (trisect_bullet_broadphase.hpp).
#include "trisect_bullet_broadphase.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace trisect::bullet {
namespace {

Vec3 to_vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

btVector3 to_bt(const Vec3& v) { return {v.x, v.y, v.z}; }

Aabb box_of(const btVector3& min, const btVector3& max) { return {to_vec(min), to_vec(max)}; }

bool same_point(const btVector3& a, const btVector3& b) {
  return a.x() == b.x() && a.y() == b.y() && a.z() == b.z();
}

// Infinite coordinates become the largest floats (NaN stays, for trisect to refuse), so that a
// query reaching to infinity is a valid trisect box: every proxy box is finite.
Vec3 finite(const Vec3& v) {
  constexpr float largest = std::numeric_limits<float>::max();
  Vec3 result = v;
  for (int axis = 0; axis < 3; ++axis)
    if (std::isinf(result[axis])) result[axis] = std::copysign(largest, result[axis]);
  return result;
}

Aabb finite(const Aabb& box) { return {finite(box.min), finite(box.max)}; }

// `box` grown on every side by a little more than the roundings of the sums that made it and of
// those that make the grown boxes of `BroadphaseAdapter::sweep_box`, so that a query with it
// misses no proxy that the exact test there would accept.
Aabb padded(const Aabb& box) {
  Aabb result = box;
  for (int axis = 0; axis < 3; ++axis) {
    const float pad = 0x1p-20f * (std::abs(box.min[axis]) + std::abs(box.max[axis])) +
                      std::numeric_limits<float>::min();
    result.min[axis] -= pad;
    result.max[axis] += pad;
  }
  return result;
}

// The end of the segment rayFrom → rayTo as the callback's `m_lambda_max` puts it: a parameter
// t of rayFrom + t·(rayTo − rayFrom). The value at the start of the test reaches rayTo (t = 1);
// a lower one later shortens the segment in proportion (below 0: nothing is left).
class SegmentEnd {
 public:
  explicit SegmentEnd(const btBroadphaseRayCallback& callback)
      : callback_(callback), start_(callback.m_lambda_max) {}

  [[nodiscard]] float t() const {
    if (!(start_ > 0.0f) || !std::isfinite(start_)) return 1.0f;
    return std::min(1.0f, callback_.m_lambda_max / start_);
  }

 private:
  const btBroadphaseRayCallback& callback_;
  float start_;
};

// True when the segment start → stop cut at parameter `t` meets the closed box `box`.
bool segment_meets(const Vec3& start, const Vec3& stop, float t, const Aabb& box) {
  if (start == stop) return t >= 0.0f && box.contains(start);
  return DynamicAabbTree::ray_meets(Ray{start, stop - start, 0.0f, t}, box);
}

}  // namespace

BroadphaseAdapter::BroadphaseAdapter(const AdapterOptions& options,
                                     btOverlappingPairCache* pair_cache)
    : options_(options),
      broadphase_(std::make_unique<Broadphase>(options.fat_boxes)),
      owned_pair_cache_(pair_cache ? nullptr : std::make_unique<btHashedOverlappingPairCache>()),
      pair_cache_(pair_cache ? pair_cache : owned_pair_cache_.get()),
      filter_callback_(pair_cache_->getOverlapFilterCallback()) {}

BroadphaseAdapter::~BroadphaseAdapter() = default;

btBroadphaseProxy* BroadphaseAdapter::createProxy(const btVector3& aabbMin,
                                                  const btVector3& aabbMax, int /*shapeType*/,
                                                  void* userPtr, int collisionFilterGroup,
                                                  int collisionFilterMask,
                                                  btDispatcher* /*dispatcher*/) {
  const btBroadphaseProxy made(aabbMin, aabbMax, userPtr, collisionFilterGroup,
                               collisionFilterMask);
  const ProxyId id = broadphase_->create_proxy(
      box_of(aabbMin, aabbMax),
      ProxyOptions{.layer = layer_for(userPtr, collisionFilterGroup), .filter = filter_for(made)});
  btBroadphaseProxy& proxy = slot(id);
  proxy = made;
  proxy.m_uniqueId = static_cast<int>(id);
  filters_[id] = broadphase_->filter(id);
  return &proxy;
}

void BroadphaseAdapter::destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) {
  broadphase_->destroy_proxy(id_of(*proxy));
  // trisect reports the proxy's pairs as ended at the next update, which then skips them.
  pair_cache_->removeOverlappingPairsContainingProxy(proxy, dispatcher);
  proxy->m_clientObject = nullptr;
}

void BroadphaseAdapter::setAabb(btBroadphaseProxy* proxy, const btVector3& aabbMin,
                                const btVector3& aabbMax, btDispatcher* /*dispatcher*/) {
  take_filter(*proxy);
  if (same_point(aabbMin, proxy->m_aabbMin) && same_point(aabbMax, proxy->m_aabbMax)) return;
  const Aabb box = box_of(aabbMin, aabbMax);
  const Vec3 displacement = box.center() - box_of(proxy->m_aabbMin, proxy->m_aabbMax).center();
  broadphase_->move_proxy(id_of(*proxy), box, displacement);
  proxy->m_aabbMin = aabbMin;
  proxy->m_aabbMax = aabbMax;
}

void BroadphaseAdapter::getAabb(btBroadphaseProxy* proxy, btVector3& aabbMin,
                                btVector3& aabbMax) const {
  aabbMin = proxy->m_aabbMin;
  aabbMax = proxy->m_aabbMax;
}

void BroadphaseAdapter::rayTest(const btVector3& rayFrom, const btVector3& rayTo,
                                btBroadphaseRayCallback& rayCallback, const btVector3& aabbMin,
                                const btVector3& aabbMax) {
  const btVector3 zero(0, 0, 0);
  if (same_point(aabbMin, zero) && same_point(aabbMax, zero) && !same_point(rayFrom, rayTo))
    cast_ray(rayFrom, rayTo, rayCallback);
  else
    sweep_box(rayFrom, rayTo, rayCallback, aabbMin, aabbMax);
}

void BroadphaseAdapter::cast_ray(const btVector3& from, const btVector3& to,
                                 btBroadphaseRayCallback& callback) {
  const SegmentEnd end(callback);
  const Ray ray{to_vec(from), to_vec(to) - to_vec(from), 0.0f, end.t()};
  broadphase_->cast(ray, ProxyQueryFilter{}, [&](ProxyId id, float /*t_max*/) {
    callback.process(&proxies_[id]);
    return end.t();
  });
}

// The cast shape's box [low, high] at a point p of the segment meets a proxy's box B exactly
// when p lies in B grown to [B.min − high, B.max − low] (btDbvt::rayTestInternal's bounds).
// Candidates are the proxies meeting the box swept along the segment.
void BroadphaseAdapter::sweep_box(const btVector3& from, const btVector3& to,
                                  btBroadphaseRayCallback& callback, const btVector3& aabbMin,
                                  const btVector3& aabbMax) {
  const Vec3 start = to_vec(from), stop = to_vec(to), low = to_vec(aabbMin), high = to_vec(aabbMax);
  if (low.x > high.x || low.y > high.y || low.z > high.z) return;
  const SegmentEnd end(callback);
  Aabb swept = Aabb::from_corners(start, stop);
  swept = {swept.min + low, swept.max + high};
  broadphase_->query(finite(padded(swept)), ProxyQueryFilter{}, [&](ProxyId id) {
    const float t = end.t();
    if (t < 0.0f) return false;
    const Aabb& box = broadphase_->box(id);
    if (segment_meets(start, stop, t, finite(Aabb{box.min - high, box.max - low})))
      callback.process(&proxies_[id]);
    return true;
  });
}

void BroadphaseAdapter::aabbTest(const btVector3& aabbMin, const btVector3& aabbMax,
                                 btBroadphaseAabbCallback& callback) {
  const Aabb box = finite(box_of(aabbMin, aabbMax));
  if (box.is_empty()) return;
  broadphase_->query(box, [&](ProxyId id) {
    callback.process(&proxies_[id]);
    return true;
  });
}

void BroadphaseAdapter::calculateOverlappingPairs(btDispatcher* dispatcher) {
  follow_filter_callback();
  broadphase_->update(
      [&](ProxyPair pair) {
        pair_cache_->addOverlappingPair(&proxies_[pair.first], &proxies_[pair.second]);
      },
      [&](ProxyPair pair) {
        // A destroyed proxy's pairs left the cache when it was destroyed.
        if (broadphase_->is_proxy(pair.first) && broadphase_->is_proxy(pair.second))
          pair_cache_->removeOverlappingPair(&proxies_[pair.first], &proxies_[pair.second],
                                             dispatcher);
      });
}

void BroadphaseAdapter::getBroadphaseAabb(btVector3& aabbMin, btVector3& aabbMax) const {
  Aabb bounds = Aabb::empty();
  for (ProxyId id = 0; id < proxies_.size(); ++id)
    if (broadphase_->is_proxy(id)) bounds.extend(broadphase_->box(id));
  if (bounds.is_empty()) bounds = {Vec3(0.0f), Vec3(0.0f)};
  aabbMin = to_bt(bounds.min);
  aabbMax = to_bt(bounds.max);
}

void BroadphaseAdapter::resetPool(btDispatcher* /*dispatcher*/) {
  if (broadphase_->size() != 0) return;
  broadphase_ = std::make_unique<Broadphase>(options_.fat_boxes);
  proxies_.clear();
  filters_.clear();
}

void BroadphaseAdapter::printStats() {
  const DynamicAabbTree& fixed = broadphase_->tree(Layer::static_layer);
  const DynamicAabbTree& moving = broadphase_->tree(Layer::dynamic_layer);
  std::printf(
      "trisect broadphase: %zu static and %zu dynamic proxies (tree heights %d, %d), %zu pairs "
      "overlapping, %d in the pair cache\n",
      fixed.size(), moving.size(), fixed.height(), moving.height(), broadphase_->pairs().size(),
      pair_cache_->getNumOverlappingPairs());
}

Layer BroadphaseAdapter::layer(const btBroadphaseProxy& proxy) const {
  return broadphase_->layer(id_of(proxy));
}

Layer BroadphaseAdapter::layer_for(const void* client, int group) const {
  bool is_static = (group & btBroadphaseProxy::StaticFilter) != 0;
  if (options_.clients_are_collision_objects && client)
    is_static = static_cast<const btCollisionObject*>(client)->isStaticObject();
  return is_static ? Layer::static_layer : Layer::dynamic_layer;
}

ProxyFilter BroadphaseAdapter::filter_for(const btBroadphaseProxy& proxy) const {
  if (filter_callback_) return {~0u, ~0u};
  return {static_cast<std::uint32_t>(proxy.m_collisionFilterGroup),
          static_cast<std::uint32_t>(proxy.m_collisionFilterMask)};
}

void BroadphaseAdapter::take_filter(const btBroadphaseProxy& proxy) {
  const ProxyFilter wanted = filter_for(proxy);
  ProxyFilter& held = filters_[id_of(proxy)];
  if (wanted.group == held.group && wanted.mask == held.mask) return;
  broadphase_->set_filter(id_of(proxy), wanted);
  held = wanted;
}

// A filter callback installed on the cache (or removed) since the last frame changes every
// proxy's trisect filter from the next pairs on.
void BroadphaseAdapter::follow_filter_callback() {
  const btOverlapFilterCallback* callback = pair_cache_->getOverlapFilterCallback();
  if (callback == filter_callback_) return;
  filter_callback_ = callback;
  for (ProxyId id = 0; id < proxies_.size(); ++id)
    if (broadphase_->is_proxy(id)) take_filter(proxies_[id]);
}

btBroadphaseProxy& BroadphaseAdapter::slot(ProxyId id) {
  if (id >= proxies_.size()) {
    proxies_.resize(std::size_t{id} + 1);
    filters_.resize(std::size_t{id} + 1);
  }
  return proxies_[id];
}

}  // namespace trisect::bullet
