"""Broadphase frames against a brute force of closed-box overlaps."""

import itertools

import numpy as np
import pytest

import trisect


def brute_pairs(boxes, static):
    """Every pair i < j of live proxies whose closed boxes overlap, not both static."""
    pairs = []
    for i, j in itertools.combinations(sorted(boxes), 2):
        a, b = boxes[i].reshape(2, 3), boxes[j].reshape(2, 3)
        if static[i] and static[j]:
            continue
        if np.all(a.min(0) <= b.max(0)) and np.all(b.min(0) <= a.max(0)):
            pairs.append([i, j])
    return pairs


def random_boxes(rng, count):
    low = rng.integers(0, 40, size=(count, 3)) / 4.0
    return np.hstack([low, low + rng.integers(0, 8, size=(count, 3)) / 4.0]).astype(np.float32)


def test_frames_against_brute_force():
    rng = np.random.default_rng(42)
    broadphase = trisect.Broadphase(margin=0.25)
    dynamic_boxes, static_boxes = random_boxes(rng, 60), random_boxes(rng, 20)
    boxes, static = {}, {}
    for box_id, box in zip(broadphase.create(dynamic_boxes), dynamic_boxes):
        boxes[int(box_id)], static[int(box_id)] = box, False
    for box_id, box in zip(broadphase.create(static_boxes, static=True), static_boxes):
        boxes[int(box_id)], static[int(box_id)] = box, True
    previous = []
    for frame in range(8):
        began, ended = broadphase.update()
        now = brute_pairs(boxes, static)
        assert broadphase.pairs.tolist() == now
        assert began.tolist() == sorted(map(list, set(map(tuple, now)) - set(map(tuple, previous))))
        assert ended.tolist() == sorted(map(list, set(map(tuple, previous)) - set(map(tuple, now))))
        assert began.shape[1] == 2 and ended.shape[1] == 2
        previous = now
        live = np.array(sorted(i for i in boxes if not static[i]))
        moving = rng.choice(live, size=20, replace=False)
        moved = random_boxes(rng, 20)
        broadphase.move(moving, moved)
        boxes.update(zip(moving.tolist(), moved))
        doomed = rng.choice(live, size=2, replace=False)
        broadphase.destroy(doomed)
        for box_id in doomed.tolist():
            del boxes[box_id]
        fresh = random_boxes(rng, 2)
        for box_id, box in zip(broadphase.create(fresh), fresh):
            boxes[int(box_id)], static[int(box_id)] = box, False
    assert len(broadphase) == len(boxes) == 80


def test_bad_calls_raise_value_error():
    broadphase = trisect.Broadphase()
    [box_id] = broadphase.create([[0, 0, 0, 1, 1, 1]])
    with pytest.raises(ValueError, match="not finite"):
        broadphase.create([[0, 0, 0, np.nan, 1, 1]])
    with pytest.raises(ValueError, match="not a live proxy"):
        broadphase.move([box_id + 1], [[0, 0, 0, 1, 1, 1]])
    with pytest.raises(ValueError, match="twice"):
        broadphase.destroy([box_id, box_id])
    assert len(broadphase) == 1


def test_sensor_pairs_are_flagged():
    broadphase = trisect.Broadphase()
    solid = broadphase.create([[0, 0, 0, 1, 1, 1], [0.9, 0.9, 0.9, 1.5, 1.5, 1.5]])
    [zone] = broadphase.create([[0.5, 0.5, 0.5, 3, 3, 3]], static=True, sensor=True)
    began, _ = broadphase.update()
    a, b, zone = int(solid[0]), int(solid[1]), int(zone)
    expected = sorted([[a, b], [a, zone], [b, zone]])
    assert began.tolist() == expected
    flags = [zone in pair for pair in expected]
    assert broadphase.began_is_sensor.tolist() == flags
    assert broadphase.pair_is_sensor.tolist() == flags
    broadphase.destroy([zone])
    _, ended = broadphase.update()
    assert ended.tolist() == [pair for pair in expected if zone in pair]
    assert broadphase.ended_is_sensor.tolist() == [True, True]
    assert broadphase.pair_is_sensor.tolist() == [False]
