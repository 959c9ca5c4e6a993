#!/usr/bin/env python3
"""The Python module beside Open3D's RaycastingScene (Embree inside), and its overhead over the
same batch in C++, in one run.

    PYTHONPATH=build/release/python python3 bench/python/bench_module.py [--count N] [--repeats R]

Scenes: bunny_x16 (the Stanford bunny subdivided twice by 1-to-4 midpoint subdivision, as the
C++ benchmarks make it: 1.1M triangles) for rays and closest points; the bunny is open (holes
in its base), so occupancy, which trisect answers only for closed meshes, runs on spot_x64
(the closed cow subdivided three times: 375k triangles). Each time is the best of R calls on
the same arrays, every library on all threads. Ratios are trisect's time over the other's:
below 1, trisect is faster. `agree` is the fraction of queries where both give the same
triangle (rays), the same distance to within 1e-5 relative (closest points) or the same
inside/outside answer (occupancy: Open3D counts crossings of one ray per point, with back
faces culled, and is not exact).

Debian 12's python3-open3d 0.16.1 (with Debian's Embree 3.13) misses every ray, even on its own
documentation's cube: its cast_rays and count_intersections answer nothing, so the rays and
occupancy ratios against it measure no work (the script says so when it happens); only the
closest points compare like with like. bench_ray (C++) compares rays with Embree directly.
"""

import argparse
import os
import pathlib
import time

import numpy as np

import trisect

MESH_DIR = pathlib.Path(os.environ.get("TRISECT_MESH_DIR") or pathlib.Path(__file__).resolve().parents[3] / "shared" / "meshes")


def subdivided(vertices, faces):
    """One 1-to-4 midpoint subdivision (triangle t becomes 4t .. 4t + 3, as the C++ scenes do)."""
    edges = np.sort(faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2), axis=1)
    unique, inverse = np.unique(edges, axis=0, return_inverse=True)
    midpoints = (0.5 * (vertices[unique[:, 0]] + vertices[unique[:, 1]])).astype(np.float32)
    ab, bc, ca = (len(vertices) + inverse.reshape(-1, 3)).T
    a, b, c = faces.T
    children = np.stack([a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca], axis=1).reshape(-1, 3)
    return np.vstack([vertices, midpoints]), children.astype(np.uint32)


def scene(name, times):
    mesh = trisect.load(MESH_DIR / f"{name}.obj")
    vertices, faces = np.array(mesh.vertices), np.array(mesh.faces)
    for _ in range(times):
        vertices, faces = subdivided(vertices, faces)
    return np.ascontiguousarray(vertices, dtype=np.float32), np.ascontiguousarray(faces)


def best(repeats, call):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def random_rays(vertices, count, rng):
    """Rays from outside the bounds towards random points inside them: Open3D's Embree culls
    back faces (rays from inside a closed mesh miss), so rays from inside would not ask both
    libraries the same question."""
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    targets = low + (high - low) * rng.random((count, 3))
    origins = targets + 2 * (high - low).max() * rng.normal(size=(count, 3))
    return origins.astype(np.float32), (targets - origins).astype(np.float32)


def random_points(vertices, count, rng):
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    return (low - 0.1 * (high - low) + 1.2 * (high - low) * rng.random((count, 3))).astype(np.float32)


def random_boxes(vertices, count, rng):
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    centres = low + (high - low) * rng.random((count, 3))
    half = 0.01 * (high - low).max()
    return np.hstack([centres - half, centres + half]).astype(np.float32)


def report(name, ours, theirs, agree=None, peer="Open3D"):
    extra = "" if agree is None else f"  agree {agree:.4f}"
    print(f"{name:34s} trisect {ours * 1e3:9.2f} ms  {peer} {theirs * 1e3:9.2f} ms  ratio {ours / theirs:5.2f}{extra}", flush=True)


def overhead(mesh, vertices, count, repeats, rng):
    """Python call over the C++ batch, same arrays, same run."""
    origins, directions = random_rays(vertices, count, rng)
    python = best(repeats, lambda: mesh.rays(origins, directions))
    cpp = trisect._trisect._cpp_seconds("rays", mesh, origins, directions, repeats)
    report(f"overhead: {count} rays", python, cpp, peer="C++")
    boxes = random_boxes(vertices, count, rng)
    python = best(repeats, lambda: mesh.boxes(boxes))
    cpp = trisect._trisect._cpp_seconds("boxes", mesh, boxes, None, repeats)
    report(f"overhead: {count} boxes", python, cpp, peer="C++")


def against_open3d(mesh, vertices, faces, count, repeats, rng):
    import open3d as o3d

    peer = o3d.t.geometry.RaycastingScene()
    peer.add_triangles(o3d.core.Tensor(vertices), o3d.core.Tensor(faces))
    origins, directions = random_rays(vertices, count, rng)
    rays = o3d.core.Tensor(np.hstack([origins, directions]))
    peer.cast_rays(rays)  # Open3D builds its Embree scene on the first query
    ours = best(repeats, lambda: mesh.rays(origins, directions))
    theirs = best(repeats, lambda: peer.cast_rays(rays))
    ids = mesh.rays(origins, directions)[1]
    other = peer.cast_rays(rays)["primitive_ids"].numpy().astype(np.int64)
    other[other == np.iinfo(np.uint32).max] = -1
    report(f"closest hit: {count} rays", ours, theirs, np.mean(ids == other))
    if np.all(other < 0) and np.any(ids >= 0):
        print("  Open3D hit nothing: its ray answers (and its occupancy, which counts ray "
              "crossings) are wrong on this system; those ratios compare no work", flush=True)
    points = random_points(vertices, count, rng)
    query = o3d.core.Tensor(points)
    ours = best(repeats, lambda: mesh.closest_points(points))
    theirs = best(repeats, lambda: peer.compute_closest_points(query))
    # Nearest points are often vertices shared by several triangles: trisect answers the
    # smallest id, Open3D any of them; compare the points' distances instead.
    distance = mesh.closest_points(points)[0]
    other = np.linalg.norm(peer.compute_closest_points(query)["points"].numpy() - points, axis=1)
    report(f"closest point: {count} points", ours, theirs, np.mean(np.isclose(distance, other, rtol=1e-5, atol=1e-7)))


def occupancy(count, repeats, rng):
    import open3d as o3d

    vertices, faces = scene("spot", 3)
    mesh = trisect.Mesh(vertices, faces)
    peer = o3d.t.geometry.RaycastingScene()
    peer.add_triangles(o3d.core.Tensor(vertices), o3d.core.Tensor(faces))
    points = random_points(vertices, count, rng)
    query = o3d.core.Tensor(points)
    peer.compute_occupancy(query)
    mesh.inside(points[:1])  # the closed check, once per mesh
    ours = best(repeats, lambda: mesh.inside(points))
    theirs = best(repeats, lambda: peer.compute_occupancy(query))
    inside = mesh.inside(points) == trisect.INSIDE
    other = peer.compute_occupancy(query).numpy() > 0.5
    report(f"occupancy (spot_x64): {count} points", ours, theirs, np.mean(inside == other))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    vertices, faces = scene("stanford-bunny", 2)
    start = time.perf_counter()
    mesh = trisect.Mesh(vertices, faces)
    print(f"bunny_x16: {len(mesh)} triangles, trisect build {time.perf_counter() - start:.2f} s", flush=True)
    overhead(mesh, vertices, args.count, args.repeats, rng)
    against_open3d(mesh, vertices, faces, args.count, args.repeats, rng)
    occupancy(args.count, args.repeats, rng)


if __name__ == "__main__":
    main()
