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


def splitmix_float(k):
    """The k-th SplitMix64 number (Steele, Lea & Flood) as the float in [-1, 1) the C++ retries used."""
    mask = (1 << 64) - 1
    z = (0x9E3779B97F4A7C15 * (k + 1)) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return np.float32((z >> 40) * 2.0**-23 - 1.0)


def box_triangles(low, high):
    """The 12 triangles of the box [low, high]^3, as (12, 3, 3) corners."""
    corner = lambda i: [high if i & bit else low for bit in (1, 2, 4)]
    quads = [(0, 4, 6, 2), (1, 3, 7, 5), (0, 1, 5, 4), (2, 6, 7, 3), (0, 2, 3, 1), (4, 5, 7, 6)]
    return [[corner(q[0]), corner(q[k]), corner(q[k + 1])] for q in quads for k in (1, 2)]


def retry_trap(nested):
    """The box [-8, 8]^3 (and [-2, 2]^3 within it when nested), with a small tetrahedron whose
    apex is exactly on each of the 1000 rays `inside` tried in turn from the origin before it
    perturbed its one ray (issue 35): (-1, t, t') scaled by 4, t and t' SplitMix64 tilts below
    1/16. The mesh is closed; every ray of the old retries meets a vertex."""
    triangles = box_triangles(-8, 8) + (box_triangles(-2, 2) if nested else [])
    h = 2.0**-10
    for k in range(1000):
        tilts = [np.float32(0.0625) * splitmix_float(2 * k + i) for i in (0, 1)]
        apex = np.float32(4) * np.array([-1, *tilts], dtype=np.float32)  # exact
        a, b, c, d = (apex + np.float32(offset) for offset in ([0, 0, 0], [-h, h, 0], [-h, -h, h], [-h, -h, -h]))
        triangles += [[a, b, c], [a, d, b], [b, d, c], [c, d, a]]
    vertices = np.array(triangles, dtype=np.float32).reshape(-1, 3)
    return vertices, np.arange(len(vertices), dtype=np.int64).reshape(-1, 3)


@pytest.mark.parametrize("nested", [False, True])
def test_inside_on_the_mesh_that_trapped_the_retries(nested):
    mesh = trisect.Mesh(*retry_trap(nested))
    sides = mesh.inside(np.float32([[0, 0, 3], [9, 0, 0], [0, 0, 0], [8, 0, 0]]))
    origin = trisect.OUTSIDE if nested else trisect.INSIDE
    assert sides.tolist() == [trisect.INSIDE, trisect.OUTSIDE, origin, trisect.SURFACE]


def test_one_rule_for_closed():
    """Two tetrahedra sharing an edge (four triangles on it): closed by the one rule that
    `trisect info`, inside() and is_closed share, though not manifold; a missing face opens it."""
    vertices = np.array(
        [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0.5, 1], [0, -1, 0], [0, -0.5, -1]], dtype=np.float32
    )
    faces = np.array(
        [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3], [0, 1, 4], [0, 5, 1], [0, 4, 5], [1, 5, 4]],
        dtype=np.uint32,
    )
    pair = trisect.Mesh(vertices, faces)
    assert pair.is_closed
    points = np.array([[0.1, 0.2, 0.2], [0.1, -0.2, -0.2], [5, 5, 5]], dtype=np.float32)
    assert pair.inside(points).tolist() == [trisect.INSIDE, trisect.INSIDE, trisect.OUTSIDE]
    opened = trisect.Mesh(vertices, faces[:-1])
    assert not opened.is_closed
    with pytest.raises(ValueError, match="not closed"):
        opened.inside(points)


def test_k_nearest_against_cli(tmp_path):
    path = shared_mesh("spot")
    mesh = trisect.load(path)
    points = random_points(mesh, 35, 150)
    distance, ids, offsets = mesh.k_nearest(points, 6)
    assert offsets.tolist() == list(range(0, 6 * len(points) + 1, 6))
    lines = query_cli(path, ["nearest 6 " + " ".join(map(number, p)) for p in points], tmp_path)
    for i, line in enumerate(lines):
        tokens = line.split()
        assert ids[offsets[i]:offsets[i + 1]].tolist() == [int(t) for t in tokens[1::2]]
        np.testing.assert_allclose(distance[offsets[i]:offsets[i + 1]], [float(t) for t in tokens[0::2]], rtol=2e-6)
    first_distance, first_ids, _ = mesh.closest_points(points)
    assert ids[offsets[:-1]].tolist() == first_ids.tolist()
    np.testing.assert_array_equal(distance[offsets[:-1]], first_distance)
    assert np.all(np.diff(distance.reshape(-1, 6), axis=1) >= 0)


def test_k_nearest_limits_ties_and_errors():
    # Two triangles sharing the edge x = 0 in z = 0, and one in z = 2: the origin is at distance
    # 0 from the first two (ids 0, 1 in order) and 2 from the third.
    mesh = trisect.Mesh([[0, -1, 0], [0, 1, 0], [1, 0, 0], [-1, 0, 0], [-1, -1, 2], [1, -1, 2], [0, 1, 2]],
                        [[0, 1, 2], [1, 0, 3], [4, 5, 6]])
    distance, ids, offsets = mesh.k_nearest([[0, 0, 0], [0, 0, 5]], 5)
    assert ids.tolist() == [0, 1, 2, 2, 0, 1] and offsets.tolist() == [0, 3, 6]
    assert distance.tolist() == [0.0, 0.0, 2.0, 3.0, 5.0, 5.0]
    distance, ids, offsets = mesh.k_nearest([[0, 0, 0], [0, 0, 5]], 3, max_distance=2)
    assert ids.tolist() == [0, 1, 2] and offsets.tolist() == [0, 3, 3]
    with pytest.raises(ValueError, match="k is 0"):
        mesh.k_nearest([[0, 0, 0]], 0)
    with pytest.raises(ValueError):
        mesh.k_nearest([[0, np.inf, 0]], 2)
    with pytest.raises(ValueError):
        mesh.k_nearest([[0, 0, 0]], 2, max_distance=np.nan)
