// Mesh loading: bunny_x16 (or the 1M-triangle sphere when the bunny is absent) written once as
// binary little-endian PLY and as OBJ, then read back with trisect::load_mesh. The peer for OBJ
// is `iostream_baseline`, the getline/istringstream reader a user would write in a few lines
// (bench/peers/iostream_obj_reader.hpp). Counters: triangles and bytes per second.
#include "bench_main.hpp"
#include "peers/iostream_obj_reader.hpp"
#include "scenes.hpp"

#include <trisect/io/load_mesh.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

const bench::Scene& large_scene() {
  const auto& names = bench::scene_names();
  const bool have_bunny = std::find(names.begin(), names.end(), "bunny_x16") != names.end();
  return bench::scene(have_bunny ? "bunny_x16" : "sphere_1m");
}

fs::path folder() {
  static const fs::path path = [] {
    const fs::path p = fs::temp_directory_path() / "trisect_bench_load_mesh";
    fs::create_directories(p);
    return p;
  }();
  return path;
}

// Nine significant digits: the floats read back exactly.
fs::path write_obj(const bench::Scene& scene) {
  const fs::path path = folder() / (scene.name + ".obj");
  if (fs::exists(path)) return path;
  std::FILE* file = std::fopen(path.c_str(), "w");
  for (const auto& p : scene.positions)
    std::fprintf(file, "v %.9g %.9g %.9g\n", double(p.x), double(p.y), double(p.z));
  for (std::size_t t = 0; t < scene.size(); ++t)
    std::fprintf(file, "f %u %u %u\n", scene.indices[3 * t] + 1, scene.indices[3 * t + 1] + 1,
                 scene.indices[3 * t + 2] + 1);
  std::fclose(file);
  return path;
}

fs::path write_binary_ply(const bench::Scene& scene) {
  const fs::path path = folder() / (scene.name + ".ply");
  if (fs::exists(path)) return path;
  std::ofstream out(path, std::ios::binary);
  out << "ply\nformat binary_little_endian 1.0\nelement vertex " << scene.positions.size()
      << "\nproperty float x\nproperty float y\nproperty float z\nelement face " << scene.size()
      << "\nproperty list uchar int vertex_indices\nend_header\n";
  out.write(reinterpret_cast<const char*>(scene.positions.data()),
            static_cast<std::streamsize>(scene.positions.size() * sizeof(trisect::Vec3)));
  for (std::size_t t = 0; t < scene.size(); ++t) {
    const unsigned char three = 3;
    out.write(reinterpret_cast<const char*>(&three), 1);
    out.write(reinterpret_cast<const char*>(&scene.indices[3 * t]), 12);
  }
  return path;
}

template <class Load>
void run(benchmark::State& state, const fs::path& path, std::size_t triangles, Load load) {
  for (auto _ : state) {
    const std::size_t loaded = load(path);
    if (loaded != triangles) state.SkipWithError("wrong triangle count");
    benchmark::DoNotOptimize(loaded);
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["triangles_per_second"] =
      benchmark::Counter(static_cast<double>(triangles) * iterations, benchmark::Counter::kIsRate);
  state.counters["bytes_per_second"] = benchmark::Counter(
      static_cast<double>(fs::file_size(path)) * iterations, benchmark::Counter::kIsRate);
}

}  // namespace

void bench::register_all() {
  const bench::Scene& scene = large_scene();
  const std::string prefix = "load_mesh/";
  const auto name = [&](const char* library, const char* variant) {
    return prefix + library + "/" + scene.name + "/" + variant + "/t1";
  };
  const fs::path ply = write_binary_ply(scene), obj = write_obj(scene);
  const std::size_t triangles = scene.size();
  const auto trisect_load = [](const fs::path& path) {
    return trisect::load_mesh(path).triangle_count();
  };
  benchmark::RegisterBenchmark(name("trisect", "binary_ply").c_str(),
                               [=](benchmark::State& s) { run(s, ply, triangles, trisect_load); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(name("trisect", "obj").c_str(),
                               [=](benchmark::State& s) { run(s, obj, triangles, trisect_load); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(name("iostream_baseline", "obj").c_str(),
                               [=](benchmark::State& s) {
                                 run(s, obj, triangles, [](const fs::path& path) {
                                   return bench::iostream_baseline::read_obj("obj", path).size();
                                 });
                               })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}
