#pragma once
// Seeded procedural scenes shared by the tests and the benchmarks. The same arguments give the
// same scene bit for bit on every run.
#include "scenes/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>

namespace trisect::scenes {

/// A float uniform in [low, high) drawn from `random`.
[[nodiscard]] float uniform(std::mt19937_64& random, float low, float high);

/// Sets `axes` to the columns of the rotation of the quaternion (w, x, y, z) (any non-zero
/// length), computed in double and each rounded to float: nearly orthonormal, as a physics
/// engine's are.
void set_rotation(Vec3 (&axes)[3], double w, double x, double y, double z);

/// An int uniform in [low, high] (both included) drawn from `random`.
[[nodiscard]] int lattice(std::mt19937_64& random, int low, int high);

/// `count` small random triangles (each vertex within 1 of its centre per axis) with centres
/// uniform in [-10, 10]^3; a plain soup named "random_soup".
[[nodiscard]] Scene random_soup(std::size_t count, std::uint64_t seed);

/// `count` triangles with integer vertices in [-6, 6]^3 (many shared vertices, exact ties with
/// lattice queries), one in eight degenerate (repeated or collinear vertices); "lattice_soup".
[[nodiscard]] Scene lattice_soup(std::size_t count, std::uint64_t seed);

/// A closed sphere of radius ~5 by `rings` latitudes and `segments` longitudes with radial
/// noise of up to 0.2, as a plain soup of 2 * rings * segments triangles; "noisy_sphere".
[[nodiscard]] Scene noisy_sphere(int rings, int segments, std::uint64_t seed);

/// `count` needle triangles (one edge 1e-4 long, the others up to ~14) in [-4, 4]^3; "needles".
[[nodiscard]] Scene needles(std::size_t count, std::uint64_t seed);

/// `scene` scaled by `scale` and moved by `offset` (rounded to float), `suffix` added to its name.
[[nodiscard]] Scene transformed(Scene scene, float scale, Vec3 offset, const std::string& suffix);

/// The six faces of the cube [-1, 1]^3 split into n x n quads (2 triangles each), every lattice
/// vertex pushed onto the sphere of radius 5 and moved radially by up to +-2% (a hash of the
/// vertex, so shared vertices stay shared): a closed indexed mesh of 12 n^2 triangles.
[[nodiscard]] Scene cube_sphere(const std::string& name, std::uint32_t n);

/// `count` random triangles, 3 own (indexed) vertices each: centres uniform in [-10, 10]^3,
/// each vertex within +-h of its centre per axis, h = 20 / cbrt(count) the mean spacing of the
/// centres (so the overlap between triangles does not grow with the count).
[[nodiscard]] Scene spaced_soup(const std::string& name, std::size_t count, std::uint64_t seed);

/// Each triangle of the indexed `input` split into 4 at its edge midpoints, which the two
/// triangles of an edge share.
[[nodiscard]] Scene subdivided(const Scene& input, const std::string& name);

}  // namespace trisect::scenes
