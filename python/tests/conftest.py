"""Shared helpers of the Python tests: the `trisect` command (the C++ answers), the shared
meshes, and small seeded scenes whose coordinates are multiples of 1/8 (so that numpy's float64
brute force is exact on them)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

SOURCE_DIR = pathlib.Path(
    os.environ.get("TRISECT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2])
)
MESH_DIR = pathlib.Path(os.environ.get("TRISECT_MESH_DIR") or SOURCE_DIR / ".." / "shared" / "meshes")


def command():
    """The `trisect` program of this build (TRISECT_COMMAND, set by CTest)."""
    path = os.environ.get("TRISECT_COMMAND")
    if not path:
        pytest.skip("TRISECT_COMMAND is not set (run through ctest)")
    return path


def run_cli(*args):
    """stdout of `trisect ARGS...`; fails the test on a non-zero exit."""
    done = subprocess.run([command(), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def shared_mesh(name):
    """Path of a shared mesh, or skip when the folder is absent."""
    path = MESH_DIR / f"{name}.obj"
    if not path.is_file():
        pytest.skip(f"no shared mesh {path}")
    return path


def grid_scene(seed, triangles=300, extent=16):
    """A seeded soup of (3 * triangles, 3) float32 vertices on a 1/8 grid, faces 0..3n-1."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(0, 8 * extent, size=(triangles, 1, 3))
    offsets = rng.integers(-24, 25, size=(triangles, 3, 3))
    vertices = ((centres + offsets) / 8.0).reshape(-1, 3).astype(np.float32)
    faces = np.arange(3 * triangles, dtype=np.int64).reshape(-1, 3)
    return vertices, faces


def write_obj(path, vertices, faces):
    """An OBJ file of the arrays (float32 values written exactly with repr of their doubles)."""
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(vertices, dtype=np.float64)]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(faces)]
    path.write_text("\n".join(lines) + "\n")
    return path


def query_cli(mesh_path, lines, tmp_path):
    """The `trisect query` answer lines for the query lines given."""
    query_file = tmp_path / "queries.txt"
    query_file.write_text("\n".join(lines) + "\n")
    return run_cli("query", mesh_path, query_file).splitlines()


def csr_rows(ids, offsets):
    """CSR answers as lists of lists."""
    return [ids[offsets[i] : offsets[i + 1]].tolist() for i in range(len(offsets) - 1)]


def number(x):
    """A float32 value as exact decimal text for a query file."""
    return repr(float(np.float32(x)))


@pytest.fixture
def grid(tmp_path):
    """A grid scene, its Mesh, and its OBJ file."""
    import trisect

    vertices, faces = grid_scene(7)
    return vertices, faces, trisect.Mesh(vertices, faces), write_obj(tmp_path / "grid.obj", vertices, faces)
