"""The 5-vertex estimate from sampled spanning trees (graphlet_counts(G, 5, method='sample',
sampler='trees'); graphmine.graphlets._trees5) against brute force written here: the graphlets'
spanning trees, the relaxed sets' sizes and tree copies counted by enumeration, and the exact
5-vertex census (itself checked against brute force in test_census5.py) for the mean of many
seeded estimates."""

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphmine as gm
from graphmine.core.exceptions import ParameterError
from graphmine.graphlets import _census5, _trees5


def _tree_type(edges):
    """0 4-path, 1 fork, 2 4-star for a tree of 4 edges on 5 vertices, by its largest degree."""
    deg = np.bincount(np.array(edges).ravel(), minlength=5)
    return {2: 0, 3: 1, 4: 2}[int(deg.max())]


def _is_spanning_tree(edges):
    g = nx.Graph(list(edges))
    return g.number_of_nodes() == 5 and nx.is_tree(g)


def _trees_of(edges):
    """Spanning trees of each type among the 4-edge subsets of a 5-vertex graph's edges."""
    out = [0, 0, 0]
    for sub in itertools.combinations(edges, 4):
        if _is_spanning_tree(sub):
            out[_tree_type(sub)] += 1
    return out


def test_graphlet_edge_lists_follow_the_census_numbering():
    # each edge list, counted by the exact census, is one induced copy of its own graphlet
    for g, edges in enumerate(_trees5.GRAPHLET_EDGES5):
        counts = gm.graphlet_counts(gm.from_edges(np.array(edges), n_nodes=5), 5)[9:]
        assert counts.tolist() == [int(h == g) for h in range(21)], g


def test_mask_table_against_networkx_isomorphism():
    graphs = [nx.Graph(list(e)) for e in _trees5.GRAPHLET_EDGES5]
    for mask in range(1024):
        g = nx.Graph()
        g.add_nodes_from(range(5))
        g.add_edges_from(p for k, p in enumerate(_trees5.PAIRS5) if mask >> k & 1)
        got = _trees5.MASK_GRAPHLET[mask]
        if not nx.is_connected(g):
            assert got == -1
        else:
            assert nx.is_isomorphic(g, graphs[got]), mask


def test_tree_copies_by_brute_force():
    brute = np.array([_trees_of(e) for e in _trees5.GRAPHLET_EDGES5]).T
    assert brute.tolist() == _trees5.TREE_COPIES.tolist()
    # and they are the census map's rows of G9, G10 and G11
    assert brute.tolist() == [list(r) for r in _census5.GRAPHLET_PATTERNS5[:3]]
    # every connected 5-vertex graph has some spanning tree
    assert (brute.sum(axis=0) > 0).all()


def _relaxed_brute(G):
    """The relaxed sets' sizes and their valid members, by enumerating the configurations."""
    adj = {v: sorted(G[v]) for v in G}
    size = [0, 0, 0]
    valid = [0, 0, 0]
    for c in G:
        N = adj[c]
        for b, d in itertools.combinations(N, 2):  # P: a - b - c - d - e
            for a in adj[b]:
                for e in adj[d]:
                    if c in (a, e):
                        continue
                    size[0] += 1
                    valid[0] += len({a, b, c, d, e}) == 5
        for z in N:  # F: c - z - w, leaves {x, y}
            for w in adj[z]:
                if w == c:
                    continue
                for x, y in itertools.combinations([u for u in N if u != z], 2):
                    size[1] += 1
                    valid[1] += w not in (x, y)
        for leaves in itertools.combinations(N, 4):  # S
            size[2] += 1
            valid[2] += 1
    return size, valid


def _tree_copies_brute(G):
    """Copies (as subgraphs) of each tree type: 4-edge spanning trees of every 5-vertex set."""
    out = [0, 0, 0]
    for S in itertools.combinations(G.nodes, 5):
        edges = list(G.subgraph(S).edges)
        for sub in itertools.combinations(edges, 4):
            if _is_spanning_tree(sub):
                out[_tree_type(sub)] += 1
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(5, 11), st.floats(0.2, 0.8), st.integers(0, 10 ** 6))
def test_relaxed_sizes_and_valid_configurations(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    size, valid = _relaxed_brute(G)
    H = gm.as_graph(G)
    W, cw, arcw = _trees5.tree_weights(H.indptr, H.indices)
    assert list(W) == size
    assert np.allclose(cw[:, -1] if n else 0, size)
    assert valid == _tree_copies_brute(G)
    # arcw: the cumulative (d_b - 1) along each row
    d = np.diff(H.indptr)
    for v in range(H.n_nodes):
        row = H.indices[H.indptr[v]:H.indptr[v + 1]]
        assert arcw[H.indptr[v]:H.indptr[v + 1]].tolist() == np.cumsum(d[row] - 1).tolist()


def test_exact_totals_past_int64():
    # a star of 200,000 leaves: C(d, 4) ~ 6.7e19 does not fit an int64; W is exact
    n = 200_000
    H = gm.from_edges(np.stack([np.zeros(n, np.int64), np.arange(1, n + 1)], axis=1), n_nodes=n + 1)
    W, cw, _ = _trees5.tree_weights(H.indptr, H.indices)
    assert W == (0, 0, n * (n - 1) * (n - 2) * (n - 3) // 24)
    assert cw[2, -1] == pytest.approx(W[2], rel=1e-12)


def _estimates(G, samples, seeds, threads=1):
    runs = [gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=samples, seed=s, threads=threads)
            for s in seeds]
    return (np.array([r.estimate[9:] for r in runs]), np.array([r.stderr[9:] for r in runs]),
            np.array([r.ci_low[9:] for r in runs]), np.array([r.ci_high[9:] for r in runs]))


@pytest.mark.parametrize("G", [nx.karate_club_graph(), nx.gnp_random_graph(40, 0.15, seed=3),
                               nx.complete_bipartite_graph(3, 6)], ids=["karate", "gnp40", "k36"])
def test_unbiased_against_the_exact_census(G):
    exact = gm.graphlet_counts(G, 5)
    est, se, _, _ = _estimates(G, 20_000, range(40))
    mean = est.mean(axis=0)
    # the mean's standard error from the runs' stated ones (they agree with the spread: below)
    se_mean = np.sqrt((se ** 2).sum(axis=0)) / est.shape[0]
    present = exact[9:] > 0
    assert (np.abs(mean - exact[9:])[present] <= 5 * se_mean[present] + 1e-9).all()
    # graphlets absent from the graph are never drawn
    assert (est[:, ~present] == 0).all()
    # the 4-vertex graphlets stay exact
    full = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=100, seed=0)
    assert full.estimate[:9].tolist() == exact[:9].tolist()
    assert (full.stderr[:9] == 0).all()


def test_stated_errors_match_the_spread():
    G = nx.karate_club_graph()
    est, se, lo, hi = _estimates(G, 20_000, range(100))
    exact = gm.graphlet_counts(G, 5)[9:]
    common = exact >= 100
    ratio = est.std(axis=0)[common] / se.mean(axis=0)[common]
    assert ((ratio > 0.7) & (ratio < 1.3)).all()
    # the 95% intervals cover in most runs
    cover = ((lo <= exact) & (exact <= hi)).mean(axis=0)
    assert (cover[common] >= 0.85).all()


def test_same_result_on_any_thread_count():
    G = nx.gnp_random_graph(40, 0.2, seed=5)
    a = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=30_001, seed=11, threads=1)
    b = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=30_001, seed=11, threads=2)
    assert a.estimate.tolist() == b.estimate.tolist() and a.stderr.tolist() == b.stderr.tolist()
    c = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=30_001, seed=12, threads=2)
    assert a.estimate.tolist() != c.estimate.tolist()


def test_exact_cases_and_non_induced():
    # a clique: every valid draw is a 5-clique; a 4-star draw is always valid, so S alone would
    # be exact, and the combination is close
    e = gm.graphlet_counts(nx.complete_graph(6), 5, method="sample", sampler="trees", samples=30_000, seed=2)
    assert (e.estimate[9:29] == 0).all()
    assert e.estimate[29] == pytest.approx(6, rel=0.02) and e.ci_low[29] <= 6 <= e.ci_high[29]
    # no vertex of degree 3: no forks, no 4-stars; a 6-cycle's 4-paths are all induced
    e = gm.graphlet_counts(nx.cycle_graph(6), 5, method="sample", sampler="trees", samples=999, seed=2)
    assert e.estimate[9] == 6 and e.stderr[9] == 0 and (e.estimate[10:] == 0).all()
    # non-induced: the census map applied to the induced estimate
    G = nx.gnp_random_graph(20, 0.3, seed=1)
    ind = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=5000, seed=4)
    non = gm.graphlet_counts(G, 5, method="sample", sampler="trees", samples=5000, seed=4, induced=False)
    assert np.allclose(non.estimate[9:], np.array(_census5.GRAPHLET_PATTERNS5) @ ind.estimate[9:])
    # the non-induced 4-stars are exactly sum C(d, 4) in expectation; the S draws alone see them
    d = np.array([x for _, x in G.degree])
    assert non.estimate[11] == pytest.approx(sum(int(x) * (x - 1) * (x - 2) * (x - 3) // 24 for x in d), rel=0.05)
    empty = gm.graphlet_counts(nx.empty_graph(4), 5, method="sample", sampler="trees", samples=10, seed=0)
    assert (empty.estimate == 0).all() and empty.samples == 10


def test_errors():
    G = nx.karate_club_graph()
    with pytest.raises(ParameterError, match="sampler"):
        gm.graphlet_counts(G, 4, method="sample", sampler="trees")
    with pytest.raises(ParameterError, match="sampler"):
        gm.graphlet_counts(G, 5, sampler="trees")
    with pytest.raises(ParameterError, match="sampler"):
        gm.graphlet_counts(G, 5, method="sample", sampler="edges")
    with pytest.raises(ParameterError, match="size=5"):
        gm.graphlets._cpu.sample_graphlet_counts(G, 4, sampler="trees")
