#!/usr/bin/env python3
"""Checks every mesh of a folder on a Dask cluster and writes one CSV.

    check_parts.py FOLDER [--scheduler ADDRESS] [--workers N] [--layers N] [--output FILE]

For each .obj, .ply and .stl file of FOLDER (sorted by name), one task on a worker: the number
of triangles, the self-intersecting triangle pairs, whether the mesh is closed (every
welded edge used by an even number of triangles), its volume (divergence theorem: the sum of
a . (b x c) / 6 over triangles, meaningful when closed and outward-facing), and the area of its
section at N layer centres along z (the sum of the closed contours' signed areas, one column
per layer). A file that cannot be read gets its error in the `error` column.

The cluster is a LocalCluster of --workers processes (one thread each) unless --scheduler names
an existing scheduler (tcp://host:8786); its workers must be able to `import trisect`. Each task
uses one thread, so the work scales with workers, not threads.
"""

import argparse
import csv
import pathlib
import sys
import time

import numpy as np

MESH_SUFFIXES = {".obj", ".ply", ".stl"}


def mesh_files(folder):
    """The mesh files of `folder`, sorted by name."""
    return sorted(p for p in pathlib.Path(folder).iterdir() if p.suffix.lower() in MESH_SUFFIXES)


def volume(mesh):
    """The signed volume enclosed, in float64 (divergence theorem)."""
    corners = mesh.vertices.astype(np.float64)[mesh.faces]
    return float(np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6)


def layer_areas(mesh, layers):
    """Per layer centre along z, the sum of the closed contours' signed areas."""
    if len(mesh) == 0:
        return [0.0] * layers
    low, high = mesh.info["bounds"][0][2], mesh.info["bounds"][1][2]
    offsets = [low + (i + 0.5) * (high - low) / layers for i in range(layers)]
    sections = mesh.slice([0, 0, 1], np.array(offsets, dtype=np.float32), threads=1)
    return [sum(c.area for c in contours if c.closed) for contours in sections]


def check_part(path, layers):
    """One row of the CSV for the mesh file `path` (runs on a worker)."""
    import trisect

    row = {"file": pathlib.Path(path).name}
    try:
        mesh = trisect.load(path, threads=1)
    except OSError as error:
        return {**row, "error": str(error)}
    row.update(
        triangles=len(mesh),
        self_intersections=len(mesh.self_intersections(threads=1)),
        closed=mesh.is_closed,
        volume=volume(mesh),
    )
    for i, area in enumerate(layer_areas(mesh, layers)):
        row[f"area_{i}"] = area
    return row


def columns(layers):
    return ["file", "triangles", "self_intersections", "closed", "volume"] + [
        f"area_{i}" for i in range(layers)
    ] + ["error"]


def write_csv(rows, layers, output):
    """The rows as CSV to `output` (a path, or '-' for stdout)."""
    stream = sys.stdout if output == "-" else open(output, "w", newline="")
    try:
        writer = csv.DictWriter(stream, fieldnames=columns(layers), restval="")
        writer.writeheader()
        writer.writerows(rows)
    finally:
        if stream is not sys.stdout:
            stream.close()


def _import_trisect():
    import trisect  # noqa: F401


def check_folder(folder, layers, scheduler=None, workers=2, timing=None):
    """The rows of every mesh of `folder`, computed on the cluster, in file order. When
    `timing` is a dict, its "checks" entry gets the seconds from the first submission to the
    last result (the cluster's start and stop left out)."""
    from dask.distributed import Client, LocalCluster

    paths = [str(p) for p in mesh_files(folder)]
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    try:
        with Client(scheduler or cluster) as client:
            client.run(_import_trisect)  # every worker imports the module before the clock starts
            started = time.perf_counter()
            # Largest files first, so that a big mesh does not start last and run alone.
            order = sorted(range(len(paths)), key=lambda i: -pathlib.Path(paths[i]).stat().st_size)
            futures = {i: client.submit(check_part, paths[i], layers, pure=False) for i in order}
            rows = [futures[i].result() for i in range(len(paths))]
            if timing is not None:
                timing["checks"] = time.perf_counter() - started
            return rows
    finally:
        if cluster is not None:
            cluster.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    parser.add_argument("--layers", type=int, default=8, help="slice layers along z (default 8)")
    parser.add_argument("--output", default="parts.csv", help="CSV file, '-' for stdout")
    args = parser.parse_args(argv)
    started, timing = time.perf_counter(), {}
    rows = check_folder(args.folder, args.layers, args.scheduler, args.workers, timing)
    write_csv(rows, args.layers, args.output)
    print(f"check_parts: {len(rows)} meshes, checks {timing['checks']:.2f} s, "
          f"{time.perf_counter() - started:.2f} s in all", file=sys.stderr)


if __name__ == "__main__":
    main()
