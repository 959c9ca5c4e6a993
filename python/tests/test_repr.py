"""repr of Mesh, Contour and Broadphase: counts, bounds and measures in their shortest exact
form (numbers that read back to the same float32 or double)."""

import numpy as np

import trisect

TETRAHEDRON = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
OUTWARD_FACES = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]


def test_mesh_repr():
    assert repr(trisect.Mesh(TETRAHEDRON, OUTWARD_FACES)) == (
        "Mesh(4 triangles, bounds [0, 0, 0] to [1, 1, 1])"
    )
    assert repr(trisect.Mesh(TETRAHEDRON, OUTWARD_FACES[:1])) == (
        "Mesh(1 triangle, bounds [0, 0, 0] to [1, 1, 0])"
    )
    empty = trisect.Mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=int))
    assert repr(empty) == "Mesh(0 triangles, no bounds)"


def test_mesh_repr_bounds_read_back_exactly():
    vertices = TETRAHEDRON * np.float32(0.1) - np.float32(2.5e-7)
    mesh = trisect.Mesh(vertices, OUTWARD_FACES)
    assert repr(mesh) == (
        "Mesh(4 triangles, bounds [-2.5e-07, -2.5e-07, -2.5e-07] to [0.09999975, 0.09999975, "
        "0.09999975])"
    )
    low, high = mesh.info["bounds"]
    assert np.float32("0.09999975") == np.float32(high[0])
    assert np.float32("-2.5e-07") == np.float32(low[0])


def test_contour_repr():
    mesh = trisect.Mesh(TETRAHEDRON, OUTWARD_FACES)
    (closed,), (half,) = mesh.slice([0, 0, 1], [0.5, 0.75])
    assert repr(closed) == "Contour(closed, 3 points, length 1.7071067811865475, area 0.125)"
    assert repr(half) == "Contour(closed, 3 points, length 0.8535533905932737, area 0.03125)"
    (open_contour,), = trisect.Mesh(TETRAHEDRON, [[0, 1, 3]]).slice([0, 0, 1], [0.5])
    assert repr(open_contour) == "Contour(open, 2 points, length 0.5, area 0)"


def test_broadphase_repr():
    broadphase = trisect.Broadphase()
    assert repr(broadphase) == "Broadphase(0 proxies, 0 pairs)"
    broadphase.create([[0, 0, 0, 1, 1, 1], [1, 0, 0, 2, 1, 1], [5, 5, 5, 6, 6, 6]])
    assert repr(broadphase) == "Broadphase(3 proxies, 0 pairs)"
    broadphase.update()
    assert repr(broadphase) == "Broadphase(3 proxies, 1 pair)"
