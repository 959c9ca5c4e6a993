"""Rays: closest and any hits against the `trisect query` command and the barycentric point."""

import numpy as np
import pytest

import trisect
from conftest import number, query_cli, shared_mesh


def rays_towards(mesh, seed, count):
    """Rays from outside the bounds towards random points inside them (most hit)."""
    low, high = (np.array(c) for c in mesh.info["bounds"])
    rng = np.random.default_rng(seed)
    targets = low + (high - low) * rng.random((count, 3))
    origins = targets + (high - low).max() * 2 * rng.normal(size=(count, 3))
    return origins.astype(np.float32), (targets - origins).astype(np.float32)


def cli_hits(path, origins, directions, tmp_path):
    lines = ["ray " + " ".join(number(x) for x in (*o, *d)) for o, d in zip(origins, directions)]
    answers = []
    for line in query_cli(path, lines, tmp_path):
        answers.append((np.inf, -1) if line == "miss" else (float(line.split()[0]), int(line.split()[1])))
    return answers


@pytest.mark.parametrize("name", ["spot", "suzanne"])
def test_closest_hits_against_cli(name, tmp_path):
    path = shared_mesh(name)
    mesh = trisect.load(path)
    origins, directions = rays_towards(mesh, 11, 300)
    t, ids, u, v = mesh.rays(origins, directions)
    expected = cli_hits(path, origins, directions, tmp_path)
    assert ids.tolist() == [e[1] for e in expected]
    hit = ids >= 0
    assert hit.sum() > 100 and (~hit).sum() > 0
    np.testing.assert_allclose(t[hit], [e[0] for e, h in zip(expected, hit) if h], rtol=2e-6)
    assert np.all(np.isinf(t[~hit])) and np.all(u[~hit] == 0) and np.all(v[~hit] == 0)
    # The hit point (1 - u - v) a + u b + v c lies on the ray at t.
    corners = mesh.vertices[mesh.faces[ids[hit]]].astype(np.float64)
    on_triangle = (1 - u[hit] - v[hit])[:, None] * corners[:, 0] + u[hit][:, None] * corners[:, 1] + v[hit][:, None] * corners[:, 2]
    on_ray = origins[hit] + t[hit][:, None] * directions[hit]
    np.testing.assert_allclose(on_triangle, on_ray, atol=1e-4)
    assert mesh.any_hits(origins, directions).tolist() == hit.tolist()


def test_ray_bounds_per_ray_and_scalar():
    mesh = trisect.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    origins = np.array([[0.25, 0.25, 1]] * 3, dtype=np.float32)
    directions = np.array([[0, 0, -1]] * 3, dtype=np.float32)
    t, ids, _, _ = mesh.rays(origins, directions, 0.0, [0.5, 1.0, 2.0])
    assert ids.tolist() == [-1, 0, 0] and t.tolist() == [np.inf, 1.0, 1.0]
    t, ids, u, v = mesh.rays(origins[:1], directions[:1], t_min=1.0, t_max=1.0)
    assert (t[0], ids[0], u[0], v[0]) == (1.0, 0, 0.25, 0.25)
    assert mesh.any_hits(origins, directions, 1.5).tolist() == [False] * 3


@pytest.mark.parametrize(
    "origins, directions, message",
    [
        ([[0, 0, np.nan]], [[0, 0, 1]], "ray"),
        ([[0, 0, 0]], [[0, 0, 0]], "direction"),
        ([[0, 0, 0]], [[0, 0, 1], [0, 0, 1]], "directions"),
        ([[0, 0]], [[0, 0, 1]], "origins"),
    ],
)
def test_bad_rays_raise_value_error(origins, directions, message):
    mesh = trisect.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    with pytest.raises(ValueError, match=message):
        mesh.rays(origins, directions)
