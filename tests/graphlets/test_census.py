"""The graphlet census (graphmine.graphlets) against a brute-force enumerator written here: every
connected induced subgraph on 2 to 4 vertices of small graphs, classified from its edge count and
degrees, with each vertex's and edge's orbit read from the definitions (Pržulj's numbering, as in
ORCA); ORCA's own example output where it is at hand; igraph's motifs_randesu on shipped graphs."""

import itertools
import os
from collections import Counter
from unittest.mock import patch

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphmine as gm
from graphmine.core.exceptions import ParameterError
from graphmine.graphlets import _cpu

# -- the oracle ------------------------------------------------------------------------------------

# (vertices, edges, sorted degrees) -> graphlet number; then a vertex's orbit from its degree in the
# graphlet and an edge's from its ends' degrees (the definitions of graphmine/graphlets/__init__.py)
GRAPHLET = {(2, 1, (1, 1)): 0, (3, 2, (1, 1, 2)): 1, (3, 3, (2, 2, 2)): 2, (4, 3, (1, 1, 2, 2)): 3,
            (4, 3, (1, 1, 1, 3)): 4, (4, 4, (2, 2, 2, 2)): 5, (4, 4, (1, 2, 2, 3)): 6, (4, 5, (2, 2, 3, 3)): 7,
            (4, 6, (3, 3, 3, 3)): 8}
NODE_ORBIT = {0: {1: 0}, 1: {1: 1, 2: 2}, 2: {2: 3}, 3: {1: 4, 2: 5}, 4: {1: 6, 3: 7}, 5: {2: 8},
              6: {1: 9, 2: 10, 3: 11}, 7: {2: 12, 3: 13}, 8: {3: 14}}
EDGE_ORBIT = {1: {(1, 2): 0}, 2: {(2, 2): 1}, 3: {(1, 2): 2, (2, 2): 3}, 4: {(1, 3): 4}, 5: {(2, 2): 5},
              6: {(1, 3): 6, (2, 2): 7, (2, 3): 8}, 7: {(2, 3): 9, (3, 3): 10}, 8: {(3, 3): 11}}


def classify(vertices, edges):
    """(graphlet, {vertex: degree}) of a connected graph, or (None, degrees) if it is not connected."""
    deg = Counter()
    adj = {v: set() for v in vertices}
    for a, b in edges:
        deg[a] += 1
        deg[b] += 1
        adj[a].add(b)
        adj[b].add(a)
    seen, todo = {vertices[0]}, [vertices[0]]
    while todo:
        for y in adj[todo.pop()] - seen:
            seen.add(y)
            todo.append(y)
    if len(seen) < len(vertices):
        return None, deg
    return GRAPHLET[(len(vertices), len(edges), tuple(sorted(deg[v] for v in vertices)))], deg


def brute_force(H):
    """(node orbits (n, 15), edge orbits {(u, v): 12 counts}, induced counts (9,), non-induced (9,))
    of a networkx graph on 0..n-1, by listing every vertex set of 2 to 4 vertices."""
    n = H.number_of_nodes()
    node = np.zeros((n, 15), np.int64)
    edge = {tuple(sorted(e)): np.zeros(12, np.int64) for e in H.edges()}
    induced = np.zeros(9, np.int64)
    copies = np.zeros(9, np.int64)
    for k in (2, 3, 4):
        for S in itertools.combinations(range(n), k):
            E = [(a, b) for a, b in itertools.combinations(S, 2) if H.has_edge(a, b)]
            g, deg = classify(S, E)
            if g is None:
                continue
            induced[g] += 1
            for v in S:
                node[v, NODE_ORBIT[g][deg[v]]] += 1
            if g > 0:
                for a, b in E:
                    edge[(a, b)][EDGE_ORBIT[g][tuple(sorted((deg[a], deg[b])))]] += 1
            for r in range(k - 1, len(E) + 1):  # the connected spanning subgraphs: the copies
                for F in itertools.combinations(E, r):
                    h, _ = classify(S, F)
                    if h is not None:
                        copies[h] += 1
    return node, edge, induced, copies


graphs = st.integers(1, 11).flatmap(
    lambda n: st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=32).map(
        lambda edges: (n, edges)))


def _nx(n, edges):
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from((u, v) for u, v in edges if u != v)
    return H


def _edge_rows(G, edge):
    """The oracle's edge orbits in the order of G.edges()."""
    return np.array([edge[(int(u), int(v))] for u, v in G.edges()], np.int64).reshape(-1, 12)


# -- exactness -------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(graphs, st.sampled_from([(1, True), (1, False), (2, False)]))
def test_every_orbit_matches_the_brute_force(g, how):
    threads, serial = how
    H = _nx(*g)
    node, edge, induced, copies = brute_force(H)
    G = gm.as_graph(H)
    with patch.object(_cpu, "_CENSUS_SERIAL_EDGES", 10 ** 9 if serial else 0):  # the small graphs' path or the threads'
        _check_all(G, threads, node, edge, induced, copies)


def _check_all(G, threads, node, edge, induced, copies):
    assert (gm.orbit_counts(G, threads=threads) == node).all()
    assert (gm.orbit_counts(G, kind="edge", threads=threads) == _edge_rows(G, edge)).all()
    assert (gm.graphlet_counts(G, threads=threads) == induced).all()
    assert (gm.graphlet_counts(G, induced=False, threads=threads) == copies).all()
    assert (gm.graphlet_counts(G, 3) == induced[:3]).all()
    assert (gm.orbit_counts(G, 3) == node[:, :4]).all()
    assert (gm.orbit_counts(G, 3, kind="edge") == _edge_rows(G, edge)[:, :2]).all()


def test_dense_and_structured_graphs():
    # hubs, cliques and bipartite blocks exercise the 4-cycle walk and the bit matrix of 4-cliques
    for H in (nx.complete_graph(7), nx.complete_bipartite_graph(3, 5), nx.wheel_graph(9), nx.petersen_graph(),
              nx.barbell_graph(5, 2), nx.gnp_random_graph(14, 0.6, seed=4), nx.karate_club_graph()):
        H = nx.convert_node_labels_to_integers(H)
        node, edge, induced, _ = brute_force(H)
        for serial in (True, False):
            G = gm.as_graph(H)
            with patch.object(_cpu, "_CENSUS_SERIAL_EDGES", 10 ** 9 if serial else 0):
                assert (gm.orbit_counts(G, threads=2) == node).all()
                assert (gm.orbit_counts(G, kind="edge", threads=2) == _edge_rows(G, edge)).all()
                assert (gm.graphlet_counts(G) == induced).all()


def test_closed_forms():
    from math import comb

    n = 8
    K = gm.orbit_counts(nx.complete_graph(n))
    assert (K[:, 14] == comb(n - 1, 3)).all() and (K[:, 3] == comb(n - 1, 2)).all()
    assert (K[:, [1, 2] + list(range(4, 14))] == 0).all()
    counts = gm.graphlet_counts(nx.complete_bipartite_graph(4, 6))
    assert counts[5] == comb(4, 2) * comb(6, 2)  # 4-cycles
    assert counts[4] == 4 * comb(6, 3) + 6 * comb(4, 3)  # 3-stars
    assert counts[2] == counts[6] == counts[7] == counts[8] == 0
    # a 64-vertex clique: the bit matrix of a root's out-neighbourhood spans two words
    assert gm.graphlet_counts(nx.complete_graph(66))[8] == comb(66, 4)


def test_larger_graph_threads_agree_and_sum_rules():
    H = nx.gnm_random_graph(3000, 60000, seed=7)  # above the serial threshold: the threads share chunks
    G = gm.as_graph(H)
    one, two = gm.orbit_counts(G, threads=1), gm.orbit_counts(G, threads=2)
    assert (one == two).all()
    e1, e2 = gm.orbit_counts(G, kind="edge", threads=1), gm.orbit_counts(G, kind="edge", threads=2)
    assert (e1 == e2).all()
    assert (one[:, 0] == G.degree).all()
    assert (one[:, 3] == gm.triangles(G)).all()
    # an edge orbit summed over the edges is a node orbit summed over the vertices, scaled by the
    # graphlet's edges and vertices in those orbits (4-clique: 6 edges, 4 vertices)
    assert e1[:, 11].sum() * 4 == one[:, 14].sum() * 6
    assert e1[:, 5].sum() == one[:, 8].sum()  # 4-cycle: 4 edges, 4 vertices


def test_relabelling_permutes_the_rows():
    H = nx.gnp_random_graph(40, 0.3, seed=2)
    perm = np.random.default_rng(0).permutation(40)
    P = nx.relabel_nodes(H, dict(enumerate(perm.tolist())))
    a = gm.orbit_counts(gm.as_graph(H))
    b = gm.orbit_counts(gm.from_edges(np.array(P.edges()), n_nodes=40))
    assert (b[perm] == a).all()


def test_matrices_are_the_copies_in_each_graphlet():
    # NODE_PATTERNS / EDGE_PATTERNS derived again: copies of each pattern inside each graphlet
    reps = {1: [(0, 1), (1, 2)], 2: [(0, 1), (1, 2), (0, 2)], 3: [(0, 1), (1, 2), (2, 3)],
            4: [(0, 1), (0, 2), (0, 3)], 5: [(0, 1), (1, 2), (2, 3), (0, 3)], 6: [(0, 1), (1, 2), (0, 2), (2, 3)],
            7: [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)], 8: list(itertools.combinations(range(4), 2))}
    C = np.zeros((15, 15), np.int64)
    CE = np.zeros((12, 12), np.int64)
    C[0, 0] = 1
    for g, E in reps.items():
        S = tuple(range(3 if g < 3 else 4))
        _, gdeg = classify(S, E)
        for r in range(1, len(E) + 1):
            for F in itertools.combinations(E, r):
                h, deg = classify(S, F)
                if h is None:
                    continue
                for v in S:
                    C[NODE_ORBIT[h][deg[v]], NODE_ORBIT[g][gdeg[v]]] += 1
                for a, b in F:
                    here = EDGE_ORBIT[g][tuple(sorted((gdeg[a], gdeg[b])))]
                    CE[EDGE_ORBIT[h][tuple(sorted((deg[a], deg[b])))], here] += 1
        for o, size in Counter(NODE_ORBIT[g][gdeg[v]] for v in S).items():
            C[:, o] //= size
            assert _cpu.ORBIT_SIZES[o] == size
        for o, size in Counter(EDGE_ORBIT[g][tuple(sorted((gdeg[a], gdeg[b])))] for a, b in E).items():
            CE[:, o] //= size
    assert C.tolist() == [list(r) for r in _cpu.NODE_PATTERNS]
    assert CE.tolist() == [list(r) for r in _cpu.EDGE_PATTERNS]
    assert (_cpu._inverse(_cpu.NODE_PATTERNS) @ C == np.eye(15, dtype=np.int64)).all()


def test_empty_and_edgeless():
    assert gm.orbit_counts(nx.empty_graph(0)).shape == (0, 15)
    assert gm.orbit_counts(nx.empty_graph(3)).tolist() == [[0] * 15] * 3
    assert gm.orbit_counts(nx.empty_graph(3), kind="edge").shape == (0, 12)
    assert gm.graphlet_counts(nx.empty_graph(5)).tolist() == [0] * 9


def test_bad_arguments_are_one_clear_error():
    H = nx.path_graph(4)
    for call, what in ((lambda: gm.orbit_counts(H, 6), "size"), (lambda: gm.orbit_counts(H, kind="arc"), "kind"),
                       (lambda: gm.graphlet_counts(H, method="guess"), "method"),
                       (lambda: gm.graphlet_counts(H, seed=1), "seed"),
                       (lambda: gm.graphlet_counts(H, method="sample", samples=0), "samples"),
                       (lambda: gm.graphlet_counts(H, 3, method="sample"), "size"),
                       (lambda: gm.graphlet_counts(H, size=True), "size")):
        with pytest.raises(ParameterError, match=what):
            call()


# -- other programs --------------------------------------------------------------------------------

ORCA_DIR = os.environ.get("GRAPHMINE_ORCA_DIR")


@pytest.mark.skipif(not ORCA_DIR, reason="set GRAPHMINE_ORCA_DIR to a folder with ORCA's graph.in, node-4.out "
                                         "and edge-4.out (github.com/thocevar/orca)")
def test_orca_example_graph():
    with open(os.path.join(ORCA_DIR, "graph.in")) as f:
        n, m = map(int, f.readline().split())
        E = np.loadtxt(f, dtype=np.int64, max_rows=m).reshape(-1, 2)
    G = gm.from_edges(E, n_nodes=n)
    assert (gm.orbit_counts(G) == np.loadtxt(os.path.join(ORCA_DIR, "node-4.out"), dtype=np.int64)).all()
    # ORCA's edge rows follow its input's lines
    pos = {(int(u), int(v)): i for i, (u, v) in enumerate(G.edges())}
    rows = [pos[(min(u, v), max(u, v))] for u, v in E.tolist()]
    want = np.loadtxt(os.path.join(ORCA_DIR, "edge-4.out"), dtype=np.int64)
    assert (gm.orbit_counts(G, kind="edge")[rows] == want).all()


@pytest.mark.parametrize("name", ["USAir", "Celegans", "ca-GrQc"])
def test_global_counts_match_igraph_motifs(name, shipped):
    ig = pytest.importorskip("igraph")
    G = shipped[name]
    g = ig.Graph(n=G.n_nodes, edges=G.edges().tolist())
    # igraph's isomorphism classes of connected graphs, named by sorted degrees and edge count
    ours = gm.graphlet_counts(G)
    for size in (3, 4):
        for cls, count in enumerate(g.motifs_randesu(size=size)):
            if np.isnan(count):
                continue  # a disconnected class
            h = ig.Graph.Isoclass(size, cls)
            graphlet = GRAPHLET[(size, h.ecount(), tuple(sorted(h.degree())))]
            assert ours[graphlet] == count, (name, size, cls)


# -- estimates ---------------------------------------------------------------------------------------

def test_sampling_is_exact_where_every_path_spans_one_graphlet():
    from math import comb

    e = gm.graphlet_counts(nx.complete_graph(7), method="sample", samples=2000, seed=5)
    assert e.estimate.tolist() == gm.graphlet_counts(nx.complete_graph(7)).astype(float).tolist()
    assert e.stderr.max() == 0.0 and e.estimate[8] == comb(7, 4)
    e = gm.graphlet_counts(nx.path_graph(6), method="sample", samples=500, seed=1)
    assert e.estimate[3] == 3 and e.stderr[3] == 0.0  # every 3-path of a path is an induced path


def test_sampling_is_reproducible_and_thread_independent(shipped):
    G = shipped["USAir"]
    a = gm.graphlet_counts(G, method="sample", samples=20000, seed=11, threads=1)
    b = gm.graphlet_counts(G, method="sample", samples=20000, seed=11, threads=2)
    assert np.array_equal(a.estimate, b.estimate) and a.seed == 11 and a.samples == 20000
    c = gm.graphlet_counts(G, method="sample", samples=20000)
    assert isinstance(c.seed, int)  # drawn and reported
    assert np.array_equal(gm.graphlet_counts(G, method="sample", samples=20000, seed=c.seed).estimate, c.estimate)


@pytest.mark.parametrize("induced", [True, False])
def test_intervals_cover_the_truth(induced, shipped):
    # 100 seeded runs: each 95% interval covers the exact count in at least 85 of them (the
    # binomial 0.1% quantile at a true 95% is 88), and the mean is within 4 standard errors
    G = shipped["USAir"]
    exact = gm.graphlet_counts(G, induced=induced)
    runs = [gm.graphlet_counts(G, method="sample", samples=4000, seed=s, induced=induced) for s in range(100)]
    covered = sum(((r.ci_low <= exact) & (exact <= r.ci_high)).astype(int) for r in runs)
    assert covered.min() >= 85, covered
    est = np.array([r.estimate for r in runs])
    se = np.array([r.stderr for r in runs]).mean(axis=0)
    assert (np.abs(est.mean(axis=0) - exact) <= 4 * se / 10 + 1e-9).all()


def test_error_shrinks_with_the_samples(shipped):
    G = shipped["ca-GrQc"]
    exact = gm.graphlet_counts(G)
    small = gm.graphlet_counts(G, method="sample", samples=10_000, seed=2)
    large = gm.graphlet_counts(G, method="sample", samples=160_000, seed=2)
    ratio = large.stderr[3:] / small.stderr[3:]
    assert (np.abs(ratio - 0.25) < 0.08).all(), ratio
    assert (np.abs(large.estimate - exact)[3:] <= 4 * large.stderr[3:]).all()
