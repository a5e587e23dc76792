"""The simulator's accounting, checked against hand computation on 2x2 and 4x4 grids."""

import numpy as np
import pytest

import spatial
from spatial import Machine, SpatialError, SpatialInputError, SpatialTypeError


def _interleave(i):
    # Independent oracle: peel bits one at a time.
    x = y = 0
    for b in range(32):
        x |= ((i >> (2 * b)) & 1) << b
        y |= ((i >> (2 * b + 1)) & 1) << b
    return x, y


def test_morton_matches_bitwise_oracle():
    idx = np.arange(4096)
    x, y = spatial.morton_decode(idx)
    expect = np.array([_interleave(int(i)) for i in idx])
    assert np.array_equal(x, expect[:, 0]) and np.array_equal(y, expect[:, 1])
    assert np.array_equal(spatial.morton_encode(x, y), idx)


def test_layouts_and_shapes():
    assert spatial.grid_shape(4) == (2, 2)
    assert spatial.grid_shape(8) == (2, 4)
    assert spatial.grid_shape(7, "line") == (1, 7)
    x, y = spatial.layout_coordinates(16, "row-major")
    assert x.tolist() == [0, 1, 2, 3] * 4 and y.tolist() == [r for r in range(4) for _ in range(4)]
    with pytest.raises(SpatialInputError, match="power of two"):
        Machine(12)
    with pytest.raises(SpatialInputError, match="layout"):
        Machine(16, "hilbert")


def test_2x2_rounds_by_hand():
    # Z-order on 2x2: 0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1).
    m = Machine(4)
    m.send([1, 3], [0, 2])          # two hops of 1, both depth 1
    m.send([2], [0])                # depends on 3 -> 2: depth 2, distance 2
    m.send([0], [3])                # 0 has received depth 2 -> depth 3; length 2 -> distance 4
    met = m.metrics
    assert (met.energy, met.depth, met.distance, met.messages) == (1 + 1 + 1 + 2, 3, 4, 4)
    assert (met.max_sent, met.max_recv, met.contention, met.rounds) == (1, 2, 1, 3)
    m.send([1, 2, 3], [0, 0, 0])    # three messages into processor 0 in one round
    assert m.metrics.contention == 3 and m.metrics.max_recv == 5


def test_same_round_messages_do_not_depend_on_each_other():
    m = Machine(4)
    m.send([0, 1], [1, 3])          # 1 receives and sends in the same round
    assert m.metrics.depth == 1
    m.send([1], [2])                # now 1's send depends on what it got
    assert m.metrics.depth == 2
    assert m.depths.tolist() == [0, 1, 2, 1]


def test_4x4_far_corner_and_self_messages():
    m = Machine(16)
    assert m.send([0, 5], [15, 5], np.array([1.5, 2.5])).tolist() == [1.5, 2.5]
    met = m.metrics
    assert (met.energy, met.messages, met.distance) == (6, 1, 6)   # self-send is free


def test_chain_equals_rounds_of_single_messages():
    rng = np.random.default_rng(3)
    path = rng.integers(0, 64, size=40)
    a = Machine(64, "row-major")
    a.send(rng.integers(0, 64, 20), rng.integers(0, 64, 20))
    b = Machine(64, "row-major")
    b._depth[:], b._dist[:], b._sent[:], b._recv[:] = a._depth, a._dist, a._sent, a._recv
    b._energy, b._messages = a._energy, a._messages
    a.chain(path)
    for s, d in zip(path[:-1], path[1:]):
        b.send([s], [d])
    ma, mb = a.metrics, b.metrics
    assert (ma.energy, ma.depth, ma.distance, ma.messages, ma.max_sent, ma.max_recv) == (
        mb.energy, mb.depth, mb.distance, mb.messages, mb.max_sent, mb.max_recv)


def test_distances_are_manhattan():
    m = Machine(64, "row-major")
    s = np.arange(64)
    d = s[::-1]
    assert np.array_equal(m.distances(s, d), np.abs(s % 8 - d % 8) + np.abs(s // 8 - d // 8))


@pytest.mark.parametrize("call, exc, words", [
    (lambda m: m.send([0], [16]), SpatialInputError, "outside"),
    (lambda m: m.send([0, 1], [2]), SpatialInputError, "equal lengths"),
    (lambda m: m.send([0.5], [1]), SpatialTypeError, "integer"),
    (lambda m: m.send([0], [1], [1, 2]), SpatialInputError, "payload"),
    (lambda m: m.send([[0]], [[1]]), SpatialInputError, "one-dimensional"),
])
def test_send_rejects_bad_input(call, exc, words):
    with pytest.raises(exc, match=words) as info:
        call(Machine(16))
    assert isinstance(info.value, SpatialError)
    assert isinstance(info.value, (ValueError, TypeError))
