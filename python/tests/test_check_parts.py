"""The Dask example (examples/python/check_parts.py): a two-worker LocalCluster on the shared
meshes writes the CSV a serial loop over the same function writes."""

import os
import subprocess
import sys

import pytest

from conftest import MESH_DIR, SOURCE_DIR

EXAMPLE = SOURCE_DIR / "examples" / "python" / "check_parts.py"


def test_cluster_matches_serial_loop(tmp_path):
    pytest.importorskip("dask.distributed")
    if not MESH_DIR.is_dir():
        pytest.skip(f"no shared meshes in {MESH_DIR}")
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import check_parts
    finally:
        sys.path.pop(0)
    layers = 4
    on_cluster = tmp_path / "cluster.csv"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(MESH_DIR), "--workers", "2", "--layers", str(layers),
         "--output", str(on_cluster)],
        capture_output=True, text=True, env=os.environ.copy(), timeout=240,
    )
    assert done.returncode == 0, done.stderr
    serial = tmp_path / "serial.csv"
    rows = [check_parts.check_part(str(p), layers) for p in check_parts.mesh_files(MESH_DIR)]
    check_parts.write_csv(rows, layers, serial)
    assert on_cluster.read_text() == serial.read_text()
    assert len(rows) == len(check_parts.mesh_files(MESH_DIR)) >= 5
    assert all(not row.get("error") for row in rows)
    assert any(row["closed"] for row in rows) and any(row["self_intersections"] for row in rows)
