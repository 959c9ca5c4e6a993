"""Mesh construction and loading: conversions, the no-copy rule, info, and bad input."""

import numpy as np
import pytest

import trisect
from conftest import run_cli, shared_mesh

TRIANGLE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)


def test_float32_contiguous_vertices_are_not_copied():
    vertices = np.ascontiguousarray(TRIANGLE)
    faces = np.array([[0, 1, 2]], dtype=np.uint32)
    mesh = trisect.Mesh(vertices, faces)
    assert mesh.vertices is vertices
    assert mesh.vertices.__array_interface__["data"][0] == vertices.__array_interface__["data"][0]
    assert mesh.faces is faces


def test_other_dtypes_are_converted():
    vertices = TRIANGLE.astype(np.float64)
    mesh = trisect.Mesh(vertices, [[0, 1, 2]])
    assert mesh.vertices.dtype == np.float32 and not np.shares_memory(mesh.vertices, vertices)
    assert mesh.faces.dtype == np.uint32 and mesh.faces.tolist() == [[0, 1, 2]]
    fortran = np.asfortranarray(np.vstack([TRIANGLE, TRIANGLE]))
    assert trisect.Mesh(fortran, np.array([[3, 4, 5]], dtype=np.int16)).vertices.flags.c_contiguous
    assert len(trisect.Mesh(TRIANGLE.tolist(), [[0, 1, 2]])) == 1


def test_info():
    mesh = trisect.Mesh(TRIANGLE, [[0, 1, 2], [2, 1, 0]])
    info = mesh.info
    assert (info["triangles"], info["vertices"], info["leaves"]) == (2, 3, 1)
    assert info["bounds"] == ((0.0, 0.0, 0.0), (1.0, 1.0, 0.0))
    # One node over one leaf of two triangles, both boxes the unit square (relative area 1): the
    # node costs 1, the leaf 2 per triangle and 4 per lane of its group of four.
    assert (info["sah_cost"], info["sah_cost_lanes"]) == (3.0, 5.0)
    empty = trisect.Mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=int))
    assert len(empty) == 0 and empty.info["bounds"] is None
    assert empty.boxes([0, 0, 0, 1, 1, 1]).tolist() == []


def test_load_matches_cli_counts():
    path = shared_mesh("cow")
    mesh = trisect.load(path)
    info = run_cli("info", path)
    assert str(len(mesh)) in info
    assert mesh.vertices.shape[1] == 3 and mesh.faces.shape == (len(mesh), 3)


@pytest.mark.parametrize(
    "vertices, faces, message",
    [
        (np.array([[0, 0, np.nan], [1, 0, 0], [0, 1, 0]]), [[0, 1, 2]], "finite|NaN|nan"),
        (TRIANGLE, [[0, 1, 3]], "index 3, outside"),
        (TRIANGLE, [[0, -1, 2]], "index -1"),
        (TRIANGLE, [[0, 1]], "faces: expected shape"),
        (TRIANGLE[:, :2], [[0, 1, 2]], "vertices: expected shape"),
        (TRIANGLE, [[0.0, 1.0, 2.0]], "faces: expected integers"),
        ("text", [[0, 1, 2]], "vertices"),
    ],
)
def test_bad_meshes_raise_value_error(vertices, faces, message):
    with pytest.raises(ValueError, match=message):
        trisect.Mesh(vertices, faces)


def test_files_raise_os_error(tmp_path):
    with pytest.raises(OSError, match="missing.obj"):
        trisect.load(tmp_path / "missing.obj")
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")
    with pytest.raises(OSError, match="bad.obj:4"):
        trisect.load(str(bad))
