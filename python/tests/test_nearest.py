"""Closest points, inside and signed distance against `trisect query`."""

import numpy as np
import pytest

import trisect
from conftest import grid_scene, number, query_cli, shared_mesh


def random_points(mesh, seed, count):
    low, high = (np.array(c) for c in mesh.info["bounds"])
    rng = np.random.default_rng(seed)
    return (low - 0.2 * (high - low) + 1.4 * (high - low) * rng.random((count, 3))).astype(np.float32)


def test_closest_points_against_cli(tmp_path):
    path = shared_mesh("spot")
    mesh = trisect.load(path)
    points = random_points(mesh, 31, 200)
    distance, ids, nearest = mesh.closest_points(points)
    lines = query_cli(path, ["closest " + " ".join(map(number, p)) for p in points], tmp_path)
    expected = np.array([[float(t) for t in line.split()] for line in lines])
    assert ids.tolist() == expected[:, 1].astype(int).tolist()
    np.testing.assert_allclose(distance, expected[:, 0], rtol=2e-6)
    np.testing.assert_allclose(nearest, expected[:, 2:], rtol=2e-6, atol=1e-6)
    limited = mesh.closest_points(points, max_distance=0.05)
    none = limited[1] < 0
    assert none.any() and np.all(np.isinf(limited[0][none])) and np.all(np.isnan(limited[2][none]))
    assert limited[1][~none].tolist() == ids[~none].tolist()


def test_inside_and_signed_distance_against_cli(tmp_path):
    path = shared_mesh("spot")
    mesh = trisect.load(path)
    points = np.vstack([random_points(mesh, 32, 200), mesh.vertices[:5]])
    sides = mesh.inside(points)
    lines = query_cli(path, ["inside " + " ".join(map(number, p)) for p in points], tmp_path)
    names = {trisect.OUTSIDE: "outside", trisect.INSIDE: "inside", trisect.SURFACE: "surface"}
    assert [names[s] for s in sides] == lines
    assert set(lines) == {"outside", "inside", "surface"}
    signed = mesh.signed_distance(points)
    distance = mesh.closest_points(points)[0]
    expected = np.where(sides == trisect.INSIDE, -distance, np.where(sides == trisect.SURFACE, 0, distance))
    np.testing.assert_array_equal(signed, expected)


def test_open_mesh_and_bad_points_raise():
    vertices, faces = grid_scene(33, 20)
    mesh = trisect.Mesh(vertices, faces)
    with pytest.raises(ValueError, match="not closed"):
        mesh.inside([[0, 0, 0]])
    with pytest.raises(ValueError, match="not closed"):
        mesh.signed_distance([[0, 0, 0]])
    with pytest.raises(ValueError):
        mesh.closest_points([[0, np.nan, 0]])
    with pytest.raises(ValueError):
        mesh.closest_points([[0, 0, 0]], max_distance=-1)
