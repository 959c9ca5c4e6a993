#!/usr/bin/env python3
"""How examples/python/check_parts.py scales with Dask workers on this machine.

    PYTHONPATH=build/release/python python3 bench/python/dask_scaling.py [--copies 3] [--runs 3]

Writes a folder of parts in a temporary directory (each shared mesh subdivided once by 1-to-4
midpoint subdivision, --copies times: 21 meshes from the 7 shared ones, 475k triangles in all),
then checks it with a LocalCluster of 1 worker and of 2 workers (one thread each), --runs
times alternately, and prints the time of the checks (the cluster's start left out) and the
speed-up: the best 1-worker time over the best 2-worker time. Then, as a check that does not
depend on what else runs on the machine, the tasks' CPU times one after the other and the
speed-up two workers with a core each would reach, scheduled largest first.
"""

import argparse
import os
import pathlib
import sys
import tempfile
import time

import numpy as np

import trisect

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE_DIR = HERE.parents[1] / "examples" / "python"
sys.path.insert(0, str(EXAMPLE_DIR))
sys.path.insert(0, str(HERE))
# The workers are new processes: they find check_parts (whose function the tasks name) by the
# environment's path.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(EXAMPLE_DIR), os.environ.get("PYTHONPATH")]))
import check_parts  # noqa: E402
from bench_module import MESH_DIR, subdivided  # noqa: E402


def write_obj(path, vertices, faces):
    with open(path, "w") as out:
        np.savetxt(out, vertices, fmt="v %.9g %.9g %.9g")
        np.savetxt(out, faces + 1, fmt="f %d %d %d")


def make_parts(folder, copies):
    total = 0
    for source in sorted(MESH_DIR.glob("*.obj")):
        mesh = trisect.load(source)
        vertices, faces = subdivided(np.array(mesh.vertices), np.array(mesh.faces).astype(np.int64))
        for copy in range(copies):
            write_obj(folder / f"{source.stem}_{copy}.obj", vertices, faces)
            total += len(faces)
    return total


def ideal_two_workers(folder, layers):
    """The CPU seconds of every task run serially here, and the time two workers would take
    running them largest first (as check_folder submits them) if each had a core of its own."""
    seconds = []
    for path in sorted(check_parts.mesh_files(folder), key=lambda p: -p.stat().st_size):
        start = time.process_time()
        check_parts.check_part(str(path), layers)
        seconds.append(time.process_time() - start)
    workers = [0.0, 0.0]
    for task in seconds:
        workers[workers.index(min(workers))] += task
    return sum(seconds), max(workers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--layers", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        triangles = make_parts(pathlib.Path(folder), args.copies)
        count = len(check_parts.mesh_files(folder))
        print(f"{count} meshes, {triangles} triangles", flush=True)
        seconds = {1: [], 2: []}
        rows = {}
        for _ in range(args.runs):
            for workers in (1, 2):
                timing = {}
                rows[workers] = check_parts.check_folder(folder, args.layers, None, workers, timing)
                seconds[workers].append(timing["checks"])
                print(f"  {workers} worker(s): checks {timing['checks']:.2f} s", flush=True)
        assert rows[1] == rows[2], "the answers depend on the number of workers"
        print(f"speed-up of 2 workers over 1: {min(seconds[1]) / min(seconds[2]):.2f} "
              f"(best {min(seconds[1]):.2f} s / {min(seconds[2]):.2f} s); load average "
              f"{os.getloadavg()[0]:.2f}")
        total, makespan = ideal_two_workers(folder, args.layers)
        print(f"on free cores: the tasks take {total:.2f} s of CPU one after the other; largest "
              f"first on 2 workers, {makespan:.2f} s: at most {total / makespan:.2f} times faster")


if __name__ == "__main__":
    main()
