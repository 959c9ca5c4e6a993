#pragma once
// trisect's side of the broadphase benchmark: a trisect::Broadphase over a scenario's boxes
// (bench/broadphase.cpp), its static boxes in Layer::static_layer, the others in the dynamic
// layer, all created as one batch as a loaded scene is (Broadphase::create_proxies: the same ids
// as one at a time, each layer's tree built by the binned SAH). A frame: move_proxy for the
// movers (the displacement is the scenario's), update_pairs (begin/end events and the sorted
// pair list), the number of pairs.
#include <trisect/broadphase/broadphase.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

class TrisectBroadphase {
 public:
  template <class Scenario>
  explicit TrisectBroadphase(const Scenario& boxes) {
    std::vector<trisect::Aabb> all(boxes.size());
    std::vector<trisect::ProxyOptions> options(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      all[i] = boxes.box(i);
      if (boxes.is_static(i)) options[i].layer = trisect::Layer::static_layer;
    }
    ids_ = broadphase_.create_proxies(all, options);
    broadphase_.update_pairs();
  }

  template <class Scenario>
  std::size_t step(const Scenario& boxes) {
    for (const std::uint32_t i : boxes.movers)
      broadphase_.move_proxy(ids_[i], boxes.box(i), boxes.displacement(i));
    broadphase_.update_pairs();
    return broadphase_.pairs().size();
  }

  [[nodiscard]] const trisect::Broadphase& broadphase() const { return broadphase_; }

 private:
  trisect::Broadphase broadphase_;
  std::vector<trisect::ProxyId> ids_;
};

}  // namespace bench
