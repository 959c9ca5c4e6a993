"""Slicing against `trisect slice --json`."""

import json

import numpy as np
import pytest

import trisect
from conftest import run_cli, shared_mesh


@pytest.mark.parametrize("name, normal", [("spot", (0, 0, 1)), ("teapot", (1, 2, 3))])
def test_slice_against_cli(name, normal):
    path = shared_mesh(name)
    mesh = trisect.load(path)
    along = mesh.vertices.astype(np.float64) @ np.array(normal, dtype=np.float64)
    offsets = np.linspace(along.min(), along.max(), 9)[1:-1].astype(np.float32)
    sections = mesh.slice(normal, offsets)
    expected = json.loads(
        run_cli("slice", path, "--normal", *normal, "--at", *map(repr, map(float, offsets)), "--json", "-")
    )
    assert len(sections) == len(expected["planes"]) == len(offsets)
    for contours, plane in zip(sections, expected["planes"]):
        assert len(contours) == len(plane["contours"]) > 0
        for contour, want in zip(contours, plane["contours"]):
            assert contour.closed == want["closed"]
            assert contour.triangles.tolist() == want["triangles"]
            np.testing.assert_array_equal(contour.points, np.array(want["points"], dtype=np.float32))
            assert contour.length == pytest.approx(want["length"], rel=1e-12)
            assert contour.area == pytest.approx(want["area"], rel=1e-12, abs=1e-12)


def test_unit_cube_section():
    vertices = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
    faces = [[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
             [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]]
    mesh = trisect.Mesh(vertices, np.array(faces)[:, ::-1])  # outward-facing
    [square], [], [top] = mesh.slice([0, 0, 1], [0.5, 0.0, 1.0])
    assert square.closed and square.area == 1.0 and square.length == 4.0
    assert top.area == 1.0  # a plane through the top face gives the section just below it
    with pytest.raises(ValueError, match="normal"):
        mesh.slice([0, 0, 0], [0.5])
    with pytest.raises(ValueError):
        mesh.slice([0, 0, 1], [np.nan])
