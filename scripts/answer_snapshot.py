#!/usr/bin/env python3
"""Answers of `trisect query`, `slice` and `overlap` on every shared mesh for a fixed set of
generated queries, planes and transforms.

Used to show that a refactoring changes no answer: run it before and after with the two
binaries and compare the folders byte for byte (`diff -r`). Queries are seeded, so every run
writes the same query files. Ties are included: boxes and planes through vertices, spheres
whose radius reaches a vertex exactly, rays aimed at vertices. Slices: layers along each axis
and an oblique normal, and planes through vertices (JSON, with triangle ids, lengths and
areas). Overlaps: each mesh against itself moved by a fraction of its size and turned, and
with itself (--self). Distances: each mesh against itself moved beside itself (apart), and
moved by a fraction of its size (touching).

  scripts/answer_snapshot.py TRISECT_BINARY OUT_DIR [--mesh-dir DIR] [--count N]
"""
import argparse
import os
import pathlib
import random
import subprocess
import sys


def read_vertices(path):
    """Vertex positions from an OBJ's 'v' lines (other formats: none, and the queries fall
    back to a unit cube); the generator only needs them to aim queries at the mesh."""
    vertices = []
    if path.suffix == ".obj":
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("v "):
                    parts = line.split()
                    try:
                        vertices.append(tuple(float(x) for x in parts[1:4]))
                    except ValueError:
                        pass
    return vertices


def queries_for(vertices, count, rng):
    if not vertices:
        vertices = [(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(100)]
    lo = [min(v[i] for v in vertices) for i in range(3)]
    hi = [max(v[i] for v in vertices) for i in range(3)]
    size = max(hi[i] - lo[i] for i in range(3)) or 1.0
    lines = []
    for k in range(count):
        kind = k % 4
        v = rng.choice(vertices)
        if kind == 0:  # box, half of them with a face through a vertex
            h = [rng.uniform(0, 0.05) * size for _ in range(3)]
            c = [rng.uniform(lo[i], hi[i]) for i in range(3)]
            if k % 8 == 0:
                c0 = list(v)
                lines.append("box %r %r %r %r %r %r" % (c0[0], c0[1], c0[2], c0[0] + h[0], c0[1] + h[1], c0[2] + h[2]))
            else:
                lines.append("box %r %r %r %r %r %r" % (c[0] - h[0], c[1] - h[1], c[2] - h[2], c[0] + h[0], c[1] + h[1], c[2] + h[2]))
        elif kind == 1:  # plane, axis-aligned through a vertex or oblique
            if k % 8 == 1:
                axis = rng.randrange(3)
                n = [0, 0, 0]
                n[axis] = 1
                lines.append("plane %d %d %d %r" % (n[0], n[1], n[2], v[axis]))
            else:
                n = [rng.uniform(-1, 1) for _ in range(3)]
                d = sum(n[i] * rng.uniform(lo[i], hi[i]) for i in range(3))
                lines.append("plane %r %r %r %r" % (n[0], n[1], n[2], d))
        elif kind == 2:  # sphere
            c = [rng.uniform(lo[i], hi[i]) for i in range(3)]
            if k % 8 == 2:
                r = sum((c[i] - v[i]) ** 2 for i in range(3)) ** 0.5
            else:
                r = rng.uniform(0, 0.1) * size
            lines.append("sphere %r %r %r %r" % (c[0], c[1], c[2], r))
        else:  # ray from outside, aimed at a vertex or a random point
            o = [rng.uniform(lo[i] - size, hi[i] + size) for i in range(3)]
            target = v if k % 8 == 3 else [rng.uniform(lo[i], hi[i]) for i in range(3)]
            d = [target[i] - o[i] for i in range(3)]
            if all(x == 0 for x in d):
                d = [0, 0, 1]
            lines.append("ray %r %r %r %r %r %r" % (o[0], o[1], o[2], d[0], d[1], d[2]))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("out_dir")
    here = pathlib.Path(__file__).resolve().parent.parent
    parser.add_argument("--mesh-dir", default=os.environ.get("TRISECT_MESH_DIR", str(here.parent / "shared" / "meshes")))
    parser.add_argument("--count", type=int, default=4000)
    args = parser.parse_args()
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meshes = sorted(p for p in pathlib.Path(args.mesh_dir).iterdir() if p.suffix in (".obj", ".ply", ".stl"))
    for mesh in meshes:
        rng = random.Random(mesh.name)
        vertices = read_vertices(mesh)
        query_file = out / (mesh.name + ".queries")
        query_file.write_text("\n".join(queries_for(vertices, args.count, rng)) + "\n")
        runs = {"answers": ["query", str(mesh), str(query_file)]}
        runs.update(slice_runs(mesh, vertices, rng))
        runs.update(overlap_runs(mesh, vertices))
        for name, arguments in runs.items():
            with open(out / (mesh.name + "." + name), "wb") as answers:
                status = subprocess.run([args.binary] + arguments, stdout=answers,
                                        stderr=subprocess.DEVNULL).returncode
            print("%-24s %-16s exit %d" % (mesh.name, name, status))
            if status != 0:
                sys.exit(1)


def slice_runs(mesh, vertices, rng):
    """Slices of `mesh`: 25 layers along each axis and one oblique normal, and planes through
    vertices along z (the JSON holds triangle ids, lengths and areas too)."""
    runs = {}
    for axis in "xyz":
        runs["slice_" + axis] = ["slice", str(mesh), "--axis", axis, "--layers", "25", "--json", "-"]
    runs["slice_oblique"] = ["slice", str(mesh), "--normal", "0.3", "-0.5", "0.8", "--layers", "25",
                             "--json", "-"]
    if vertices:
        through = sorted({rng.choice(vertices)[2] for _ in range(8)})
        runs["slice_vertices"] = ["slice", str(mesh), "--axis", "z", "--at"] + ["%r" % z for z in through] + [
            "--json", "-"]
    return runs


def overlap_runs(mesh, vertices):
    """The mesh against itself moved by a tenth of its size and turned about z, and --self;
    its distance to itself so moved, and moved by 1.25 times its size along x."""
    size = 1.0
    if vertices:
        size = max(max(v[i] for v in vertices) - min(v[i] for v in vertices) for i in range(3)) or 1.0
    shift = "%r" % (0.1 * size)
    turned = ["0.8", "-0.6", "0", shift, "0.6", "0.8", "0", "0", "0", "0", "1", shift]
    apart = ["1", "0", "0", "%r" % (1.25 * size), "0", "1", "0", "0", "0", "0", "1", "0"]
    return {"overlap_moved": ["overlap", str(mesh), str(mesh), "--transform"] + turned,
            "overlap_self": ["overlap", str(mesh), "--self"],
            "distance_apart": ["distance", str(mesh), str(mesh), "--transform"] + apart,
            "distance_touching": ["distance", str(mesh), str(mesh), "--transform"] + turned}


if __name__ == "__main__":
    main()
