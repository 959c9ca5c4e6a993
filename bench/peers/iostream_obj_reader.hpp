#pragma once
// The peer of bench_load_mesh for OBJ: `iostream_baseline`, the getline/istringstream reader a
// user would write in a few lines. Only a peer: the scenes themselves are read with
// trisect::load_mesh (bench/scenes.hpp).
#include "scenes/scene.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench::iostream_baseline {

using trisect::scenes::Scene;

/// Reads the vertices and faces of a Wavefront OBJ file the way a user would in a few lines
/// (getline and istringstream) (`v x y z`, `f a b c ...` with
/// `a/b/c` forms and negative indices; polygons fan-triangulated). Throws on a bad index.
inline Scene read_obj(const std::string& name, const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  Scene scene{name, {}, {}};
  std::string line, token;
  std::vector<std::uint32_t> face;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (!(words >> token)) continue;
    if (token == "v") {
      float x = 0, y = 0, z = 0;
      words >> x >> y >> z;
      scene.positions.emplace_back(x, y, z);
    } else if (token == "f") {
      face.clear();
      while (words >> token) {
        const long index = std::stol(token.substr(0, token.find('/')));
        const long count = static_cast<long>(scene.positions.size());
        const long zero_based = index < 0 ? count + index : index - 1;
        if (zero_based < 0 || zero_based >= count)
          throw std::runtime_error(path.string() + ": bad vertex index in: " + line);
        face.push_back(static_cast<std::uint32_t>(zero_based));
      }
      for (std::size_t k = 2; k < face.size(); ++k)
        scene.indices.insert(scene.indices.end(), {face[0], face[k - 1], face[k]});
    }
  }
  return scene;
}

}  // namespace bench::iostream_baseline
