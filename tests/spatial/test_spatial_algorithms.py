"""Results against numpy/scipy, energy/depth against hand computation and closed forms."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp
from scipy.optimize import linear_sum_assignment

import spatial
from spatial import (DEFAULT_WORDS, SpatialError, SpatialInputError, SpatialModelError,
                     SpatialTypeError)

FAST = settings(max_examples=40, deadline=None)


def _tree_energy_zorder(L):
    # Level b: n / 2**(b+1) hops of 2**floor(b/2) (x bits even, y bits odd).
    n = 1 << L
    return sum((n >> (b + 1)) * (1 << (b // 2)) for b in range(L))


def _blelloch_energy_zorder(L):
    # Up-sweep: n / 2**(d+1) pairs hop 2**floor(d/2); down-sweep: two messages per pair except
    # the pair of the block that starts at 0 (nothing precedes it): one.
    n = 1 << L
    return sum((3 * (n >> (d + 1)) - 1) * (1 << (d // 2)) for d in range(L))


def _bitonic_energy(L, hop):
    n = 1 << L
    return n * sum(hop(j) for k in range(1, L + 1) for j in range(k))


# -- hand-computed values -------------------------------------------------------------------
def test_2x2_collectives_by_hand():
    b = spatial.broadcast(5, 4)
    assert b.value.tolist() == [5] * 4
    assert (b.metrics.energy, b.metrics.depth, b.metrics.distance) == (3, 2, 2)
    assert b.metrics.max_words == 1
    r = spatial.reduce([1, 2, 3, 4])
    assert r.value == 10 and (r.metrics.energy, r.metrics.depth, r.metrics.max_words) == (3, 2, 2)
    # Blelloch on 2x2: up 0->1, 2->3, 1->3; down 1->3 (block [0,4) has no prefix), 0->1,
    # and the swap 3<->2: seven one-word messages of length 1, depth 3.
    s = spatial.scan([1, 2, 3, 4])
    assert s.value.tolist() == [1, 3, 6, 10]
    assert (s.metrics.energy, s.metrics.depth, s.metrics.messages, s.metrics.words) == (7, 3, 7, 7)
    assert (s.metrics.max_words, s.metrics.max_message_words) == (3, 1)


def test_4x4_by_hand():
    # Broadcast on 4x4: 8 hops of 1 (x), 4 of 1 (y), 2 of 2 (x), 1 of 2 (y).
    b = spatial.broadcast(1.0, 16)
    assert (b.metrics.energy, b.metrics.depth, b.metrics.distance) == (8 + 4 + 4 + 2, 4, 6)
    # Scan: up-sweep 18 as the reduce; down-sweep (15 + 7) x 1 + (3 + 1) x 2 = 30.
    sc = spatial.scan(np.ones(16))
    assert (sc.metrics.energy, sc.metrics.depth) == (48, 7)
    # Bitonic on 4x4 Z-order: hops 1,1,2,2 for bits 0..3 -> sum over steps 13, x 16.
    srt = spatial.sort(np.arange(16)[::-1])
    assert (srt.metrics.energy, srt.metrics.depth, srt.metrics.max_words) == (16 * 13, 10, 2)
    # Row-major 4x4: bit hops 1,2,1,2 -> 14 x 16.
    assert spatial.sort(np.arange(16), layout="row-major").metrics.energy == 16 * 14
    assert spatial.sort([4, 3, 2, 1]).metrics.energy == 12


@pytest.mark.parametrize("L", [2, 3, 5, 8, 11])
def test_closed_forms(L):
    n = 1 << L
    x = np.arange(n)
    assert spatial.broadcast(0, n).metrics.energy == _tree_energy_zorder(L)
    assert spatial.reduce(x).metrics.energy == _tree_energy_zorder(L)
    sc = spatial.scan(x)
    assert sc.metrics.energy == _blelloch_energy_zorder(L) and sc.metrics.depth == 2 * L - 1
    line = spatial.broadcast(0, n, layout="line").metrics
    assert line.energy == n // 2 * L and line.depth == L
    chain = spatial.scan(x, method="chain", layout="line").metrics
    assert chain.energy == n - 1 and chain.depth == n - 1
    srt = spatial.sort(x[::-1]).metrics
    assert srt.energy == _bitonic_energy(L, lambda j: 1 << (j // 2))
    assert srt.depth == L * (L + 1) // 2
    w = L - L // 2                                       # log2 of the row width
    rm = spatial.sort(x, layout="row-major").metrics
    assert rm.energy == _bitonic_energy(L, lambda j: 1 << j if j < w else 1 << (j - w))


def test_spmv_small_by_hand():
    A = sp.csr_matrix(np.array([[2, 0, 1], [0, 0, 0], [0, 3, 4]]))
    r = spatial.spmv(A, np.array([1, 10, 100]))
    assert r.value.tolist() == [102, 0, 430]
    # Direct on a 2x2 grid (0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1)); nonzeros t=0..3 at (row, col)
    # (0,0) (0,2) (2,1) (2,2). Requests t -> col and replies: 0 (local), 1->2 & 2->1 (2 each),
    # 3->2 (1); products t -> row: 0 (local), 1->0 (1), 2 (local), 3->2 (1). Column 2 is
    # asked twice, so its second request waits a round (bounded fan-in).
    d = spatial.spmv(A, np.array([1, 10, 100]), method="direct")
    assert d.value.tolist() == [102, 0, 430]
    assert (d.metrics.energy, d.metrics.messages) == (2 * (2 + 2 + 1) + 1 + 1, 8)
    assert d.metrics.max_recv == 4 and d.metrics.contention == 1


def test_cannon_2x2_by_hand():
    # Row-major 2x2. Skews: row 1 of A swaps (2 messages of 1), column 1 of B swaps (2); then
    # one rotation of each matrix (4 + 4 messages of 1). Each rotation is a round that depends
    # on the one before: depth 2N = 4.
    r = spatial.matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
    assert r.value.tolist() == [[19, 22], [43, 50]]
    assert (r.metrics.energy, r.metrics.messages, r.metrics.depth) == (12, 12, 4)
    # Closed form at N = 8: a rotation moves N (N - 1) words one step and N words N - 1 steps
    # back (2 N (N - 1)); the skew moves A[i, j] |((j - i) mod N) - j| along its row (and B
    # the same along its column).
    N = 8
    m = spatial.matmul(np.eye(N), np.eye(N)).metrics
    rotations = 2 * (N - 1) * 2 * N * (N - 1)
    skew = 2 * sum(min(abs(((j - i) % N) - j), N) for i in range(N) for j in range(N))
    assert m.energy == rotations + skew and m.depth == 2 * N and m.max_words == 4


@FAST
@given(st.integers(1, 12), st.integers(0, 2**31), st.booleans())
def test_matmul_equals_numpy(N, seed, integer):
    rng = np.random.default_rng(seed)
    if integer:
        a, b = rng.integers(-9, 10, (N, N)), rng.integers(-9, 10, (N, N))
    else:
        a, b = rng.normal(size=(N, N)), rng.normal(size=(N, N))
    r = spatial.matmul(a, b)
    assert _close(r.value, a @ b) and r.metrics.energy >= spatial.matmul_lower_bound(N)


def test_per_word_energy_of_two_word_messages():
    # The segmented scans of SpMV carry (flag, value): two words a message, twice the energy.
    A = sp.random(30, 30, density=0.2, random_state=1, format="csr")
    r = spatial.spmv(A, np.ones(30))
    assert r.metrics.max_message_words == 2 and r.metrics.energy > r.metrics.words


# -- constant memory ------------------------------------------------------------------------
_RUNS = {
    "broadcast": lambda n, **kw: spatial.broadcast(1, n, **kw),
    "reduce": lambda n, **kw: spatial.reduce(np.arange(n), **kw),
    "scan": lambda n, **kw: spatial.scan(np.arange(n), **kw),
    "scan_chain": lambda n, **kw: spatial.scan(np.arange(n), method="chain", **kw),
    "select": lambda n, **kw: spatial.select(np.random.default_rng(n).normal(size=n), n // 2,
                                             seed=0, **kw),
    "median": lambda n, **kw: spatial.median(np.random.default_rng(n).normal(size=n), seed=0,
                                             **kw),
    "select_sort": lambda n, **kw: spatial.select(np.arange(n)[::-1], 3, method="sort", **kw),
    "sort": lambda n, **kw: spatial.sort(np.arange(n)[::-1], **kw),
    "spmv": lambda n, **kw: spatial.spmv(sp.random(n // 4, n // 4, density=4 / n * 4,
                                                   random_state=n, format="csr"),
                                         np.ones(n // 4), **kw),
    "matmul": lambda n, **kw: spatial.matmul(np.ones((int(n ** 0.5),) * 2),
                                             np.ones((int(n ** 0.5),) * 2), **kw),
    "spmv_direct": lambda n, **kw: spatial.spmv(sp.random(n // 4, n // 4, density=4 / n * 4,
                                                          random_state=n, format="csr"),
                                                np.ones(n // 4), method="direct", **kw),
}


@pytest.mark.parametrize("name", sorted(_RUNS))
def test_memory_is_constant_and_within_the_default(name):
    small, large = (_RUNS[name](n) for n in (1 << 8, 1 << 13))
    assert large.metrics.max_words <= small.metrics.max_words <= DEFAULT_WORDS   # no growth
    assert large.metrics.max_message_words <= spatial.DEFAULT_MESSAGE_WORDS
    # The peak is exact: the algorithm runs with exactly that memory and not with one less.
    w = large.metrics.max_words
    assert _RUNS[name](1 << 13, words=w).metrics == large.metrics
    with pytest.raises(SpatialModelError, match="would hold"):
        _RUNS[name](1 << 13, words=w - 1) if w > 1 else (_ for _ in ()).throw(
            SpatialModelError("would hold"))


@FAST
@given(st.integers(1, 9), st.data(), st.sampled_from([np.add, np.maximum, np.minimum]))
def test_tree_steps_over_any_member_set_equal_numpy(L, data, op):
    # Broadcast, reduce and Blelloch's scan over an arbitrary subset of a machine's processors.
    p = 1 << L
    members = np.array(sorted(data.draw(st.sets(st.integers(0, p - 1), min_size=1))))
    vals = np.array(data.draw(st.lists(st.integers(-99, 99), min_size=members.size,
                                       max_size=members.size)))
    m = spatial.Machine(p, words=4, message_words=1)
    m.load("v", vals, procs=members)
    spatial.tree_scan(m, "v", op, members, into="pre")
    has = m.holds("pre", members)
    assert has.tolist() == [False] + [True] * (members.size - 1)
    assert np.array_equal(m.read("pre", members[1:]), op.accumulate(vals)[:-1])
    m.free("pre")
    spatial.tree_reduce(m, "v", op, members)
    assert m.read("v", [0])[0] == op.reduce(vals)
    m.load("b", 5, procs=[0])
    spatial.tree_broadcast(m, "b", members)
    assert np.all(m.read("b", members) == 5)
    assert not m.holds("b", np.setdiff1d(np.arange(p), np.r_[members, 0])).any()


def test_tree_scan_over_sparse_members_equals_cumsum():
    rng = np.random.default_rng(5)
    m = spatial.Machine(1 << 10)
    members = np.sort(rng.choice(1 << 10, size=77, replace=False))
    vals = rng.integers(-50, 50, size=77)
    m.load("v", vals, procs=members)
    spatial.tree_scan(m, "v", np.add, members, into="pre", total="tot")
    has = m.holds("pre", members)
    assert has.tolist() == [False] + [True] * 76
    assert np.array_equal(m.read("pre", members[1:]), np.cumsum(vals)[:-1])
    assert m.read("tot", members[-1:])[0] == vals.sum()
    assert m.metrics.max_words <= 4


# -- Hypothesis: results equal numpy ------------------------------------------------------
ints = hnp.arrays(np.int64, st.integers(0, 200), elements=st.integers(-50, 50))
floats = hnp.arrays(np.float64, st.integers(0, 200),
                    elements=st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))
values = st.one_of(ints, floats)


def _close(a, b):
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return np.allclose(a, b, rtol=1e-9, atol=1e-6)
    return np.array_equal(a, b)


@FAST
@given(values, st.sampled_from([np.add, np.maximum, np.minimum]), st.booleans(),
       st.sampled_from(["z-order", "row-major", "line"]))
def test_scan_equals_accumulate(x, op, exclusive, layout):
    r = spatial.scan(x, op, exclusive=exclusive, initial=0, layout=layout)
    expect = op.accumulate(x) if x.size else x
    if exclusive and x.size:
        expect = np.concatenate(([0], expect[:-1])).astype(expect.dtype)
    assert r.value.shape == x.shape and _close(r.value, expect)
    assert r.metrics.energy >= max(x.size - 1, 0) and r.metrics.max_words <= 4
    chain = spatial.scan(x, op, exclusive=exclusive, initial=0, method="chain")
    assert _close(chain.value, expect)


@FAST
@given(values.filter(lambda a: a.size > 0), st.sampled_from(["add", "max", "min"]))
def test_reduce_equals_numpy(x, op):
    r = spatial.reduce(x, op)
    expect = {"add": np.add, "max": np.maximum, "min": np.minimum}[op].reduce(x)
    assert _close(np.asarray(r.value), np.asarray(expect))
    assert r.metrics.energy >= x.size - 1


@FAST
@given(values)
def test_sort_equals_numpy_and_respects_lower_bound(x):
    for layout in ("z-order", "row-major"):
        r = spatial.sort(x, layout=layout)
        assert np.array_equal(r.value, np.sort(x))
        assert r.metrics.energy >= spatial.sort_lower_bound(x, layout)


@FAST
@given(values.filter(lambda a: a.size > 0), st.data())
def test_select_equals_partition(x, data):
    k = data.draw(st.integers(0, x.size - 1))
    seed = data.draw(st.integers(0, 2**32 - 1))
    r = spatial.select(x, k, seed=seed)
    assert r.value == np.partition(x, k)[k]
    assert r.metrics.energy >= x.size - 1 and r.metrics.max_words <= DEFAULT_WORDS
    assert spatial.select(x, k, method="sort").value == np.partition(x, k)[k]


@FAST
@given(values.filter(lambda a: a.size > 0), st.integers(0, 100))
def test_median_equals_numpy(x, seed):
    assert spatial.median(x, seed=seed).value == np.median(x)
    assert spatial.median(x, method="sort").value == np.median(x)


@FAST
@given(st.integers(1, 40), st.integers(1, 40), st.floats(0, 0.4), st.integers(0, 2**31),
       st.booleans())
def test_spmv_equals_scipy(rows, cols, density, seed, integer):
    rng = np.random.default_rng(seed)
    A = sp.random(rows, cols, density=density, format="coo", random_state=rng)
    x = rng.normal(size=cols)
    if integer:
        A.data = rng.integers(-9, 10, size=A.nnz)
        A = A.astype(np.int64)
        x = rng.integers(-9, 10, size=cols)
    for method in ("sort", "direct"):
        r = spatial.spmv(A, x, method=method)
        assert _close(r.value, A @ x)
        assert r.metrics.energy >= spatial.spmv_lower_bound(A)


# -- lower bounds are bounds --------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 16), elements=st.integers(0, 3)))
def test_sort_lower_bound_below_optimal_matching(x):
    # Oracle: the cheapest assignment of elements to slots holding their value.
    n = x.size
    px, py = spatial.layout_coordinates(1 << (n - 1).bit_length())
    target = np.sort(x)
    cost = np.abs(px[:n, None] - px[None, :n]) + np.abs(py[:n, None] - py[None, :n])
    cost = np.where(x[:, None] == target[None, :], cost, 10**6)
    r, c = linear_sum_assignment(cost)
    optimal = int(cost[r, c].sum())
    lb = spatial.sort_lower_bound(x)
    assert lb <= optimal
    if np.unique(x).size == n:
        assert lb == optimal


def test_sort_lower_bound_of_reversal_is_about_n_to_the_1_5():
    n = 1 << 12
    lb = spatial.sort_lower_bound(np.arange(n)[::-1])
    assert 0.9 * n ** 1.5 <= lb <= 1.1 * n ** 1.5


# -- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("call, exc, words", [
    (lambda: spatial.sort([1.0, np.nan]), SpatialInputError, "NaN"),
    (lambda: spatial.select([np.nan, 1.0], 0), SpatialInputError, "NaN"),
    (lambda: spatial.median([np.nan]), SpatialInputError, "NaN"),
    (lambda: spatial.select([1, 2, 3], 3), SpatialInputError, "k must be in"),
    (lambda: spatial.select([], 0), SpatialInputError, "at least one"),
    (lambda: spatial.scan(np.ones((2, 2))), SpatialInputError, "one-dimensional"),
    (lambda: spatial.scan([1, 2], np.subtract), SpatialInputError, "not associative"),
    (lambda: spatial.scan([1, 2], "max", exclusive=True), SpatialInputError, "initial"),
    (lambda: spatial.scan(["a", "b"]), SpatialTypeError, "dtype"),
    (lambda: spatial.scan([1, 2], method="magic"), SpatialInputError, "method"),
    (lambda: spatial.reduce([]), SpatialInputError, "at least one"),
    (lambda: spatial.broadcast([1, 2], 4), SpatialInputError, "scalar"),
    (lambda: spatial.broadcast(1, 0), SpatialInputError, "n must be"),
    (lambda: spatial.sort([1, 2], layout="line"), SpatialInputError, "layout"),
    (lambda: spatial.spmv(np.eye(2), [1, 2]), SpatialTypeError, "scipy.sparse"),
    (lambda: spatial.spmv(sp.eye(3), [1, 2]), SpatialInputError, "one entry per column"),
    (lambda: spatial.spmv(sp.eye(2), [1, 2], method="dense"), SpatialInputError, "method"),
    (lambda: spatial.select([1, 2], 0, seed="x"), SpatialTypeError, "seed"),
    (lambda: spatial.matmul(np.ones((2, 3)), np.ones((2, 3))), SpatialInputError, "square"),
    (lambda: spatial.matmul(np.ones((2, 2)), np.ones((3, 3))), SpatialInputError, "same shape"),
    (lambda: spatial.matmul(sp.eye(2), np.ones((2, 2))), SpatialTypeError, "dense"),
    (lambda: spatial.select([1, 2], 0, method="quickselect"), SpatialInputError, "method"),
    (lambda: spatial.scan([1, 2, 3], words=0), SpatialInputError, "words"),
    (lambda: spatial.sort(np.arange(8), words=1), SpatialModelError, "would hold 2 words"),
    (lambda: spatial.median(np.arange(8.0), message_words=1), SpatialModelError,
     "message of 2 words"),
])
def test_bad_input_gets_a_clear_error(call, exc, words):
    with pytest.raises(exc, match=words) as info:
        call()
    assert isinstance(info.value, SpatialError)


def test_handled_inputs():
    # Non-powers of two are padded (sort) or leave processors idle (the trees): handled.
    x = np.array([3, 1, 2, 5, 4])
    r = spatial.sort(x)
    assert r.value.tolist() == [1, 2, 3, 4, 5] and r.n_processors == 8
    assert spatial.scan([]).value.size == 0 and spatial.sort([]).value.size == 0
    # NaN propagates through a scan as in numpy (no comparison involved): handled.
    s = spatial.scan([1.0, np.nan, 2.0]).value
    assert s[0] == 1.0 and np.isnan(s[1:]).all()
    # Empty sparse matrix, empty rows.
    y = spatial.spmv(sp.csr_matrix((3, 2)), [1.0, 2.0]).value
    assert y.tolist() == [0.0, 0.0, 0.0]


# -- selection's word packing and its fallbacks -------------------------------------------------
@pytest.mark.parametrize("x", [
    np.arange(5000)[::-1].astype(float),                        # reversed
    np.repeat([0.1, 0.3], 2500),                                # two values, not float32-exact
    np.full(3000, 0.1),                                         # all equal
    np.random.default_rng(7).integers(2**62, 2**62 + 10**6, size=4000),   # ints beyond int32
    np.random.default_rng(8).integers(0, 2, size=3000).astype(bool),
    np.random.default_rng(9).normal(scale=1e300, size=3000),    # float32 overflows to inf
])
def test_select_fallbacks_of_the_packed_words(x):
    for k in (0, x.size // 3, x.size - 1):
        r = spatial.select(x, k, seed=k)
        assert r.value == np.partition(x, k)[k]
        assert r.metrics.max_message_words <= 2 and r.metrics.max_words <= DEFAULT_WORDS


def test_select_with_counts_in_three_words(monkeypatch):
    # n >= 2**21 needs three count words; force that path on a small input.
    import spatial.selection as sel
    monkeypatch.setattr(sel, "_pack_fields", lambda n: (max(1, int(n).bit_length()), False))
    x = np.random.default_rng(3).normal(size=2000)
    r = spatial.select(x, 777, seed=1)
    assert r.value == np.partition(x, 777)[777] and r.metrics.max_message_words == 3
