"""Maximal cliques, clique listing and k-clique communities (graphmine.cliques.enumeration) against
networkx and brute force."""

from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import graphmine as gm
from graphmine.cliques import _maximal_kernels as _mk
from graphmine.cliques.enumeration import (_batches, count_maximal_cliques, enumerate_cliques, list_cliques,
                                       maximal_cliques, maximal_clique_batches, node_clique_number)
from tests.helpers import edge_arrays, nx_graph

graphs = st.one_of(edge_arrays(), edge_arrays(dense=True, max_nodes=16))


@pytest.mark.slow
@given(graphs, st.integers(1, 40), st.sampled_from([1, 2]))
def test_maximal_cliques_equal_networkx(data, batch, threads):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    want = set(map(frozenset, nx.find_cliques(H)))
    got = list(maximal_cliques(G, batch=batch, threads=threads))
    assert len(got) == len(want) and set(map(frozenset, got)) == want
    assert len(set(map(id, got))) == len(got)  # every clique its own list (a run's prefix is copied)
    for ahead in (False, True):  # serial == parallel, with and without the helper thread
        got = [c for v, s in maximal_clique_batches(G, batch=batch, threads=threads, ahead=ahead)
               for c in np.split(v, np.cumsum(s)[:-1]).copy()]
        assert len(got) == len(want) and set(map(frozenset, map(np.ndarray.tolist, got))) == want
    assert count_maximal_cliques(G, threads=threads) == len(want)
    sizes = count_maximal_cliques(G, by_size=True, threads=threads)
    assert sizes == [sum(len(c) == s for c in want) for s in range(len(sizes))]
    ncn = nx.node_clique_number(H)
    assert node_clique_number(G, threads=threads).tolist() == [ncn[v] for v in range(n)]


def _common_prefix(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@given(graphs, st.integers(1, 60), st.sampled_from([1, 2]))
def test_search_reports_the_prefix_shared_with_the_clique_before(data, batch, threads):
    """The search's count of leading members shared with the clique before is that common prefix
    (compared member by member): 0 where the clique before is another search's, whose root, the
    first member, differs."""
    n, edges = data
    G = gm.from_edges(edges, n_nodes=n)
    for verts, sizes, shared in _batches(G, batch, threads, False):
        cl = np.split(verts, np.cumsum(sizes)[:-1])
        assert shared[0] == 0
        for i in range(1, len(cl)):
            assert shared[i] == _common_prefix(cl[i - 1].tolist(), cl[i].tolist())


def test_search_reports_shared_prefixes_on_a_real_graph():
    """On facebook_combined's first batches almost every clique shares a long prefix with the one
    before, and the search reports exactly the member-by-member common prefix."""
    G = gm.datasets.load("facebook_combined")
    seen = 0
    for verts, sizes, shared in _batches(G, 1 << 16, 2, False):
        cl = np.split(verts, np.cumsum(sizes)[:-1])
        want = [0] + [_common_prefix(a.tolist(), b.tolist()) for a, b in zip(cl, cl[1:])]
        assert shared.tolist() == want and (shared > 0).mean() > 0.9
        seen += 1
        if seen == 3:
            break


@given(st.lists(st.tuples(st.integers(0, 8), st.lists(st.integers(0, 9), max_size=6)), min_size=1, max_size=30),
       st.integers(0, 5), st.integers(0, 3))
def test_shared_prefix_runs_rebuild_every_clique(steps, tail_max, less):
    """The runs maximal_cliques builds its lists from: each clique, in order, is its run's prefix
    followed by its own tail, on sequences where each clique keeps some of the one before."""
    cliques, prev = [], []
    for keep, extra in steps:
        prev = (prev[:keep] + extra) or [0]
        cliques.append(prev)
    verts = np.array([v for c in cliques for v in c], np.int64)
    sizes = np.array([len(c) for c in cliques], np.int64)
    # the shared counts as the search reports them, or fewer (a run is then cut earlier)
    shared = np.array([0] + [max(0, _common_prefix(a, b) - less) for a, b in zip(cliques, cliques[1:])], np.int64)
    runs, plen, pre, tails, tlen = _mk._shared_prefixes(verts, sizes, shared, tail_max)
    assert runs.sum() == len(cliques) and pre.shape[0] == plen.sum() and tails.shape[0] == tlen.sum()
    rebuilt, p, t, i = [], 0, 0, 0
    for r, L in zip(runs.tolist(), plen.tolist()):
        for _ in range(r):
            rebuilt.append(pre[p:p + L].tolist() + tails[t:t + tlen[i]].tolist())
            t += tlen[i]
            i += 1
        p += L
    assert rebuilt == cliques


@given(graphs, st.integers(1, 30))
def test_all_cliques_by_size_equal_networkx(data, batch):
    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    got = list(enumerate_cliques(G, batch=batch))
    assert [len(c) for c in got] == sorted(len(c) for c in got)
    assert sorted(map(sorted, got)) == sorted(map(sorted, nx.enumerate_all_cliques(H)))
    for k in (3, 4):
        rows = np.concatenate(list(list_cliques(G, k, batch=batch)) or [np.zeros((0, k), np.int64)])
        assert sorted(map(tuple, rows.tolist())) == sorted(tuple(sorted(c)) for c in nx.enumerate_all_cliques(H)
                                                         if len(c) == k)


def test_wide_candidate_sets():
    # K100 without three disjoint edges: 2^3 maximal cliques of 97 vertices, P and X sets of two words
    H = nx.complete_graph(100)
    H.remove_edges_from([(0, 1), (2, 3), (4, 5)])
    H.add_edges_from([(99, 100), (100, 101)])
    want = set(map(frozenset, nx.find_cliques(H)))
    assert set(map(frozenset, maximal_cliques(H))) == want and count_maximal_cliques(H) == len(want) == 10
    assert node_clique_number(H).tolist() == [97] * 100 + [2, 2]


def moon_moser(parts):
    """The complete multipartite graph K_{3,...,3}: 3^parts maximal cliques of ``parts`` vertices."""
    return nx.complete_multipartite_graph(*[3] * parts)


@pytest.mark.parametrize("nthreads", [1, 2])
def test_maximal_listing_memory_is_bounded(nthreads):
    # 3^9 = 19,683 maximal cliques of 9 vertices through per-thread buffers of 12 vertices (one
    # clique each): the searches pause and resume thousands of times, no batch exceeds the buffers
    H = moon_moser(9)
    G = gm.as_graph(H)
    O = G.oriented("degeneracy", relabel=True, threads=1)
    rank = O.rank
    roots = np.argsort(-np.diff(O.indptr)[rank]).astype(np.int64)
    cap = O.max_out_degree + 1
    states = _mk._bk_states(nthreads, O.max_out_degree, int(G.degree.max()))
    counter = np.zeros(1, np.int64)
    cliques, pauses, done = [], 0, False
    while not done:
        verts, sizes, shared, paused, done = _mk._maximal_batch(G.indptr, G.indices, rank, roots, counter,
                                                                states, cap, nthreads)
        assert verts.shape[0] <= nthreads * cap and sizes.sum() == verts.shape[0]
        pauses += paused
        if sizes.shape[0]:
            cliques += np.split(verts, np.cumsum(sizes)[:-1])
    want = set(map(frozenset, nx.find_cliques(H)))
    assert len(want) == 3 ** 9 and pauses >= 3 ** 9 // nthreads - 3 ** 8
    assert len(cliques) == len(want) and set(frozenset(c.tolist()) for c in cliques) == want
    # the same through the public generator: batches of at most `batch` vertices
    got = []
    for verts, sizes in maximal_clique_batches(G, batch=40, threads=nthreads):
        assert verts.shape[0] <= 40
        got += np.split(verts, np.cumsum(sizes)[:-1])
    assert len(got) == len(want)


@pytest.mark.parametrize("name", ["ca-GrQc", "ca-HepTh"])
def test_maximal_cliques_real_graphs(name):
    from graphmine.nx_backend import BackendInterface as B

    G = gm.datasets.load(name)
    H = nx.Graph()
    H.add_nodes_from(range(G.n_nodes))
    H.add_edges_from(G.edges().tolist())
    want = set(map(frozenset, nx.find_cliques(H)))
    for threads in (1, 2):
        got = list(maximal_cliques(G, threads=threads, batch=1 << 12))
        assert len(got) == len(want) and set(map(frozenset, got)) == want
    S = nx.relabel_nodes(H, {v: f"n{v}" for v in H})
    got = list(B.find_cliques(B.convert_from_nx(S)))
    assert len(got) == len(want) and set(map(frozenset, got)) == set(map(frozenset, nx.find_cliques(S)))
    assert count_maximal_cliques(G, threads=2) == len(want)


@given(graphs, st.integers(1, 40), st.booleans(), st.data())
def test_maximal_cliques_through_nodes_equal_networkx(data, batch, strings, draw):
    """``nodes``: the maximal cliques containing all of them, nodes first, as networkx's
    find_cliques(G, nodes) (drawn as a clique most of the time, so both paths are exercised:
    the listing and networkx's ValueError)."""
    from graphmine.nx_backend import BackendInterface as B

    n, edges = data
    H = nx_graph(n, edges)
    G = gm.from_edges(edges, n_nodes=n)
    if n == 0:
        return
    cliques = list(nx.find_cliques(H))
    if draw.draw(st.integers(0, 3)):  # a subset of a maximal clique, in any order
        c = draw.draw(st.sampled_from(cliques))
        nodes = draw.draw(st.lists(st.sampled_from(c), min_size=1, max_size=len(c), unique=True))
    else:
        nodes = draw.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
    is_clique = len(set(nodes)) == len(nodes) and all(H.has_edge(u, v) for u, v in combinations(nodes, 2))
    want = [c for c in cliques if set(nodes) <= set(c)]
    if is_clique:
        got = list(maximal_cliques(G, nodes=nodes, batch=batch))
        assert sorted(map(sorted, got)) == sorted(map(sorted, want)) and len(want) >= 1
        assert all(c[:len(nodes)] == nodes for c in got)  # networkx's order: the nodes first
        assert sorted(map(sorted, nx.find_cliques(H, nodes))) == sorted(map(sorted, want))
    else:
        with pytest.raises(ValueError):
            list(nx.find_cliques(H, nodes))
        with pytest.raises(gm.ParameterError, match="do not form a clique"):
            maximal_cliques(G, nodes=nodes)
    label = (lambda v: f"v{v}") if strings else (lambda v: v)
    L = nx.relabel_nodes(H, label) if strings else H
    lnodes = [label(v) for v in nodes]
    if is_clique:
        got = list(B.find_cliques(L, lnodes))
        assert sorted(map(sorted, got)) == sorted(sorted(map(label, c)) for c in want)
    else:
        with pytest.raises(ValueError):
            list(B.find_cliques(L, lnodes))


def test_maximal_cliques_through_nodes_refuses_bad_nodes():
    G = gm.from_edges(np.array([[0, 1], [1, 2], [2, 0], [2, 3]]))
    with pytest.raises(gm.ParameterError, match="vertex 7 is out of range 0..3"):
        maximal_cliques(G, nodes=[0, 7])
    with pytest.raises(gm.ParameterError, match="vertex 2 is not adjacent to all of"):
        maximal_cliques(G, nodes=[3, 2, 2])
    with pytest.raises(gm.ParameterError, match="vertex numbers"):
        maximal_cliques(G, nodes=["a"])
    assert list(maximal_cliques(G, nodes=[0, 1, 2])) == [[0, 1, 2]]
    assert sorted(map(sorted, maximal_cliques(G, nodes=[]))) == [[0, 1, 2], [2, 3]]
    from graphmine.nx_backend import BackendInterface as B

    H = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    with pytest.raises(ValueError, match="do not form a clique"):
        list(B.find_cliques(H, [0, "x"]))
    assert list(B.find_cliques(nx.Graph(), ["x"])) == list(nx.find_cliques(nx.Graph(), ["x"])) == []
    assert B.can_run("find_cliques", (H, [1]), {}) is True


@given(edge_arrays(dense=True), st.integers(2, 5))
def test_clique_communities_equal_networkx(data, k):
    from networkx.algorithms.community import k_clique_communities as nx_kcc

    n, edges = data
    H = nx_graph(n, edges)
    want = set(map(frozenset, nx_kcc(H, k)))
    got = gm.clique_communities(gm.from_edges(edges, n_nodes=n), k)
    assert {frozenset(c.tolist()) for c in got} == want and len(got) == len(want)
    assert set(nx_kcc(H, k, backend="graphmine")) == want


def test_clique_communities_bad_k():
    with pytest.raises(gm.ParameterError, match="k must be"):
        gm.clique_communities(nx.complete_graph(3), 1)
    assert gm.clique_communities(nx.empty_graph(0), 3) == []
    assert gm.clique_communities(nx.path_graph(4), 3) == []


def test_clique_communities_memory_limit(monkeypatch):
    monkeypatch.setenv("GRAPHMINE_MAX_BYTES", "1000")
    with pytest.raises(gm.exceptions.ResourceLimitError, match="maximal cliques of 3 or more"):
        gm.clique_communities(nx.complete_graph(200), 3)
