"""Boxes, planes and spheres: against the `trisect query` command and a numpy brute force."""

import numpy as np
import pytest

import trisect
from brute_force import box_touching, plane_touching, triangles_of
from conftest import csr_rows, number, query_cli, shared_mesh


def random_boxes(seed, count):
    rng = np.random.default_rng(seed)
    corners = rng.integers(0, 8 * 16, size=(count, 2, 3)) / 8.0
    corners[: count // 4, 1] = corners[: count // 4, 0]  # points and flat boxes too
    return corners.reshape(count, 6)


def random_planes(seed, count):
    rng = np.random.default_rng(seed)
    normals = rng.integers(-3, 4, size=(count, 3)).astype(np.float64)
    normals[~normals.any(axis=1)] = (0, 0, 1)
    return np.column_stack([normals, rng.integers(-60, 60, size=count) / 8.0 * 3])


def random_spheres(seed, count):
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.integers(0, 128, size=(count, 3)) / 8.0, rng.integers(0, 24, size=count) / 8.0])


def spot_with_points(seed, count):
    """The shared spot mesh, its bounds and `count` random points inside them."""
    path = shared_mesh("spot")
    mesh = trisect.load(path)
    low, high = (np.array(c) for c in mesh.info["bounds"])
    rng = np.random.default_rng(seed)
    points = (low + (high - low) * rng.random((count, 3))).astype(np.float32)
    return path, mesh, low, high, rng, points


def cli_rows(mesh_path, kind, queries, tmp_path):
    lines = [kind + " " + " ".join(number(x) for x in q) for q in queries]
    return [[int(t) for t in line.split()] for line in query_cli(mesh_path, lines, tmp_path)]


@pytest.mark.parametrize(
    "kind, make, oracle",
    [("box", random_boxes, box_touching), ("plane", random_planes, plane_touching)],
)
def test_against_brute_force_and_cli(grid, tmp_path, kind, make, oracle):
    vertices, faces, mesh, path = grid
    queries = make(1, 200)
    answers = csr_rows(*getattr(mesh, {"box": "boxes", "plane": "planes"}[kind])(queries))
    triangles = triangles_of(vertices, faces)
    assert answers == [oracle(triangles, query) for query in queries]
    assert answers == cli_rows(path, kind, queries, tmp_path)
    assert sum(map(len, answers)) > 200  # the scene is not trivially empty


def test_spheres_against_cli(grid, tmp_path):
    _, _, mesh, path = grid
    spheres = random_spheres(3, 200)
    answers = csr_rows(*mesh.spheres(spheres))
    assert answers == cli_rows(path, "sphere", spheres, tmp_path)
    assert sum(map(len, answers)) > 100


def test_single_query_gives_its_ids(grid):
    vertices, faces, mesh, _ = grid
    box = random_boxes(4, 1)[0]
    ids = mesh.boxes(box)
    assert ids.dtype == np.int64 and ids.tolist() == box_touching(triangles_of(vertices, faces), box)
    assert mesh.planes([0, 0, 1, 8.0]).tolist() == plane_touching(triangles_of(vertices, faces), (0, 0, 1, 8))


def test_real_mesh_against_cli(tmp_path):
    path, mesh, _, _, _, centres = spot_with_points(5, 100)
    boxes = np.hstack([centres - 0.05, centres + 0.05]).astype(np.float32)
    spheres = np.column_stack([centres, np.full(100, 0.05)]).astype(np.float32)
    assert csr_rows(*mesh.boxes(boxes)) == cli_rows(path, "box", boxes, tmp_path)
    assert csr_rows(*mesh.spheres(spheres)) == cli_rows(path, "sphere", spheres, tmp_path)


INF = np.inf
# Boxes with infinite sides (contract 1): half-spaces, a slab, all of space, none of the scene.
UNBOUNDED_BOXES = [
    (0.5, -INF, -INF, INF, INF, INF),  # x >= 0.5
    (-INF, -INF, -INF, INF, INF, 4.25),  # z <= 4.25
    (-INF, 3, -INF, INF, 7.5, INF),  # 3 <= y <= 7.5
    (INF, INF, INF, -INF, -INF, -INF),  # all of space, corners swapped
    (100, -INF, -INF, INF, INF, INF),  # beyond the scene
]


def test_infinite_box_sides_against_brute_force_and_cli(grid, tmp_path):
    vertices, faces, mesh, path = grid
    boxes = np.array(UNBOUNDED_BOXES)
    answers = csr_rows(*mesh.boxes(boxes))
    triangles = triangles_of(vertices, faces)
    # The scene lies within [-3, 19]: sides at +-1000 are the same boxes for it.
    assert answers == [box_touching(triangles, box) for box in np.clip(boxes, -1000, 1000)]
    assert answers == cli_rows(path, "box", boxes, tmp_path)
    assert answers[0] == np.flatnonzero(triangles[:, :, 0].max(axis=1) >= 0.5).tolist()
    assert 0 < len(answers[0]) < len(faces) and answers[3] == list(range(len(faces)))
    assert answers[4] == []
    assert mesh.boxes(boxes[0]).tolist() == answers[0]


def test_thread_count_does_not_change_answers(grid):
    _, _, mesh, _ = grid
    boxes = random_boxes(6, 300)
    one = mesh.boxes(boxes, threads=1)
    two = mesh.boxes(boxes, threads=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.boxes([[0, 0, 0, np.nan, 1, 1]]), "not finite"),
        (lambda m: m.boxes(np.zeros((2, 5))), "shape"),
        (lambda m: m.planes([[0, 0, 0, 1]]), "normal"),
        (lambda m: m.spheres([[0, 0, 0, -1]]), "radius"),
        (lambda m: m.spheres([[0, np.inf, 0, 1]]), "sphere"),
        (lambda m: m.boxes([[0, 0, 0, 1, 1, 1]], threads=-1), "threads"),
    ],
)
def test_bad_queries_raise_value_error(grid, call, message):
    with pytest.raises(ValueError, match=message):
        call(grid[2])


def test_capsules_against_cli(tmp_path):
    path, mesh, low, high, rng, a = spot_with_points(41, 60)
    b = (a + 0.2 * (high - low) * (rng.random((60, 3)) - 0.5)).astype(np.float32)
    r = (0.05 * np.linalg.norm(high - low) * rng.random(60)).astype(np.float32)
    r[:10] = 0  # segments
    rows = np.hstack([a, b, r[:, None]])
    ids, offsets = mesh.capsules(rows)
    assert csr_rows(ids, offsets) == cli_rows(path, "capsule", rows, tmp_path)
    assert mesh.capsules(rows[3]).tolist() == ids[offsets[3]:offsets[4]].tolist()
    with pytest.raises(ValueError, match="radius"):
        mesh.capsules([[0, 0, 0, 1, 1, 1, -1]])


def test_obbs_against_cli(tmp_path):
    path, mesh, low, high, rng, centres = spot_with_points(43, 60)
    diagonal = np.linalg.norm(high - low)
    quaternions = rng.normal(size=(60, 4))
    quaternions /= np.linalg.norm(quaternions, axis=1)[:, None]
    w, x, y, z = quaternions.T
    axes = np.stack([  # the rotation's columns, rounded to float: nearly orthonormal
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)], axis=1),
        np.stack([2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)], axis=1),
        np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], axis=1),
    ], axis=1).reshape(60, 9)
    half = 0.05 * diagonal * rng.random((60, 3))
    half[:10, 2] = 0  # flat boxes
    rows = np.hstack([centres, axes, half]).astype(np.float32)
    ids, offsets = mesh.obbs(rows)
    assert csr_rows(ids, offsets) == cli_rows(path, "obb", rows, tmp_path)
    assert sum(len(r) for r in csr_rows(ids, offsets)) > 0
    assert mesh.obbs(rows[5]).tolist() == ids[offsets[5]:offsets[6]].tolist()
    with pytest.raises(ValueError, match="half extent"):
        mesh.obbs([[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, -1, 1]])
    with pytest.raises(ValueError, match="linearly dependent"):
        mesh.obbs([[0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1]])


def test_frustums_against_cli(tmp_path):
    path, mesh, low, high, rng, centres = spot_with_points(47, 40)
    rows = []
    for centre in centres:  # a box of six planes turned by a random rotation
        q = rng.normal(size=4)
        w, x, y, z = q / np.linalg.norm(q)
        rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                             [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                             [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        half = 0.1 * (high - low) * rng.random(3)
        planes = []
        for axis in range(3):
            n = rotation[:, axis]
            planes += [*n, n @ centre + half[axis], *-n, -(n @ centre) + half[axis]]
        rows.append(planes)
    rows = np.array(rows, dtype=np.float32)
    ids, offsets = mesh.frustums(rows)
    assert csr_rows(ids, offsets) == cli_rows(path, "frustum", rows, tmp_path)
    assert sum(len(r) for r in csr_rows(ids, offsets)) > 0
    assert mesh.frustums(rows[2]).tolist() == ids[offsets[2]:offsets[3]].tolist()
    with pytest.raises(ValueError, match="normal is zero"):
        mesh.frustums(np.zeros((1, 24)))


def test_cast_boxes_against_cli(tmp_path):
    path, mesh, low, high, rng, centres = spot_with_points(53, 40)
    diagonal = np.linalg.norm(high - low)
    axes = np.tile(np.eye(3).reshape(9), (40, 1))
    half = np.full((40, 3), 0.01 * diagonal)
    boxes = np.hstack([centres, axes, half]).astype(np.float32)
    motions = (0.3 * (high - low) * (rng.random((40, 3)) - 0.5)).astype(np.float32)
    motions[:4] = 0
    t, ids = mesh.cast_boxes(boxes, motions)
    lines = query_cli(path, ["cast " + " ".join(map(number, [*b, *m]))
                             for b, m in zip(boxes, motions)], tmp_path)
    answers = [["none"] if i < 0 else [f"{t[k]:.9g}", str(i)] for k, i in enumerate(ids.tolist())]
    assert answers == [line.split() for line in lines]
    assert (ids >= 0).sum() > 5 and (ids < 0).sum() > 0
    assert np.all((t[ids >= 0] >= 0) & (t[ids >= 0] <= 1)) and np.all(np.isinf(t[ids < 0]))
    with pytest.raises(ValueError, match="motion"):
        mesh.cast_boxes(boxes[:1], [[np.inf, 0, 0]])
    with pytest.raises(ValueError, match="1 boxes but 2 motions"):
        mesh.cast_boxes(boxes[:1], motions[:2])
