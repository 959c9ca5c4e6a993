"""Type stubs of the trisect module (see docs/python.md for the contract)."""

from os import PathLike
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
Float32Array = npt.NDArray[np.float32]
Float64Array = npt.NDArray[np.float64]
Int64Array = npt.NDArray[np.int64]

OUTSIDE: int  # 0: even number of crossings
INSIDE: int  # 1: odd number of crossings
SURFACE: int  # 2: on a triangle

class Contour:
    """One chain of section segments in a plane."""

    @property
    def closed(self) -> bool: ...
    @property
    def points(self) -> Float32Array:
        """(k, 3) points in order; a closed contour returns to its first point."""
    @property
    def triangles(self) -> Int64Array:
        """triangles[i]: the triangle whose segment runs from points[i] to the next point."""
    @property
    def length(self) -> float: ...
    @property
    def area(self) -> float:
        """Signed area seen from the side the normal points to; 0 when open."""
    def __repr__(self) -> str:
        """Contour(closed, 4 points, length 4, area 1): numbers in their shortest exact form."""

class Mesh:
    """A triangle mesh and the BVH over it; every query in input triangle ids."""

    def __init__(self, vertices: ArrayLike, faces: ArrayLike, *, threads: int = 0) -> None:
        """(n, 3) real vertices (float32 C-contiguous: kept without a copy), (m, 3) integer
        faces in [0, n), taken exactly. ValueError for bad shapes, complex vertices, non-integer
        faces, indices out of range (named as given), NaN/infinite coordinates in a used vertex,
        or threads outside 0 (all) .. 4096."""
    @property
    def vertices(self) -> Float32Array: ...
    @property
    def faces(self) -> npt.NDArray[np.uint32]: ...
    @property
    def info(self) -> dict[str, Any]:
        """triangles, vertices, nodes, leaves, depth, sah_cost, sah_cost_lanes, bytes, bounds."""
    @property
    def is_closed(self) -> bool:
        """Every welded edge used by an even number of non-zero-area triangles."""
    def __len__(self) -> int: ...
    def __repr__(self) -> str:
        """Mesh(4 triangles, bounds [0, 0, 0] to [1, 1, 1]), or Mesh(0 triangles, no bounds);
        coordinates in their shortest exact form (they read back to the same float32)."""
    def boxes(
        self, boxes: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 6) closed boxes (x0, y0, z0, x1, y1, z1), sides may be +-inf (half-spaces,
        slabs), NaN refused: (ids, offsets) in CSR form; one (6,) box: its ascending ids."""
    def planes(
        self, planes: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 4) planes (nx, ny, nz, d), the set n.x = d; as boxes."""
    def spheres(
        self, spheres: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 4) closed balls (cx, cy, cz, r), r >= 0; as boxes."""
    def capsules(
        self, capsules: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 7) closed capsules (ax, ay, az, bx, by, bz, r): the points within r >= 0 of the
        segment [a, b] (r = 0: the segment); as boxes, decided exactly."""
    def obbs(
        self, boxes: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 15) closed oriented boxes (c, u, v, w, hu, hv, hw): the points c + s u + t v + r w
        with |s| <= hu, |t| <= hv, |r| <= hw, on the exact floats (independent axes of any
        length); as boxes, decided exactly."""
    def frustums(
        self, frustums: ArrayLike, *, threads: int = 0
    ) -> Union[tuple[Int64Array, Int64Array], Int64Array]:
        """(k, 24) closed frustums, six planes (nx, ny, nz, d) per row: the points with
        n.x <= d for all six (outward normals); as boxes, decided exactly."""
    def rays(
        self,
        origins: ArrayLike,
        directions: ArrayLike,
        t_min: ArrayLike = 0.0,
        t_max: ArrayLike = ...,
        *,
        threads: int = 0,
    ) -> tuple[Float64Array, Int64Array, Float32Array, Float32Array]:
        """Closest hits: (t, ids, u, v); t inf and id -1 on a miss. Exact, watertight."""
    def any_hits(
        self,
        origins: ArrayLike,
        directions: ArrayLike,
        t_min: ArrayLike = 0.0,
        t_max: ArrayLike = ...,
        *,
        threads: int = 0,
    ) -> npt.NDArray[np.bool_]: ...
    def slice(
        self, normal: ArrayLike, offsets: ArrayLike, *, threads: int = 0
    ) -> list[list[Contour]]:
        """Per plane normal.x = d (d in offsets, in order): its contours. The normal is
        exactly three numbers, shape (3,); ValueError naming any other shape."""
    def self_intersections(self, *, threads: int = 0) -> Int64Array:
        """(k, 2) pairs i < j meeting outside their shared vertex positions."""
    def pairs_within(
        self, other: Mesh, distance: float, transform: Optional[ArrayLike] = None, *,
        threads: int = 0
    ) -> Int64Array:
        """(k, 2) pairs (i of self, j of other) at exact distance <= distance (float32);
        other mapped by [R | T] first, as overlap maps it."""
    def self_pairs_within(self, distance: float, *, threads: int = 0) -> Int64Array:
        """(k, 2) pairs i < j sharing no vertex position at exact distance <= distance."""
    def closest_points(
        self, points: ArrayLike, max_distance: float = ..., *, threads: int = 0
    ) -> tuple[Float64Array, Int64Array, Float32Array]:
        """(distance, ids, points): inf, -1, NaN where no triangle is within max_distance."""
    def k_nearest(
        self, points: ArrayLike, k: int, max_distance: float = ..., *, threads: int = 0
    ) -> tuple[Float64Array, Int64Array, Int64Array]:
        """(distance, ids, offsets) in CSR form: point i's k nearest triangles (within
        max_distance) at [offsets[i], offsets[i + 1]), nearest first, ties by id."""
    def cast_boxes(
        self, boxes: ArrayLike, motions: ArrayLike, *, threads: int = 0
    ) -> tuple[Float64Array, Int64Array]:
        """(k, 15) oriented boxes (as obbs) moved by (k, 3) motions, t in [0, 1]: (t, ids),
        the exact first contact rounded to the nearest float (inf, -1 when none)."""
    def inside(self, points: ArrayLike, *, threads: int = 0) -> npt.NDArray[np.uint8]:
        """OUTSIDE, INSIDE or SURFACE per point; the mesh must be closed."""
    def signed_distance(self, points: ArrayLike, *, threads: int = 0) -> Float64Array:
        """Distance, negative inside; the mesh must be closed."""

class Broadphase:
    """Moving boxes, frame after frame: which pairs began or stopped overlapping."""

    def __init__(self, margin: float = ...) -> None:
        """`margin` grows the fat boxes (speed only); the default is the C++ default."""
    def create(
        self, boxes: ArrayLike, *, static: bool = False, sensor: bool = False
    ) -> Int64Array:
        """Ids of new proxies; sensors' pairs are flagged in the *_is_sensor arrays."""
    def move(self, ids: ArrayLike, boxes: ArrayLike) -> None:
        """ids: (k,) integers taken exactly (0.9 is refused, not truncated)."""
    def destroy(self, ids: ArrayLike) -> None:
        """ids: (k,) integers taken exactly, each live and given once."""
    def update(self) -> tuple[Int64Array, Int64Array]:
        """(began, ended): (k, 2) pairs, smaller id first, ascending."""
    @property
    def pairs(self) -> Int64Array: ...
    @property
    def pair_is_sensor(self) -> npt.NDArray[np.bool_]: ...
    @property
    def began_is_sensor(self) -> npt.NDArray[np.bool_]: ...
    @property
    def ended_is_sensor(self) -> npt.NDArray[np.bool_]: ...
    def __len__(self) -> int: ...
    def __repr__(self) -> str:
        """Broadphase(3 proxies, 1 pair): live proxies, pairs as of the last update."""

def load(path: Union[str, "PathLike[str]"], *, threads: int = 0) -> Mesh:
    """An OBJ, PLY or STL file as a Mesh; OSError when it cannot be read or parsed."""

def overlap(
    a: Mesh, b: Mesh, transform: Optional[ArrayLike] = None, *, threads: int = 0
) -> Int64Array:
    """(k, 2) pairs (i of a, j of b) of intersecting triangles; b mapped by [R | T] first
    (a (3, 4) matrix or its 12 numbers, shape (12,))."""

def mesh_distance(
    a: Mesh, b: Mesh, transform: Optional[ArrayLike] = None
) -> Optional[tuple[float, int, int]]:
    """(distance, i, j) of the nearest pair, smallest by i then j; None when one is empty."""
