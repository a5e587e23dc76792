"""The machine: hand-computed accounting on 2x2 and 4x4 grids, and the model's rules enforced."""

import numpy as np
import pytest

import spatial
from graphmine.core.exceptions import GraphmineError
from spatial import (Machine, SpatialError, SpatialInputError, SpatialModelError,
                     SpatialTypeError)


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
    m.load("v", [1, 2, 3, 4])
    m.send([1, 3], [0, 2], "v", into="a")      # two hops of 1, both depth 1
    m.send([2], [0], "v", into="b")            # depends on 3 -> 2: depth 2, distance 2
    m.send([0], [3], "v", into="a")            # 0 has received depth 2 -> depth 3; length 2
    met = m.metrics
    assert (met.energy, met.depth, met.distance, met.messages, met.words) == (5, 3, 4, 4, 4)
    assert (met.max_sent, met.max_recv, met.contention, met.rounds) == (1, 2, 1, 3)
    assert m.read("a", [0, 2, 3]).tolist() == [2, 4, 1] and m.read("b", [0]).tolist() == [3]
    # Processor 0 holds v, a, b; processor 3 v, a.
    assert m.memory.tolist() == [3, 1, 2, 2] and met.max_words == 3


def test_energy_is_words_times_distance():
    m = Machine(16)                                   # 4 x 4
    m.load("a", 1.0, procs=[0])
    m.load("b", 2.0, procs=[0])
    m.load("c", 3.0, procs=[0])
    m.send([0], [15], "a")                            # 1 word x 6
    m.send([0], [3], ["a", "b", "c"])                 # 3 words x 2 (3 = (1, 1))
    met = m.metrics
    assert (met.energy, met.words, met.messages, met.max_message_words) == (6 + 6, 4, 2, 3)
    assert m.read("c", [3]).tolist() == [3.0]


def test_same_round_messages_do_not_depend_on_each_other():
    m = Machine(4)
    m.load("v", [0, 1, 2, 3])
    m.send([0, 1], [1, 3], "v", into="w")    # 1 receives and sends in the same round
    assert m.metrics.depth == 1
    m.send([1], [2], "w")                    # now 1's send depends on what it got
    assert m.metrics.depth == 2
    assert m.depths.tolist() == [0, 1, 2, 1]
    assert m.read("w", [2]).tolist() == [0]  # the word 0 sent to 1 travelled on to 2


def test_4x4_far_corner_and_self_messages():
    m = Machine(16)
    m.load("w", [1.5, 2.5], procs=[0, 5])
    m.send([0, 5], [15, 5], "w", into="u")
    met = m.metrics
    assert (met.energy, met.messages, met.distance) == (6, 1, 6)   # self-send is a local copy
    assert m.read("u", [15, 5]).tolist() == [1.5, 2.5]


def test_chain_equals_rounds_of_single_messages():
    rng = np.random.default_rng(3)
    path = rng.permutation(64)[:40]
    vals = rng.integers(-9, 10, size=64)
    a = Machine(64, "row-major")
    a.load("x", vals)
    a.chain(path, "x", into="s", op=np.add)
    b = Machine(64, "row-major")
    b.load("x", vals)
    b.load("s", vals[path[0]], procs=[path[0]])
    for s, d in zip(path[:-1], path[1:]):
        b.send([s], [d], "s", into="t")
        b.local(np.add, ["t", "x"], "s", procs=[d])
        b.free("t", [d])
    ma, mb = a.metrics, b.metrics
    assert (ma.energy, ma.depth, ma.distance, ma.messages, ma.max_sent, ma.max_recv) == (
        mb.energy, mb.depth, mb.distance, mb.messages, mb.max_sent, mb.max_recv)
    assert np.array_equal(a.read("s", path[1:]), np.cumsum(vals[path])[1:])
    assert np.array_equal(b.read("s", path[1:]), np.cumsum(vals[path])[1:])


def test_distances_are_manhattan():
    m = Machine(64, "row-major")
    s = np.arange(64)
    d = s[::-1]
    assert np.array_equal(m.distances(s, d), np.abs(s % 8 - d % 8) + np.abs(s // 8 - d // 8))


# -- the model's rules ------------------------------------------------------------------------
def test_sending_a_word_not_held_raises():
    m = Machine(16)
    m.load("x", [1.0, 2.0], procs=[0, 1])
    m.send([0], [4], "x")
    with pytest.raises(SpatialModelError, match="round 2: processor 2 sends word 'x'") as info:
        m.send([1, 2], [8, 9], "x")
    assert (info.value.processor, info.value.round) == (2, 2)
    assert m.metrics.messages == 1 and not m.holds("x", [8]).any()     # nothing changed
    with pytest.raises(SpatialModelError, match="processor 3 reads word 'x'"):
        m.read("x", [3])
    with pytest.raises(SpatialModelError, match="processor 3 reads"):
        m.local(np.negative, "x", "y", procs=[0, 3])


def test_message_size_is_enforced():
    m = Machine(4, message_words=2)
    for name in "abc":
        m.load(name, 1, procs=[0])
    m.send([0], [1], ["a", "b"])                        # two words: fine
    with pytest.raises(SpatialModelError, match=r"round 2: a message of 3 words .*"
                                                r"\(message_words=2\)") as info:
        m.send([0], [1], ["a", "b", "c"])
    assert info.value.round == 2 and m.metrics.max_message_words == 2


def test_memory_is_enforced():
    m = Machine(4, words=2)
    m.load("a", [1, 2, 3, 4])
    m.load("b", [5, 6, 7, 8])
    with pytest.raises(SpatialModelError,
                       match="round 1: processor 0 would hold 3 words.*words=2") as info:
        m.send([1, 2], [0, 3], "a", into="c")
    assert (info.value.processor, info.value.round) == (0, 1)
    assert m.memory.tolist() == [2, 2, 2, 2] and m.metrics.rounds == 0
    m.send([1], [0], "a")                               # overwriting a held word is fine
    m.free("b", [0])
    m.send([2], [0], "a", into="b")
    assert m.read("b", [0]).tolist() == [3] and m.metrics.max_words == 2
    with pytest.raises(SpatialModelError, match="would hold 3 words"):
        m.local(np.negative, "a", "z", procs=[1])
    with pytest.raises(SpatialModelError, match="would hold 3 words"):
        m.load("z", 0, procs=[2])


def test_fan_in_is_one_message_per_round():
    m = Machine(16)
    m.load("v", np.arange(16))
    with pytest.raises(SpatialModelError, match="round 1: processor 0 receives twice") as info:
        m.send([1, 2, 3], [0, 5, 0], "v", into="w")
    assert info.value.processor == 0
    m.send([1, 2, 3], [0, 5, 6], "v", into="w")         # fan-out is fine
    m.send([1], [0], "v", into="w2")                    # a second message: a second round
    assert m.read("w", [0]).tolist() == [1] and m.metrics.rounds == 2


def test_errors_join_graphmine_hierarchy():
    for exc in (SpatialError, SpatialInputError, SpatialTypeError, SpatialModelError):
        assert issubclass(exc, GraphmineError)
    assert issubclass(SpatialModelError, RuntimeError)


@pytest.mark.parametrize("call, exc, words", [
    (lambda m: m.send([0], [16], "x"), SpatialInputError, "outside"),
    (lambda m: m.send([0, 1], [2], "x"), SpatialInputError, "equal lengths"),
    (lambda m: m.send([0.5], [1], "x"), SpatialTypeError, "integer"),
    (lambda m: m.send([[0]], [[1]], "x"), SpatialInputError, "one-dimensional"),
    (lambda m: m.send([0], [1], 3), SpatialTypeError, "register name"),
    (lambda m: m.send([0], [1], ["x", "x"]), SpatialInputError, "twice"),
    (lambda m: m.send([0], [1], "x", into=["a", "b"]), SpatialInputError, "one register"),
    (lambda m: m.load("y", [1, 2], procs=[0]), SpatialInputError, "one entry per processor"),
    (lambda m: m.load("y", ["a"], procs=[0]), SpatialTypeError, "bool, int or float"),
    (lambda m: m.local(lambda v: v[:1], "x", "y"), SpatialInputError, "element-wise"),
    (lambda m: m.chain([0, 1], "x", op=max), SpatialTypeError, "ufunc"),
    (lambda m: Machine(4, words=0), SpatialInputError, "words must be >= 1"),
    (lambda m: Machine(4, message_words=1.5), SpatialTypeError, "message_words must be an int"),
])
def test_bad_input_gets_a_clear_error(call, exc, words):
    m = Machine(16)
    m.load("x", np.arange(16.0))
    with pytest.raises(exc, match=words) as info:
        call(m)
    assert isinstance(info.value, SpatialError)
    assert isinstance(info.value, (ValueError, TypeError))
