"""Overlap, self-intersections, clearance and mesh distance against the `trisect` command."""

import numpy as np
import pytest

import trisect
from conftest import grid_scene, run_cli, shared_mesh, write_obj

TRANSFORM = [0, -1, 0, 0.125, 1, 0, 0, 0.25, 0, 0, 1, -0.5]


def cli_pairs(*args, command="overlap"):
    return [[int(t) for t in line.split()] for line in run_cli(command, *args).splitlines()]


@pytest.fixture
def two_grids(tmp_path):
    first, second = grid_scene(21, 200), grid_scene(22, 200)
    paths = [write_obj(tmp_path / f"{i}.obj", *scene) for i, scene in enumerate((first, second))]
    return trisect.Mesh(*first), trisect.Mesh(*second), paths


def test_overlap_against_cli(two_grids):
    a, b, (path_a, path_b) = two_grids
    pairs = trisect.overlap(a, b)
    assert pairs.shape[1] == 2 and len(pairs) > 10
    assert pairs.tolist() == cli_pairs(path_a, path_b)
    moved = trisect.overlap(a, b, np.reshape(TRANSFORM, (3, 4)), threads=1)
    assert moved.tolist() == cli_pairs(path_a, path_b, "--transform", *TRANSFORM)


def test_self_intersections_against_cli(two_grids):
    a, _, (path_a, _) = two_grids
    assert a.self_intersections().tolist() == cli_pairs(path_a, "--self")
    spot = shared_mesh("spot")
    assert trisect.load(spot).self_intersections().tolist() == cli_pairs(spot, "--self")


def test_mesh_distance_against_cli(two_grids, tmp_path):
    a, _, (path_a, _) = two_grids
    far = trisect.Mesh(*grid_scene(23, 50))
    far_path = write_obj(tmp_path / "far.obj", *grid_scene(23, 50))
    shift = [1, 0, 0, 40, 0, 1, 0, 0, 0, 0, 1, 0]
    distance, i, j = trisect.mesh_distance(a, far, shift)
    d, ci, cj = run_cli("distance", path_a, far_path, "--transform", *shift).split()
    assert (i, j) == (int(ci), int(cj)) and distance == pytest.approx(float(d), rel=1e-6)
    assert distance > 0
    empty = trisect.Mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=int))
    assert trisect.mesh_distance(a, empty) is None


def test_bad_transform_raises(two_grids):
    a, b, _ = two_grids
    with pytest.raises(ValueError, match="transform"):
        trisect.overlap(a, b, [1, 0, 0])
    with pytest.raises(ValueError):
        trisect.overlap(a, b, [np.nan] * 12)


def test_pairs_within_against_cli(two_grids):
    a, b, (path_a, path_b) = two_grids
    pairs = a.pairs_within(b, 0.05)
    assert pairs.shape[1] == 2 and len(pairs) > len(trisect.overlap(a, b))
    assert pairs.tolist() == cli_pairs(path_a, path_b, "0.05", command="clearance")
    moved = a.pairs_within(b, 0.05, np.reshape(TRANSFORM, (3, 4)), threads=1)
    assert moved.tolist() == cli_pairs(
        path_a, path_b, "0.05", "--transform", *TRANSFORM, command="clearance"
    )
    # Distance 0: the pairs that touch.
    assert a.pairs_within(b, 0.0).tolist() == trisect.overlap(a, b).tolist()


def test_self_pairs_within_against_cli(two_grids):
    a, _, (path_a, _) = two_grids
    pairs = a.self_pairs_within(0.1)
    assert pairs.tolist() == cli_pairs(path_a, "--self", "0.1", command="clearance")
    assert all(i < j for i, j in pairs.tolist())


def test_bad_distance_raises(two_grids):
    a, b, _ = two_grids
    for bad in (-1.0, float("nan"), float("inf"), 1e39):
        with pytest.raises(ValueError, match="distance"):
            a.pairs_within(b, bad)
        with pytest.raises(ValueError, match="distance"):
            a.self_pairs_within(bad)
