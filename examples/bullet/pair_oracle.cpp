// Brute-force pairs for checking a Bullet pair cache (pair_oracle.hpp).
#include "pair_oracle.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <algorithm>
#include <iterator>
#include <sstream>

namespace trisect::bullet {
namespace {

bool boxes_overlap(const btBroadphaseProxy& a, const btBroadphaseProxy& b) {
  for (int axis = 0; axis < 3; ++axis)
    if (a.m_aabbMin[axis] > b.m_aabbMax[axis] || b.m_aabbMin[axis] > a.m_aabbMax[axis])
      return false;
  return true;
}

UidPair ordered(int a, int b) { return a < b ? UidPair{a, b} : UidPair{b, a}; }

std::vector<UidPair> minus(const std::vector<UidPair>& from, const std::vector<UidPair>& take) {
  std::vector<UidPair> result;
  std::set_difference(from.begin(), from.end(), take.begin(), take.end(),
                      std::back_inserter(result));
  return result;
}

void list_some(std::ostringstream& out, const char* what, const std::vector<UidPair>& pairs) {
  constexpr std::size_t shown = 5;
  out << pairs.size() << ' ' << what;
  for (std::size_t i = 0; i < std::min(shown, pairs.size()); ++i)
    out << (i == 0 ? ": " : ", ") << '(' << pairs[i].first << ' ' << pairs[i].second << ')';
  if (pairs.size() > shown) out << ", ...";
}

}  // namespace

bool has_static_client(const btBroadphaseProxy& proxy) {
  const auto* object = static_cast<const btCollisionObject*>(proxy.m_clientObject);
  return object != nullptr && object->isStaticObject();
}

std::vector<btBroadphaseProxy*> proxies_of(btCollisionWorld& world) {
  std::vector<btBroadphaseProxy*> proxies;
  btCollisionObjectArray& objects = world.getCollisionObjectArray();
  for (int i = 0; i < objects.size(); ++i)
    if (btBroadphaseProxy* proxy = objects[i]->getBroadphaseHandle()) proxies.push_back(proxy);
  return proxies;
}

std::vector<UidPair> cached_pairs(const btOverlappingPairCache& cache) {
  std::vector<UidPair> pairs;
  const btBroadphasePair* array = cache.getOverlappingPairArrayPtr();
  for (int i = 0; i < cache.getNumOverlappingPairs(); ++i)
    pairs.push_back(ordered(array[i].m_pProxy0->m_uniqueId, array[i].m_pProxy1->m_uniqueId));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<UidPair> expected_pairs(std::span<btBroadphaseProxy* const> proxies,
                                    const IsStatic& is_static,
                                    const btOverlappingPairCache& cache) {
  std::vector<bool> fixed;
  for (const btBroadphaseProxy* proxy : proxies) fixed.push_back(is_static(*proxy));
  std::vector<UidPair> pairs;
  for (std::size_t i = 0; i < proxies.size(); ++i)
    for (std::size_t k = i + 1; k < proxies.size(); ++k)
      if (!(fixed[i] && fixed[k]) && boxes_overlap(*proxies[i], *proxies[k]) &&
          cache.needsBroadphaseCollision(proxies[i], proxies[k]))
        pairs.push_back(ordered(proxies[i]->m_uniqueId, proxies[k]->m_uniqueId));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

PairDifference compare_with_brute_force(std::span<btBroadphaseProxy* const> proxies,
                                        const IsStatic& is_static,
                                        const btOverlappingPairCache& cache) {
  const std::vector<UidPair> expected = expected_pairs(proxies, is_static, cache);
  const std::vector<UidPair> found = cached_pairs(cache);
  return {minus(expected, found), minus(found, expected)};
}

std::string describe(const PairDifference& difference) {
  std::ostringstream out;
  list_some(out, "missing", difference.missing);
  out << "; ";
  list_some(out, "extra", difference.extra);
  return out.str();
}

}  // namespace trisect::bullet
