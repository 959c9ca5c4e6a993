// The extension module `trisect._trisect`, re-exported by the package `trisect`.

#include "bindings.hpp"
#include "errors.hpp"

PYBIND11_MODULE(_trisect, module) {
  using namespace trisect::python;
  module.doc() =
      "Exact BVH queries over triangle meshes: numpy arrays in, numpy arrays out. Every answer "
      "is what exact arithmetic on the given float32 coordinates decides; triangle ids are the "
      "rows of `faces` (0-based).";
  register_errors();
  MeshClass mesh(module, "Mesh",
                 "A triangle mesh and the BVH built over it. Queries are batched, release the "
                 "GIL, and answer in input triangle ids.");
  bind_mesh(module, mesh);
  bind_touching(mesh);
  bind_rays(mesh);
  bind_slice(module, mesh);
  bind_overlap(module, mesh);
  bind_nearest(module, mesh);
  bind_broadphase(module);
  bind_bench(module);
}
