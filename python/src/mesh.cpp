// The Python `Mesh`: checking and converting its arrays, building its tree.

#include "mesh.hpp"

#include "released.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/nearest/inside.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <string>

namespace trisect::python {
namespace {

// Faces as (m, 3) int64 holding exactly the integers given (`exact_integers`).
Int64Array integer_faces(py::handle faces) {
  Int64Array wide = exact_integers(faces, "faces", "a vertex index");
  if (wide.ndim() != 2 || wide.shape(1) != 3) throw py::value_error("faces: expected shape (m, 3)");
  return wide;
}

// Throws naming the first face with an index outside [0, vertex_count).
void check_range(std::span<const std::int64_t> indices, std::size_t vertex_count) {
  const auto limit = static_cast<std::int64_t>(vertex_count);
  const auto bad = std::find_if(indices.begin(), indices.end(), [limit](std::int64_t index) {
    return index < 0 || index >= limit;
  });
  if (bad == indices.end()) return;
  const auto at = static_cast<std::size_t>(bad - indices.begin());
  throw py::value_error("faces: face " + std::to_string(at / 3) + " has index " +
                        std::to_string(*bad) + ", outside [0, " + std::to_string(vertex_count) +
                        ")");
}

// The faces as uint32: the given array when it is one (C-contiguous), else a checked copy.
IndexArray uint32_faces(py::handle faces, std::size_t vertex_count) {
  if (py::isinstance<IndexArray>(faces)) {  // uint32 and C-contiguous: kept when in range
    const IndexArray same = IndexArray::ensure(faces);
    if (same && same.ndim() == 2 && same.shape(1) == 3) {
      const std::uint32_t* data = same.data();
      const auto* end = data + same.size();
      if (std::all_of(data, end, [&](std::uint32_t i) { return i < vertex_count; })) return same;
    }
  }
  const Int64Array wide = integer_faces(faces);
  const std::span<const std::int64_t> values(wide.data(), static_cast<std::size_t>(wide.size()));
  check_range(values, vertex_count);
  IndexArray narrow({wide.shape(0), py::ssize_t{3}});
  std::uint32_t* out = narrow.mutable_data();
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<std::uint32_t>(values[i]);
  return narrow;
}

}  // namespace

PyMesh::PyMesh(py::handle vertices, py::handle faces, ThreadCount threads)
    : vertices_(float_rows(vertices, 3, "vertices")),
      faces_(uint32_faces(faces, row_count(vertices_))) {
  if (row_count(vertices_) > std::numeric_limits<std::uint32_t>::max())
    throw py::value_error("vertices: more than 2^32 - 1");
  const TriangleSoup triangles = soup();
  bvh_ = run_released(threads, [&] {
    BuildOptions options;
    options.threads = static_cast<unsigned>(threads.value);
    return build(triangles, options);
  });
}

TriangleSoup PyMesh::soup() const {
  if (faces_.size() == 0) return {};
  return {as_points(vertices_),
          std::span<const std::uint32_t>(faces_.data(), static_cast<std::size_t>(faces_.size()))};
}

void PyMesh::check_closed() const {
  std::call_once(closed_checked_, [this] {
    try {
      trisect::require_closed(soup(), "mesh");
    } catch (const InvalidInput& error) {
      open_edge_ = error.what();
    }
  });
}

void PyMesh::require_closed() const {
  check_closed();
  if (!open_edge_.empty()) throw InvalidInput(open_edge_);
}

bool PyMesh::is_closed() const {
  check_closed();
  return open_edge_.empty();
}

}  // namespace trisect::python
