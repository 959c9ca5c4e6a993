"""Queries release the GIL: another Python thread runs while one is under way."""

import sys
import threading
import time

import numpy as np

import trisect
from conftest import shared_mesh


def test_other_thread_runs_during_a_query():
    mesh = trisect.load(shared_mesh("spot"))
    points = np.random.default_rng(51).random((400_000, 3), dtype=np.float32) * 2 - 1
    counter = [0]
    seen = {}

    def query():
        # No GIL release point between the two reads but the query itself: with the switch
        # interval raised below, the interpreter never takes the GIL from this thread by force,
        # so the counter moves between them only when the query lets the GIL go.
        seen["before"] = counter[0]
        mesh.closest_points(points, threads=1)
        seen["after"] = counter[0]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        worker = threading.Thread(target=query)
        worker.start()
        while worker.is_alive():
            counter[0] += 1
            time.sleep(0)  # lets the worker take the GIL when it wants it
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert seen["after"] > seen["before"]
