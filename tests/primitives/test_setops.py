"""Set-operation kernels (graphmine/_primitives/setops.py) and the clique kernels built on them, against numpy,
networkx and closed forms."""

from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit, prange

import graphmine as gm
from graphmine.cliques import _clique_kernels as ck
from graphmine._primitives import setops as so


def sorted_rows():
    """Two sorted rows of distinct ints, often of very different lengths (the galloping path)."""
    row = st.lists(st.integers(0, 3000), max_size=400, unique=True).map(lambda x: np.array(sorted(x), np.int64))
    small = st.lists(st.integers(0, 3000), max_size=12, unique=True).map(lambda x: np.array(sorted(x), np.int64))
    return st.tuples(st.one_of(row, small), st.one_of(row, small))


def packed(x, y):
    """Both rows inside one array, as CSR rows are: (array, xa, xb, ya, yb)."""
    return np.concatenate([x, y]), 0, len(x), len(x), len(x) + len(y)


@settings(max_examples=150, deadline=None)
@given(sorted_rows())
def test_intersections_match_numpy(rows):
    x, y = rows
    common = np.intersect1d(x, y)
    a, xa, xb, ya, yb = packed(x, y)
    assert so.intersect_count(a, xa, xb, a, ya, yb) == len(common)
    assert so.intersect_count(y, 0, len(y), x, 0, len(x)) == len(common)
    out = np.empty(len(x) + len(y) + 1, np.int64)
    k = so.intersect_into(a, xa, xb, a, ya, yb, out)
    assert out[:k].tolist() == common.tolist()
    k = so.intersect_positions(x, 0, len(x), y, 0, len(y), out)
    assert x[out[:k]].tolist() == common.tolist()
    w = np.arange(3001, dtype=np.float64) * 0.25 + 1.0
    c, s = so.intersect_sum(a, xa, xb, a, ya, yb, w)
    assert c == len(common) and s == pytest.approx(w[common].sum(), rel=1e-12)
    deg = np.arange(3001, dtype=np.int64) % 17 + 2
    c, aa, ra = so.intersect_degree_sums(a, xa, xb, a, ya, yb, deg)
    assert c == len(common)
    assert aa == pytest.approx((1 / np.log(deg[common])).sum(), rel=1e-12)
    assert ra == pytest.approx((1 / deg[common]).sum(), rel=1e-12)
    sup = np.zeros(len(a), np.int64)
    assert so.intersect_supports(a, xa, xb, ya, yb, sup) == len(common)
    expect = np.zeros(len(a), np.int64)
    expect[np.flatnonzero(np.isin(a, common))] = 1  # each common entry once in each row
    assert sup.tolist() == expect.tolist()


@given(st.lists(st.integers(-50, 50), max_size=60), st.integers(-60, 60))
def test_binary_and_galloping_search(values, v):
    x = np.array(sorted(values), np.int64)
    for lo in range(0, len(x) + 1, 7):
        expect = lo + int(np.searchsorted(x[lo:], v))
        assert so.lower_bound(x, lo, len(x), v) == expect
        assert so.gallop(x, lo, len(x), v) == expect


def test_weighted_sums_in_increasing_order():
    # the same floating-point sum whichever path (merge or gallop) runs
    hub = np.arange(0, 4000, 2, dtype=np.int64)
    leaf = np.array([2, 10, 11, 3998], np.int64)
    w = 1.0 / (np.arange(4001) + 3.0)
    expect = 0.0
    for z in (2, 10, 3998):
        expect += w[z]
    assert so.intersect_sum(hub, 0, len(hub), leaf, 0, len(leaf), w) == (3, expect)
    assert so.intersect_sum(leaf, 0, len(leaf), hub, 0, len(hub), w) == (3, expect)


@njit
def _bits(x):
    return so.popcount(x), so.lowest_bit(x)


@njit(parallel=True)
def _claims(nchunks, nthreads):
    """How often each chunk is claimed from a shared counter by nthreads threads."""
    counter = np.zeros(1, np.int64)
    seen = np.zeros(nchunks, np.int64)
    for t in prange(nthreads):
        while True:
            i = so.fetch_add(counter, 0, 1)
            if i >= nchunks:
                break
            seen[i] += 1
    return seen


@given(st.integers(1, 2**64 - 1))
def test_bit_helpers(x):
    assert _bits(np.uint64(x)) == (bin(x).count("1"), (x & -x).bit_length() - 1)


def test_every_chunk_claimed_once():
    assert _claims(10_000, 4).tolist() == [1] * 10_000


def oriented(H, order):
    O = gm.as_graph(H).oriented(order, relabel=True)
    return O.indptr, O.indices, O.max_out_degree


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_clique_kernel_multiword_closed_forms(threads):
    # complete graph K_130 (a 129-vertex root: three words per set) and the complete 90-partite
    # graph with parts of size 2 (C(r, k) 2^k k-cliques; 178 out-neighbours: three words)
    for H, count in ((nx.complete_graph(130), lambda k: comb(130, k)),
                     (nx.complete_multipartite_graph(*[2] * 90), lambda k: comb(90, k) * 2 ** k)):
        optr, oind, dmax = oriented(H, "degeneracy")
        n = optr.shape[0] - 1
        for k in (3, 4, 5):
            got = (ck._cliques_serial(optr, oind, k, dmax, 0, n) if threads == 1
                   else ck._cliques_range(optr, oind, k, dmax, 0, n, threads))
            assert got == count(k)


@settings(max_examples=25, deadline=None)
@given(st.integers(20, 140), st.floats(0.05, 0.6), st.integers(0, 2**31 - 1))
def test_clique_kernels_agree_with_networkx(n, p, seed):
    H = nx.gnp_random_graph(n, p if n < 60 else p / 4, seed=seed)
    sizes = {}
    for c in nx.enumerate_all_cliques(H):
        if len(c) > 5:
            break
        sizes[len(c)] = sizes.get(len(c), 0) + 1
    optr, oind, dmax = oriented(H, "degeneracy")
    for k in (3, 4, 5):
        expect = sizes.get(k, 0)
        assert ck._cliques_serial(optr, oind, k, dmax, 0, n) == expect
        assert ck._cliques_range(optr, oind, k, dmax, 0, n, 2) == expect
        # split into ranges of roots, as the progress bar's batches are
        assert sum(ck._cliques_range(optr, oind, k, dmax, lo, min(n, lo + 17), 3) for lo in range(0, n, 17)) == expect
        # the sorted-list path of roots too wide for a bit matrix: scratch with a 4-row matrix
        # sends every root of out-degree > 4 there
        scratch = (np.empty((4, 1), np.uint64), np.empty(dmax + 1, np.int64), np.empty((k, 1), np.uint64),
                   np.empty(k, np.uint64), np.empty(k, np.uint64), np.empty(k, np.int64),
                   np.empty((k - 1, dmax + 1), oind.dtype), np.zeros(k - 1, np.int64))
        assert ck._cliques_span(optr, oind, k, 0, n, scratch) == expect


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 300), st.floats(0.01, 0.5), st.integers(0, 2**31 - 1), st.integers(1, 5))
def test_triangle_kernels_any_thread_count(n, p, seed, threads):
    H = nx.gnp_random_graph(n, p, seed=seed)
    H.add_edges_from((0, v) for v in range(1, n, 2))  # a hub whose arcs span several chunks
    per = nx.triangles(H)
    optr, oind, _ = oriented(H, "degree")
    O = gm.as_graph(H).oriented("degree", relabel=True)
    total = sum(per.values()) // 3
    go = np.zeros(1, np.int64)  # the cancel flag, never raised
    assert ck._triangles_total(optr, oind, threads, go) == total
    assert ck._triangles_total_serial(optr, oind) == total
    expect = [per[v] for v in range(n)]
    assert ck._triangles_per_vertex(optr, oind, threads, go)[O.rank].tolist() == expect
    # a raised flag stops the chunk claims: a partial count, never more than the total
    assert 0 <= ck._triangles_total(optr, oind, threads, np.ones(1, np.int64)) <= total
    assert ck._triangles_per_vertex_serial(optr, oind)[O.rank].tolist() == expect
    # any arc range: the chunks of the dynamic schedule
    m = optr[-1]
    mark = ck._mark_words(n)
    cuts = sorted({0, m, *range(0, m, max(1, m // 7))})
    assert sum(ck._triangles_arcs(optr, oind, a, b, mark) for a, b in zip(cuts[:-1], cuts[1:])) == total
    assert not mark.any()


@njit
def _lowest(S, r):
    # lowest_member is an inline helper for kernels: a compiled caller (one, at module level: a
    # function defined in the test would compile again for every example)
    return so.lowest_member(S, r, S.shape[1])


@given(st.lists(st.lists(st.booleans(), min_size=0, max_size=200), min_size=1, max_size=4))
def test_lowest_member_of_multiword_sets(rows):
    W = 4
    S = np.zeros((len(rows), W), np.uint64)
    for r, bits in enumerate(rows):
        for i, b in enumerate(bits):
            if b:
                S[r, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    lowest = _lowest
    for r, bits in enumerate(rows):
        assert lowest(S, r) == (bits.index(True) if True in bits else -1)


def _bitset(members, W):
    row = np.zeros(W, np.uint64)
    for i in members:
        row[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return row


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 150), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1), st.integers(-1, 40))
def test_bitset_member_walks_match_python_sets(d, p, seed, stop):
    """and_count, meets, member_degrees, members_meeting and or_rows against Python sets, on a
    random symmetric bit matrix over d vertices and two random member sets."""
    rng = np.random.default_rng(seed)
    W = (d + 63) >> 6
    adj = [set() for _ in range(d)]
    for i in range(d):
        for j in range(i + 1, d):
            if rng.random() < p:
                adj[i].add(j)
                adj[j].add(i)
    rows = np.array([_bitset(a, W) for a in adj]).reshape(d, W)
    S_set = {i for i in range(d) if rng.random() < 0.5}
    T_set = {i for i in range(d) if rng.random() < 0.5}
    ST = np.array([_bitset(S_set, W), _bitset(T_set, W)])
    assert so.and_count(ST, 0, ST, 1, W) == len(S_set & T_set)
    for i in range(d):
        assert so.meets(rows, i, ST, 1, W) == bool(adj[i] & T_set)
    # the walk as member_degrees documents it: members in order, first best/least, early end
    stop = so.WALK_ALL if stop < 0 else stop
    n = total = 0
    best, bp, least, lp = -1, -1, 1 << 30, -1
    for i in sorted(S_set):
        c = len(adj[i] & T_set)
        n += 1
        total += c
        if c > best:
            best, bp = c, i
        if c < least:
            least, lp = c, i
        if best >= stop > least:
            break
    got = so.member_degrees(ST, 0, W, rows, ST, 1, W, -1, -1, 1 << 30, -1, stop)
    assert tuple(int(x) for x in got) == (n, total, best, bp, least, lp)
    out = np.full((2, W), np.uint64(2**64 - 1))
    alone = so.members_meeting(ST, 0, W, rows, ST, 1, out, 1)
    meeting = {i for i in S_set if adj[i] & T_set}
    assert alone == len(S_set - meeting)
    assert out[1].tolist() == _bitset(meeting, W).tolist()
    assert out[0].tolist() == [2**64 - 1] * W  # other rows untouched
    seen = np.zeros((1, W), np.uint64)
    seen[0, 0] = np.uint64(1) << np.uint64(d - 1 if d <= 64 else 63)  # ORed into, not replaced
    so.or_rows(ST, 0, W, rows, ST, 1, seen, 0)
    reach = set().union(*(adj[i] & T_set for i in S_set)) | {d - 1 if d <= 64 else 63}
    assert seen[0].tolist() == _bitset(reach, W).tolist()
