"""numpy brute force of the touching queries, exact in float64 on grid scenes (coordinates
multiples of 1/8 and small: every product and sum below is exact)."""

import numpy as np


def triangles_of(vertices, faces):
    """(m, 3, 3) float64 corners."""
    return np.asarray(vertices, dtype=np.float64)[np.asarray(faces)]


def plane_touching(triangles, plane):
    """Ids of the closed triangles touching plane n.x = d."""
    normal, d = np.asarray(plane[:3], dtype=np.float64), float(plane[3])
    side = triangles @ normal - d
    return np.flatnonzero((side.min(axis=1) <= 0) & (side.max(axis=1) >= 0)).tolist()


def _separated(triangles, axes, centre, half):
    """Per triangle, per axis: does the axis separate the triangle from the box?"""
    projected = np.einsum("mkj,maj->mak", triangles, axes)  # (m, axes, 3 corners)
    centre_projection = np.einsum("j,maj->ma", centre, axes)
    radius = np.einsum("j,maj->ma", half, np.abs(axes))
    return (projected.min(axis=2) > centre_projection + radius) | (
        projected.max(axis=2) < centre_projection - radius
    )


def box_touching(triangles, box):
    """Ids of the closed triangles touching the closed box (x0, y0, z0, x1, y1, z1), by the
    13 axes of the separating axis theorem."""
    corners = np.asarray(box, dtype=np.float64).reshape(2, 3)
    low, high = corners.min(axis=0), corners.max(axis=0)
    centre, half = (low + high) / 2, (high - low) / 2
    edges = np.stack([triangles[:, (k + 1) % 3] - triangles[:, k] for k in range(3)], axis=1)
    normal = np.cross(edges[:, 0], edges[:, 1])[:, None, :]
    unit = np.eye(3)
    box_axes = np.broadcast_to(unit, (len(triangles), 3, 3))
    crossed = np.cross(edges[:, :, None, :], unit[None, None, :, :]).reshape(len(triangles), 9, 3)
    axes = np.concatenate([box_axes, normal, crossed], axis=1)
    return np.flatnonzero(~_separated(triangles, axes, centre, half).any(axis=1)).tolist()
