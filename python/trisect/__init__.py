"""trisect: exact BVH queries over triangle meshes, numpy in and numpy out.

Every answer is what exact arithmetic on the given float32 coordinates decides (closed sets:
touching counts); triangle ids are the rows of ``faces``, 0-based. Queries are batched, release
the GIL while they run, and take ``threads`` (0: all the machine has, or 1 to 4096) where the C++ side is
parallel; answers never depend on the thread count. Bad input raises ``ValueError`` and
unreadable or malformed files ``OSError``, with the library's message. See docs/python.md.
"""

from ._trisect import (  # noqa: F401  (the public API)
    INSIDE,
    OUTSIDE,
    SURFACE,
    Broadphase,
    Contour,
    Mesh,
    load,
    mesh_distance,
    overlap,
)

__all__ = [
    "INSIDE",
    "OUTSIDE",
    "SURFACE",
    "Broadphase",
    "Contour",
    "Mesh",
    "load",
    "mesh_distance",
    "overlap",
]
