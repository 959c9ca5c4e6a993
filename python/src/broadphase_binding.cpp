// The `Broadphase` class: a thin layer over trisect::Broadphase, batched per call.

#include "bindings.hpp"
#include "repr.hpp"

#include <trisect/broadphase/broadphase.hpp>
#include <trisect/math/validate.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trisect::python {
namespace {

// Checked (k, 6) boxes, corners in any order; the whole batch before any change.
std::vector<Aabb> boxes_argument(py::handle boxes) {
  const FloatArray rows = float_rows(boxes, 6, "boxes");
  std::vector<Aabb> result;
  result.reserve(row_count(rows));
  for (std::size_t i = 0; i < row_count(rows); ++i) {
    const float* r = row(rows, i);
    for (int k = 0; k < 6; ++k)
      if (!std::isfinite(r[k]))
        throw py::value_error("boxes: box " + std::to_string(i) + " is not finite");
    result.push_back(Aabb::from_corners(Vec3(r[0], r[1], r[2]), Vec3(r[3], r[4], r[5])));
  }
  return result;
}

// Checked live proxy ids.
std::vector<ProxyId> ids_argument(const Broadphase& broadphase, py::handle ids) {
  const Int64Array given = exact_integers(ids, "ids", "a proxy id");
  if (given.ndim() != 1) throw py::value_error("ids: expected a (k,) array of proxy ids");
  std::vector<ProxyId> result;
  for (py::ssize_t i = 0; i < given.size(); ++i) {
    const std::int64_t id = given.data()[i];
    if (id < 0 || id > UINT32_MAX || !broadphase.is_proxy(static_cast<ProxyId>(id)))
      throw py::value_error("ids: " + std::to_string(id) + " is not a live proxy");
    result.push_back(static_cast<ProxyId>(id));
  }
  return result;
}

py::array create(Broadphase& broadphase, py::handle boxes, bool is_static, bool is_sensor) {
  const std::vector<Aabb> checked = boxes_argument(boxes);
  ProxyOptions options;
  options.layer = is_static ? Layer::static_layer : Layer::dynamic_layer;
  options.sensor = is_sensor;
  std::vector<std::int64_t> ids;
  ids.reserve(checked.size());
  for (const Aabb& box : checked) ids.push_back(broadphase.create_proxy(box, options));
  return to_numpy(std::move(ids));
}

// True where the kind is `PairKind::sensor`, as a (k,) bool array.
py::array sensor_flags(const std::vector<PairKind>& kinds) {
  py::array_t<bool> flags(static_cast<py::ssize_t>(kinds.size()));
  std::transform(kinds.begin(), kinds.end(), flags.mutable_data(),
                 [](PairKind kind) { return kind == PairKind::sensor; });
  return flags;
}

void move(Broadphase& broadphase, py::handle ids, py::handle boxes) {
  const std::vector<ProxyId> moved = ids_argument(broadphase, ids);
  const std::vector<Aabb> checked = boxes_argument(boxes);
  if (moved.size() != checked.size())
    throw py::value_error("boxes: expected one per id (" + std::to_string(moved.size()) + ")");
  for (std::size_t i = 0; i < moved.size(); ++i) broadphase.move_proxy(moved[i], checked[i]);
}

void destroy(Broadphase& broadphase, py::handle ids) {
  std::vector<ProxyId> doomed = ids_argument(broadphase, ids);
  std::sort(doomed.begin(), doomed.end());
  if (std::adjacent_find(doomed.begin(), doomed.end()) != doomed.end())
    throw py::value_error("ids: an id is given twice");
  for (const ProxyId id : doomed) broadphase.destroy_proxy(id);
}

py::array proxy_pairs(const std::vector<ProxyPair>& pairs) {
  return pairs_to_numpy(pairs, &ProxyPair::first, &ProxyPair::second);
}

// "Broadphase(3 proxies, 1 pair)": the live proxies and the pairs of the last update.
std::string broadphase_repr(const Broadphase& broadphase) {
  return "Broadphase(" + counted(broadphase.size(), "proxy", "proxies") + ", " +
         counted(broadphase.pairs().size(), "pair", "pairs") + ")";
}

}  // namespace

void bind_broadphase(py::module_& module) {
  py::class_<Broadphase>(module, "Broadphase",
                         "Pair finding for moving boxes, frame after frame: create/move/destroy "
                         "proxies, then update() reports the pairs whose boxes (closed: touching "
                         "counts) began or stopped overlapping since the previous update.")
      .def(py::init([](float margin) {
             FatBoxOptions options;
             options.margin = margin;
             return std::make_unique<Broadphase>(options);
           }),
           py::arg("margin") = FatBoxOptions{}.margin,
           "An empty broadphase; `margin` grows the trees' fat boxes on every side (speed only: "
           "answers are for the boxes given).")
      .def("create", &create, py::arg("boxes"), py::kw_only(), py::arg("static") = false,
           py::arg("sensor") = false,
           "Adds one proxy per (k, 6) box (x0, y0, z0, x1, y1, z1, corners in any order) and "
           "returns their ids (int64). Static proxies never pair with each other. Sensors "
           "(trigger volumes) pair like any proxy, and their pairs are flagged in "
           "pair_is_sensor, began_is_sensor and ended_is_sensor. Ids of proxies destroyed "
           "before the last update are reused. ValueError (nothing added) for a box that is "
           "not finite.")
      .def("move", &move, py::arg("ids"), py::arg("boxes"),
           "Gives each proxy ids[i] its new box boxes[i]. Ids are integers taken exactly. "
           "ValueError (nothing changed) for an id that is not an integer (0.9 is refused, not "
           "truncated) or not a live proxy, or a bad box.")
      .def("destroy", &destroy, py::arg("ids"),
           "Removes the proxies; their pairs are reported as ended by the next update. "
           "ValueError (nothing removed) for an id that is not live or is given twice.")
      .def(
          "update",
          [](Broadphase& self) {
            {
              py::gil_scoped_release release;
              self.update_pairs();
            }
            return py::make_tuple(proxy_pairs(self.began()), proxy_pairs(self.ended()));
          },
          "Ends the frame: (began, ended), (k, 2) int64 arrays of proxy id pairs (smaller id "
          "first, ascending) whose boxes began / stopped overlapping since the last update.")
      .def_property_readonly(
          "pairs", [](const Broadphase& self) { return proxy_pairs(self.pairs()); },
          "Every pair overlapping as of the last update, (k, 2) int64, ascending.")
      .def_property_readonly(
          "pair_is_sensor", [](const Broadphase& self) { return sensor_flags(self.pair_kinds()); },
          "For each row of pairs, True when either proxy is a sensor, (k,) bool.")
      .def_property_readonly(
          "began_is_sensor",
          [](const Broadphase& self) { return sensor_flags(self.began_kinds()); },
          "For each pair that began at the last update, True when either proxy is a sensor.")
      .def_property_readonly(
          "ended_is_sensor",
          [](const Broadphase& self) { return sensor_flags(self.ended_kinds()); },
          "For each pair that ended at the last update, True when either proxy is a sensor.")
      .def("__len__", &Broadphase::size, "Number of live proxies.")
      .def("__repr__", &broadphase_repr,
           "The number of live proxies and of pairs overlapping as of the last update.");
}

}  // namespace trisect::python
