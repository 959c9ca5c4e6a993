"""The module's argument rules: `threads=` counts, fixed-size vectors, and arrays that cannot be
converted exactly (complex numbers, unsigned indices beyond int64, fractional ids)."""

import re

import numpy as np
import pytest

import trisect
from conftest import grid_scene

CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
CUBE_FACES = np.array(
    [[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
     [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]]
)[:, ::-1]  # outward-facing
POINT = [[0.5, 0.5, 0.5]]
TRANSFORM = [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0]


@pytest.fixture(scope="module")
def cube():
    return trisect.Mesh(CUBE, CUBE_FACES)


# Every call that takes `threads=`, with small valid arguments.
THREADED = {
    "Mesh": lambda m, t: trisect.Mesh(CUBE, CUBE_FACES, threads=t),
    "boxes": lambda m, t: m.boxes([0, 0, 0, 1, 1, 1], threads=t),
    "planes": lambda m, t: m.planes([0, 0, 1, 0.5], threads=t),
    "spheres": lambda m, t: m.spheres([0, 0, 0, 1], threads=t),
    "rays": lambda m, t: m.rays(POINT, [[0, 0, 1]], threads=t),
    "any_hits": lambda m, t: m.any_hits(POINT, [[0, 0, 1]], threads=t),
    "slice": lambda m, t: m.slice([0, 0, 1], [0.5], threads=t),
    "overlap": lambda m, t: trisect.overlap(m, m, TRANSFORM, threads=t),
    "self_intersections": lambda m, t: m.self_intersections(threads=t),
    "closest_points": lambda m, t: m.closest_points(POINT, threads=t),
    "inside": lambda m, t: m.inside(POINT, threads=t),
    "signed_distance": lambda m, t: m.signed_distance(POINT, threads=t),
}


@pytest.mark.parametrize("call", list(THREADED.values()), ids=list(THREADED))
@pytest.mark.parametrize("threads", [65537, 4097, -1, 2**31, 2**64, np.int64(100000)])
def test_thread_counts_outside_the_command_range_raise_value_error(cube, call, threads):
    with pytest.raises(ValueError, match=rf"threads: .*1 to 4096, got {threads}$"):
        call(cube, threads)


def test_load_refuses_thread_counts_too(tmp_path):
    path = tmp_path / "triangle.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(ValueError, match="threads: .*got 70000"):
        trisect.load(path, threads=70000)
    assert len(trisect.load(path, threads=4096)) == 1


@pytest.mark.parametrize("call", list(THREADED.values()), ids=list(THREADED))
def test_thread_counts_of_the_command_range_give_the_same_answer(cube, call):
    def plain(answer):
        if isinstance(answer, trisect.Mesh):
            return answer.info
        if isinstance(answer, list):  # slice: contours per plane
            return [[(c.closed, c.triangles.tolist(), c.points.tolist()) for c in p] for p in answer]
        return [np.asarray(part).tolist() for part in (answer if isinstance(answer, tuple) else [answer])]

    expected = plain(call(cube, 0))
    for threads in (1, 2, 4096, np.int32(3)):
        assert plain(call(cube, threads)) == expected


@pytest.mark.parametrize(
    "normal, shape",
    [
        (np.zeros((0, 3)), "(0, 3)"),
        (np.ones((2, 3)), "(2, 3)"),
        ([[0, 0, 1]], "(1, 3)"),
        ([0, 1], "(2,)"),
        ([0, 0, 1, 0], "(4,)"),
        (1.0, "()"),
    ],
)
def test_slice_normal_is_exactly_three_numbers(cube, normal, shape):
    with pytest.raises(ValueError, match=re.escape(f"normal: expected shape (3,), got {shape}")):
        cube.slice(normal, [0.5])


@pytest.mark.parametrize("normal", [[0, 0, 1], (0, 0, 2), np.array([0, 0, 1], dtype=np.int8)])
def test_slice_normal_as_any_three_numbers(cube, normal):
    [[square]] = cube.slice(normal, [0.5 * normal[2]])
    assert square.closed and square.area == 1.0


@pytest.mark.parametrize("transform", [np.reshape(TRANSFORM, (4, 3)), [TRANSFORM], TRANSFORM[:9]])
def test_transform_is_a_3_by_4_matrix_or_its_12_numbers(cube, transform):
    shape = re.escape(str(np.shape(transform)))
    with pytest.raises(ValueError, match=rf"transform: expected shape \(3, 4\) or \(12,\), got {shape}"):
        trisect.overlap(cube, cube, transform)
    with pytest.raises(ValueError, match=rf"transform: .*got {shape}"):
        trisect.mesh_distance(cube, cube, transform)
    flat = trisect.overlap(cube, cube, TRANSFORM)
    assert flat.tolist() == trisect.overlap(cube, cube, np.reshape(TRANSFORM, (3, 4))).tolist()
    assert len(flat) > 0


COMPLEX = [
    ("vertices", lambda m: trisect.Mesh(CUBE.astype(np.complex64), CUBE_FACES)),
    ("boxes", lambda m: m.boxes(np.array([0, 0, 0, 1, 1, 1 + 1j]))),
    ("planes", lambda m: m.planes(np.array([[0, 0, 1, 0.5j]]))),
    ("origins", lambda m: m.rays(np.array(POINT, dtype=complex), [[0, 0, 1]])),
    ("t_max", lambda m: m.rays(POINT, [[0, 0, 1]], t_max=np.array(2 + 0j))),
    ("normal", lambda m: m.slice(np.array([0, 0, 1j]), [0.5])),
    ("offsets", lambda m: m.slice([0, 0, 1], np.array([0.5 + 0.5j]))),
    ("points", lambda m: m.closest_points(np.array(POINT, dtype=np.complex128))),
    ("transform", lambda m: trisect.overlap(m, m, np.array(TRANSFORM, dtype=complex))),
    ("boxes", lambda m: trisect.Broadphase().create(np.array([[0, 0, 0, 1, 1, 1j]]))),
]


@pytest.mark.parametrize("name, call", COMPLEX)
def test_complex_numbers_are_refused_naming_the_argument(cube, name, call):
    with pytest.raises(ValueError, match=rf"^{name}: expected real numbers, got dtype complex"):
        call(cube)


def test_object_and_text_arrays_are_refused(cube):
    with pytest.raises(ValueError, match="points: expected real numbers, got dtype object"):
        cube.closest_points(np.array([[0.5, 0.5, 2**70]], dtype=object))
    with pytest.raises(ValueError, match="vertices: expected real numbers, got dtype <U"):
        trisect.Mesh([["0", "0", "0"]], np.zeros((0, 3), dtype=int))


@pytest.mark.parametrize(
    "faces, message",
    [
        (np.array([[0, 1, 2], [2**64 - 1, 1, 0]], dtype=np.uint64),
         "faces[1, 0] = 18446744073709551615 is not a vertex index"),
        (np.array([[0, 1, 2], [2, 2**63, 0]], dtype=np.uint64),
         "faces[1, 1] = 9223372036854775808 is not a vertex index"),
        (np.array([[0, 1, 2.5]]), "faces: expected integers, got dtype float64: faces[0, 0] = 0.0"),
        (np.array([[True, False, True]]), "faces: expected integers, got dtype bool"),
        ([[0, 1, 2**64]], "faces: expected integers, got dtype object: faces[0, 0] = 0"),
    ],
)
def test_faces_that_are_not_exact_indices_are_named(faces, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        trisect.Mesh(CUBE, faces)


def test_faces_of_every_integer_dtype_within_range():
    faces = grid_scene(3, 10)[1]
    for dtype in (np.uint8, np.int16, np.uint64, np.int64):
        mesh = trisect.Mesh(grid_scene(3, 10)[0], faces.astype(dtype))
        assert mesh.faces.tolist() == faces.tolist()
    with pytest.raises(ValueError, match="index 30, outside"):
        trisect.Mesh(grid_scene(3, 10)[0], (faces + 1).astype(np.uint64))


def test_broadphase_ids_must_be_exact_integers():
    broadphase = trisect.Broadphase()
    ids = broadphase.create([[0, 0, 0, 1, 1, 1], [5, 5, 5, 6, 6, 6]]).tolist()
    assert ids == [0, 1]
    with pytest.raises(ValueError, match=re.escape("ids[0] = 0.9 is not a proxy id")):
        broadphase.move([0.9], [[0.5, 0.5, 0.5, 5.5, 5.5, 5.5]])
    with pytest.raises(ValueError, match=re.escape("ids[0] = 1.7 is not a proxy id")):
        broadphase.destroy([1.7])
    with pytest.raises(ValueError, match=re.escape("ids[1] = 18446744073709551615 is not")):
        broadphase.destroy(np.array([0, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match="ids: expected integers, got dtype bool"):
        broadphase.destroy([True])
    assert len(broadphase) == 2
    broadphase.update()
    assert broadphase.pairs.tolist() == []  # nothing moved
    broadphase.move(np.array([1], dtype=np.uint64), [[0.5, 0.5, 0.5, 5.5, 5.5, 5.5]])
    broadphase.update()
    assert broadphase.pairs.tolist() == [[0, 1]]
    broadphase.destroy(np.array([1], dtype=np.uint8))
    assert len(broadphase) == 1
