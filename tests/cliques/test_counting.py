"""Exact triangle / k-clique counts (graphmine.cliques._cpu) against networkx and published counts."""

import contextlib
from collections import Counter
from math import comb

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.core import graph
from tests.helpers import edge_arrays, nx_graph

# Reference figures of the shipped graphs (datasets/README.md says where each comes from): triangles
# and average clustering over vertices with an edge (SNAP's pages for ca-GrQc, ca-HepTh and
# facebook_combined; networkx for all ten), 4- and 5-cliques (networkx, by
# `python benchmarks/reference_counts.py`, which uses no graphmine code). None: not computed.
REFERENCE = {
    "ca-GrQc": (48260, 0.5297, 329297, 2215500),
    "ca-HepTh": (28339, 0.4715, 65592, 279547),
    "facebook_combined": (1612010, 0.6055, 30004668, 517965151),
    "USAir": (12181, 0.6252, 61072, 243506),
    "NS": (3764, 0.6937, 7159, 17314),
    "PB": (101043, 0.3203, 422327, 1377655),
    "Yeast": (60689, 0.3057, 424444, 2454474),
    "Celegans": (3241, 0.2924, 2010, 801),
    "Power": (651, 0.0801, 90, 15),
    "Router": (803, 0.0116, 279, 37),
}


def clique_counts(H):
    return Counter(len(c) for c in nx.enumerate_all_cliques(H))


@pytest.mark.parametrize("n", [3, 5, 8])
@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_complete_graph_closed_form(n, k):
    assert gm.count_cliques(nx.complete_graph(n), k) == comb(n, k)


def test_named_graphs():
    assert gm.count_triangles(nx.petersen_graph()) == 0
    assert gm.count_triangles(nx.karate_club_graph()) == 45
    assert gm.count_cliques(nx.karate_club_graph(), 4) == 11
    assert gm.count_cliques(nx.karate_club_graph(), 5) == 2
    assert gm.count_cliques(nx.karate_club_graph(), 6) == 0
    assert gm.count_triangles(nx.empty_graph(5)) == 0
    assert gm.count_cliques(nx.empty_graph(0), 4) == 0


@contextlib.contextmanager
def kernels(parallel):
    """Force the parallel kernels (or the serial twins) whatever the graph's size."""
    import graphmine.cliques._cpu as family  # it holds its own copy of the threshold

    saved = (graph.SERIAL_EDGES, family.SERIAL_EDGES, family.SMALL_CLIQUE_WORK, family.SMALL_CLIQUE_WORK_DEEP,
             family.SMALL_TRIANGLE_EDGES)
    graph.SERIAL_EDGES = family.SERIAL_EDGES = 0 if parallel else 2**62
    if parallel:  # no count is small enough for one thread
        family.SMALL_CLIQUE_WORK = family.SMALL_CLIQUE_WORK_DEEP = 0.0
        family.SMALL_TRIANGLE_EDGES = -1
    try:
        yield
    finally:
        (graph.SERIAL_EDGES, family.SERIAL_EDGES, family.SMALL_CLIQUE_WORK,
         family.SMALL_CLIQUE_WORK_DEEP, family.SMALL_TRIANGLE_EDGES) = saved


@pytest.mark.slow
@given(edge_arrays(dense=True), st.sampled_from([1, 2]), st.booleans())
def test_counts_equal_networkx(data, threads, parallel):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    ref = clique_counts(H)
    tri = nx.triangles(H)
    with kernels(parallel):
        assert gm.count_triangles(G, threads=threads) == ref.get(3, 0)
        for k in (3, 4, 5, 6):
            assert gm.count_cliques(G, k, threads=threads) == ref.get(k, 0)
            assert gm.count_cliques(G, k, order="degree", threads=threads) == ref.get(k, 0)
            assert gm.count_cliques(gm.Graph.from_csr(G.indptr, G.indices), k, order="approx-degeneracy",
                                    threads=threads) == ref.get(k, 0)
        assert gm.triangles(G, threads=threads).tolist() == [tri[v] for v in range(n)]


@pytest.mark.slow
@given(edge_arrays(dense=True), st.integers(0, 2**32 - 1))
def test_invariant_under_relabelling_and_input_form(data, seed):
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    perm = np.random.default_rng(seed).permutation(n)
    P = gm.from_edges(perm[edges] if len(edges) else edges, n_nodes=n)
    H = nx_graph(n, edges)
    G64 = gm.Graph(G.indptr, G.indices, index_dtype=np.int64)
    for k in (3, 4, 5):
        want = gm.count_cliques(G, k)
        assert gm.count_cliques(P, k) == want
        assert gm.count_cliques(H, k) == want
        assert gm.count_cliques(G.to_scipy(), k) == want
        assert gm.count_cliques(G64, k) == want
        assert gm.count_cliques(G, k, threads=1) == want
        with kernels(parallel=True):
            assert gm.count_cliques(G64, k, threads=2) == want
            assert gm.count_cliques(P, k, threads=2) == want
    assert np.array_equal(gm.triangles(P)[perm], gm.triangles(G))
    assert np.array_equal(gm.triangles(G64), gm.triangles(G))
    with kernels(parallel=True):
        assert np.array_equal(gm.triangles(G64, threads=2), gm.triangles(G))


@pytest.mark.parametrize("k", [4, 5])
def test_small_work_rule_both_sides(monkeypatch, k):
    """The same graph counted on each side of the small-work threshold: the serial kernel below it,
    the parallel one on the two threads asked for above it, and networkx's count on both."""
    import graphmine.cliques._cpu as family
    from graphmine.cliques import _clique_kernels as ck

    H = nx.gnp_random_graph(120, 0.3, seed=7)
    want = clique_counts(H)[k]
    G = gm.from_edges(np.array(H.edges()), n_nodes=120)
    O = G.oriented("degeneracy", relabel=True)
    d = np.diff(O.indptr).astype(np.int64)
    work = family._clique_work(O)
    assert work == float((d * d).sum() + d.size)
    ran = []
    serial, parallel = ck._cliques_serial, ck._cliques_range
    monkeypatch.setattr(ck, "_cliques_serial", lambda *a: ran.append("serial") or serial(*a))
    monkeypatch.setattr(ck, "_cliques_range", lambda *a: ran.append(a[-1]) or parallel(*a))
    monkeypatch.setattr(family, "SERIAL_EDGES", 0)  # past the small-graph paths
    monkeypatch.setattr(family, "_small_count", lambda *a: None)
    for bound, threads, kernels in ((work + 1, 1, {"serial"}), (work, 2, {2})):
        monkeypatch.setattr(family, "SMALL_CLIQUE_WORK", bound)
        monkeypatch.setattr(family, "SMALL_CLIQUE_WORK_DEEP", bound)
        assert family._small_clique_work(O, k, 2) == (threads == 1)
        assert not family._small_clique_work(O, k, 3)  # from 3 threads on: every thread asked for
        ran.clear()
        assert gm.count_cliques(G, k, threads=2) == want
        assert set(ran) == kernels
    ran.clear()  # above the bound on threads=1: batches (interruptible) on one thread
    assert gm.count_cliques(G, k, threads=1) == want
    assert ran and set(ran) == {"serial"}
    # k >= 5 between the bounds: the first batch on one thread, the rest on one thread when the
    # measured rate says it is short, else on two; the batches cover every root once
    # (k = 4 below SMALL_CLIQUE_WORK is one serial call)
    monkeypatch.setattr(family, "SMALL_CLIQUE_WORK_DEEP", 0)
    monkeypatch.setattr(family, "SMALL_CLIQUE_WORK", work + 1)
    monkeypatch.setattr(family, "MIN_BATCH", work / 5)
    for seconds, kernels in ((1e9, ["serial", "serial"]), (0.0, ["serial", 2])):
        monkeypatch.setattr(family, "SMALL_CLIQUE_SECONDS", seconds)
        ran.clear()
        assert gm.count_cliques(G, k, threads=2) == want
        if k == 4:
            assert ran == ["serial"]
        else:
            assert ran[:2] == kernels and set(ran[1:]) == {kernels[1]}
    # more threads than SMALL_WORK_MAX_THREADS: no one-thread shortcut, every batch in parallel
    monkeypatch.setattr(family, "SMALL_WORK_MAX_THREADS", 1)
    monkeypatch.setattr(family, "SMALL_CLIQUE_SECONDS", 1e9)
    ran.clear()
    assert gm.count_cliques(G, k, threads=2) == want
    assert ran and set(ran) == {2}


def test_file_input_form(tmp_path):
    H = nx.karate_club_graph()
    p = tmp_path / "k.el"
    p.write_text("".join(f"{u} {v}\n" for u, v in H.edges()))
    assert gm.count_cliques(str(p), 4) == gm.count_cliques(H, 4) == 11


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_reference_counts_of_shipped_graphs(shipped, name):
    tri, avg, c4, c5 = REFERENCE[name]
    G = shipped[name]
    assert gm.count_triangles(G) == tri
    assert int(gm.triangles(G).sum()) == 3 * tri
    with_edge = G.degree > 0
    assert gm.clustering(G)[with_edge].mean() == pytest.approx(avg, abs=5e-5)
    if c4 is not None:
        assert gm.count_cliques(G, 4) == c4
        assert gm.count_cliques(G, 5) == c5


@pytest.mark.parametrize("k", [0, 2, -1, 3.0, "4", True])
def test_bad_k(k):
    with pytest.raises(gm.ParameterError, match="k must"):
        gm.count_cliques(nx.complete_graph(4), k)


def test_bad_threads_and_method_keywords():
    with pytest.raises(gm.ParameterError, match="threads"):
        gm.count_triangles(nx.complete_graph(4), threads=0)
    with pytest.raises(gm.ParameterError, match="unexpected keywords"):
        gm.count_triangles(nx.complete_graph(4), budget=0.1)


def test_default_order_of_large_counts_on_many_threads(monkeypatch):
    """k >= 4 counts take the approximate degeneracy order from APPROX_ORDER_MIN_THREADS threads
    and APPROX_ORDER_MIN_EDGES edges on (an orientation already cached is used as it is), with
    the same count as networkx's."""
    import graphmine.cliques._cpu as family

    H = nx.gnp_random_graph(300, 0.1, seed=3)
    want = clique_counts(H)
    monkeypatch.setattr(family, "APPROX_ORDER_MIN_THREADS", 2)
    monkeypatch.setattr(family, "APPROX_ORDER_MIN_EDGES", H.number_of_edges())
    monkeypatch.setattr(family, "_small_count", lambda *a: None)
    G = gm.from_edges(np.array(H.edges()), n_nodes=300)
    assert family.count_cliques(G, 4, threads=1) == want[4]
    assert G.has_orientation("degeneracy", relabel=True)
    G = gm.from_edges(np.array(H.edges()), n_nodes=300)
    assert family.count_cliques(G, 5, threads=2) == want[5]
    assert G.has_orientation("approx-degeneracy", relabel=True) and not G.has_orientation("degeneracy", relabel=True)
    assert family.count_cliques(G, 4, threads=1) == want[4]  # the cached orientation
    assert not G.has_orientation("degeneracy", relabel=True)
    monkeypatch.setattr(family, "APPROX_ORDER_MIN_EDGES", H.number_of_edges() + 1)
    G = gm.from_edges(np.array(H.edges()), n_nodes=300)
    assert family.count_cliques(G, 4, threads=2) == want[4]
    assert G.has_orientation("degeneracy", relabel=True)


def test_per_vertex_triangles_use_numpy_within_the_kernels_price(monkeypatch):
    """Per-vertex triangles of small graphs: numpy while its work in this process stays within
    what loading the kernel would cost (rent or buy), then the kernel, and the kernel at once
    when it is loaded; networkx's counts on every path. (Before, numpy ran on every call while
    the kernel was not loaded, and nothing ever loaded it.)"""
    import graphmine.cliques._cpu as family
    from graphmine.cliques import _clique_kernels as ck
    from graphmine._primitives import small_work as sw

    H = nx.gnm_random_graph(200, 1500, seed=4)
    want = [nx.triangles(H)[v] for v in range(200)]
    G = gm.as_graph(H)
    O = G.oriented("degree", relabel=True)
    work = sw.triangle_work(O.indptr, O.indices)
    ran = []
    serial = ck._triangles_per_vertex_serial

    class Kernel:
        overloads = {}

        def __call__(self, *a):
            ran.append(1)
            return serial(*a)

    kernel = Kernel()
    monkeypatch.setattr(ck, "_triangles_per_vertex_serial", kernel)
    monkeypatch.setattr(family, "_NUMPY_SPENT", {})
    monkeypatch.setattr(sw, "work_budget", lambda k: 2 * work if k is kernel else 0)
    for i in range(4):  # a new graph each time: nothing kept
        assert gm.triangles(gm.Graph.from_csr(G.indptr, G.indices), threads=1).tolist() == want
        assert len(ran) == max(0, i - 1)
    monkeypatch.setattr(family, "_NUMPY_SPENT", {})
    Kernel.overloads = {"loaded": True}
    assert gm.triangles(gm.Graph.from_csr(G.indptr, G.indices), threads=1).tolist() == want
    assert len(ran) == 3


def test_warm_up_keeps_the_int32_indices_signature():
    from numba import types

    from graphmine.cliques._cpu import count_kernels, narrow_indices

    i64, i32 = types.Array(types.int64, 1, "C"), types.Array(types.int32, 1, "C")
    assert narrow_indices((i64, i32, types.int64)) and not narrow_indices((i64, i64, types.int64))
    names = lambda *a: [k.py_func.__name__ for k in count_kernels(*a)]  # noqa: E731
    assert names(3, 2, 10**7) == []
    assert names(4, 2, 10**7) == ["_cliques_serial", "_degeneracy_oriented"]
    assert names(5, 2, 10**7) == ["_cliques_serial", "_degeneracy_oriented", "_cliques_range"]
    assert names(5, 1, 10**7) == ["_cliques_serial", "_degeneracy_oriented"]
    assert names(5, 8, 10**7) == ["_cliques_serial", "_cliques_range"]  # the approximate order's kernels differ
