#pragma once
// The Python `Mesh`: the caller's arrays, kept, and the BVH built over them.

#include "array_views.hpp"
#include "released.hpp"

#include <trisect/bvh/bvh.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include <cstdint>
#include <mutex>
#include <string>

namespace trisect::python {

/// A C-contiguous uint32 array.
using IndexArray = py::array_t<std::uint32_t, py::array::c_style>;

/// A triangle mesh: (n, 3) float32 vertices and (m, 3) uint32 faces, the arrays given when they
/// already have that dtype and are C-contiguous (kept, not copied: they must not be changed
/// while the mesh lives), converted copies otherwise; and the BVH over them.
class PyMesh {
 public:
  /// Checks and converts the arrays (`py::value_error` for a bad shape, non-integer faces or an
  /// index out of [0, n)), then builds the BVH on `threads` threads (0: all) without the GIL
  /// (`ValueError` for NaN or infinite coordinates in a used vertex).
  PyMesh(py::handle vertices, py::handle faces, ThreadCount threads);

  /// The vertices, (n, 3) float32.
  [[nodiscard]] const FloatArray& vertices() const noexcept { return vertices_; }
  /// The faces, (m, 3) uint32.
  [[nodiscard]] const IndexArray& faces() const noexcept { return faces_; }
  /// A view of the triangles (an empty view when there are none).
  [[nodiscard]] TriangleSoup soup() const;
  /// The BVH.
  [[nodiscard]] const Bvh& bvh() const noexcept { return bvh_; }
  /// Throws `InvalidInput` naming one open edge unless the mesh is closed (`find_open_edge`);
  /// computed once. Call without the GIL.
  void require_closed() const;
  /// True when the mesh is closed (see `require_closed`). Call without the GIL.
  [[nodiscard]] bool is_closed() const;

 private:
  FloatArray vertices_;
  IndexArray faces_;
  Bvh bvh_;
  // Finds the open edge once (`open_edge_`).
  void check_closed() const;

  mutable std::once_flag closed_checked_;
  mutable std::string open_edge_;  // the error message, empty when closed
};

}  // namespace trisect::python
