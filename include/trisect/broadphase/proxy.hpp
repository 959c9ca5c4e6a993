#pragma once
/// \file
/// What a broadphase proxy is given and what its pairs are: layers, filters, the options of a
/// new proxy, pairs and their kinds, and the executor of the broadphase's parallel work.

#include "trisect/broadphase/dynamic_aabb_tree.hpp"
#include "trisect/broadphase/fat_box.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>

namespace trisect {

/// Which tree a proxy lives in. Static proxies are expected to move rarely; pairs of two static
/// proxies are never reported.
enum class Layer : std::uint8_t {
  static_layer,   ///< Level geometry, sensors that stay put.
  dynamic_layer,  ///< Moving bodies.
};

/// Collision filter bits (Bullet's convention): proxies a and b can pair only when
/// (a.group & b.mask) != 0 and (b.group & a.mask) != 0.
struct ProxyFilter {
  std::uint32_t group = 1;   ///< Bits this proxy belongs to.
  std::uint32_t mask = ~0u;  ///< Bits of the proxies it may pair with.
};

/// Which proxies a query of the broadphase reports: those of the layers it selects whose filter
/// passes the query's by the pairing rule, (proxy.group & mask) != 0 and (group & proxy.mask)
/// != 0. The defaults select every proxy whose own group and mask are not 0.
struct ProxyQueryFilter {
  bool static_layer = true;   ///< Report proxies of `Layer::static_layer`.
  bool dynamic_layer = true;  ///< Report proxies of `Layer::dynamic_layer`.
  std::uint32_t group = ~0u;  ///< The query's group bits.
  std::uint32_t mask = ~0u;   ///< The groups it reports.

  /// True when a proxy of `layer` with `filter` passes.
  [[nodiscard]] bool passes(Layer layer, const ProxyFilter& filter) const noexcept {
    return (layer == Layer::static_layer ? static_layer : dynamic_layer) &&
           (filter.group & mask) != 0 && (group & filter.mask) != 0;
  }
};

/// Two proxies whose boxes overlap, `first < second`.
struct ProxyPair {
  ProxyId first;   ///< The smaller id.
  ProxyId second;  ///< The larger id.
  friend auto operator<=>(const ProxyPair&, const ProxyPair&) = default;
};

/// What a pair is to the engine: a `contact` between two solid proxies, or a `sensor` pair, one
/// of whose proxies is a sensor (a trigger volume: its overlaps are reported, marked, so that
/// the engine raises trigger events instead of making contacts).
enum class PairKind : std::uint8_t {
  contact,  ///< Neither proxy is a sensor.
  sensor,   ///< At least one proxy is a sensor.
};

/// Called for each pair that began (or stopped) overlapping during a frame, with the pair, or
/// with the pair and its kind.
template <class Callback>
concept PairCallback = requires(Callback callback, ProxyPair pair) {
  callback(pair);
}
|| requires(Callback callback, ProxyPair pair, PairKind kind) { callback(pair, kind); };

namespace detail {
/// Calls a `PairCallback` for `pair`: with `kind` too when it takes one.
template <class Callback>
inline void deliver_pair(Callback& callback, const ProxyPair& pair, PairKind kind) {
  if constexpr (std::is_invocable_v<Callback&, ProxyPair, PairKind>)
    callback(pair, kind);
  else
    callback(pair);
}
}  // namespace detail

/// Everything a new proxy can be given besides its box.
struct ProxyOptions {
  Layer layer = Layer::dynamic_layer;  ///< Its tree.
  ProxyFilter filter = {};             ///< Which proxies it may pair with.
  std::uint64_t user_data = 0;         ///< A value or pointer of the caller's, never read here.
  /// Its fat-box margin; none: the broadphase's default (`FatBoxOptions::default_margin`).
  std::optional<FatMargin> margin = std::nullopt;
  bool sensor = false;  ///< A sensor: its pairs are reported as `PairKind::sensor`.
};

/// Runs `task(i)` once for every i in [0, count), on any threads, in any order, and returns
/// when all have returned: how the broadphase hands its parallel work to an engine's own task
/// system. The tasks do not throw (but for `std::bad_alloc`, which the executor should pass on
/// after the others finish) and may run concurrently with each other.
using TaskExecutor =
    std::function<void(std::size_t count, const std::function<void(std::size_t)>& task)>;

}  // namespace trisect
