"""Motif patterns, enumeration, protocol, subgraphs, labels and heuristic motif scores."""

import itertools
import json
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from networkx.algorithms import isomorphism as iso

import graphmine as gm
from graphmine.io.generators import planted_cliques_graph
from graphmine.motifs import (LINK_SCORES, canonical_tuples, clique, count_motifs, cycle, distance_labels,
                              enclosing_subgraphs, evaluate_heuristics, find_motifs, heuristic_motif_scores,
                              is_motif, link_scores, motif_from_graph, motif_prediction_task, n_distance_labels,
                              motif_edge_flags, motif_scores, path, star, zero_one_labels)

MOTIFS = [clique(3), clique(4), star(3), star(4), path(3), path(4), cycle(4), cycle(5),
          motif_from_graph(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), name="paw")]


def nx_count(G, motif, induced):
    GM = iso.GraphMatcher(G, motif.to_networkx())
    it = GM.subgraph_isomorphisms_iter() if induced else GM.subgraph_monomorphisms_iter()
    maps = list(it)
    assert len(maps) % len(motif.automorphisms) == 0
    return len(maps) // len(motif.automorphisms)


@st.composite
def small_graphs(draw):
    n = draw(st.integers(5, 14))
    p = draw(st.floats(0.15, 0.6))
    return nx.gnp_random_graph(n, p, seed=draw(st.integers(0, 10**6)))


# -- patterns and enumeration ----------------------------------------------------------------------
def test_pattern_definitions():
    assert clique(5).n_edges == 10 and clique(5).dealbreakers.shape == (0, 2)
    s = star(5)
    assert s.edges.tolist() == [[0, i] for i in range(1, 5)]
    assert sorted(map(tuple, s.dealbreakers.tolist())) == list(itertools.combinations(range(1, 5), 2))
    assert len(cycle(6).automorphisms) == 12 and len(path(5).automorphisms) == 2
    with pytest.raises(gm.ParameterError):
        motif_from_graph(nx.Graph([(0, 1), (2, 3)]))          # disconnected
    with pytest.raises(gm.ParameterError):
        clique(11)


def test_named_motifs_equal_their_networkx_graphs():
    # the four constructors are made by one function from their edge rules: each equals the induced
    # motif of networkx's graph of that name (clique: no deal-breakers), keeps its name and
    # module, and refuses the sizes its docstring names
    import pickle

    from graphmine.motifs import get_motif, patterns

    graphs = {"clique": nx.complete_graph, "star": lambda k: nx.star_graph(k - 1), "path": nx.path_graph,
              "cycle": nx.cycle_graph}
    for kind, make in (("clique", clique), ("star", star), ("path", path), ("cycle", cycle)):
        low = 3 if kind == "cycle" else 2
        assert (make.__name__, make.__qualname__, make.__module__) == (kind, kind, patterns.__name__)
        assert pickle.loads(pickle.dumps(make)) is make
        assert f"Number of motif vertices, {low}..10." in make.__doc__
        for k in range(low, 8):
            m, ref = make(k), motif_from_graph(graphs[kind](k), dealbreakers=None if kind == "clique" else "complement")
            assert m.name == kind and m.k == k
            assert m.edges.tolist() == ref.edges.tolist() and m.dealbreakers.tolist() == ref.dealbreakers.tolist()
            assert get_motif(kind, k).edges.tolist() == m.edges.tolist()
        for bad in (low - 1, 11, 3.0, True):
            with pytest.raises(gm.ParameterError):
                make(bad)


def test_hand_counts():
    P = nx.petersen_graph()
    assert count_motifs(P, cycle(5)) == 12                    # the Petersen graph has 12 pentagons
    assert count_motifs(P, clique(3)) == 0
    assert count_motifs(nx.complete_graph(6), clique(4)) == 15
    assert count_motifs(nx.complete_graph(5), star(3)) == 0  # every leaf pair is joined
    assert count_motifs(nx.complete_graph(5), star(3), induced=False) == 5 * 6


@settings(max_examples=12, deadline=None)
@given(small_graphs())
def test_enumeration_matches_networkx(G):
    for m in MOTIFS:
        for induced in (True, False):
            found = find_motifs(G, m, induced=induced, threads=1)
            assert found.shape[0] == nx_count(G, m, induced)
            assert is_motif(G, m, found, induced=induced).all()
            canon = canonical_tuples(m, found)
            assert np.array_equal(canon, found)                      # one canonical tuple each
            assert np.unique(canon, axis=0).shape[0] == found.shape[0]


def test_enumeration_serial_equals_parallel_and_caps():
    G = gm.datasets.load("Celegans")
    a = find_motifs(G, star(4), threads=1)
    b = find_motifs(G, star(4), threads=2)
    assert np.array_equal(a, b)
    capped = find_motifs(G, star(4), cap_per_root=3, seed=1)
    assert capped.shape[0] <= 3 * G.n_nodes and is_motif(G, star(4), capped).all()
    # every capped instance is a true instance
    full = {tuple(t) for t in a.tolist()}
    assert all(tuple(t) in full for t in canonical_tuples(star(4), capped).tolist())


def test_canonical_invariant_under_automorphisms():
    rng = np.random.default_rng(0)
    for m in MOTIFS:
        t = rng.choice(100, size=(20, m.k), replace=False) if m.k <= 100 else None
        t = np.array([rng.choice(100, m.k, replace=False) for _ in range(20)])
        c = canonical_tuples(m, t)
        for aut in m.automorphisms:
            assert np.array_equal(canonical_tuples(m, t[:, aut]), c)


# -- protocol --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def planted():
    G, cliques = planted_cliques_graph(500, 0.01, [10] * 20, seed=3)
    return G, cliques


@pytest.mark.parametrize("motif,remove", [(clique(4), "all"), (clique(4), 2), (star(4), "all"), (star(4), 1)])
def test_protocol_invariants(planted, motif, remove):
    G, _ = planted
    task = motif_prediction_task(G, motif, n_positives=40, remove=remove, seed=7)
    obs, me = task.observed, motif.n_edges
    r = me if remove == "all" else remove
    # removed edges were edges of G and are absent from the observed graph
    Gset = {tuple(e) for e in G.edges().tolist()}
    Oset = {tuple(e) for e in obs.edges().tolist()}
    R = {tuple(e) for e in task.removed_edges.tolist()}
    assert R <= Gset and not (R & Oset) and Oset | R == Gset
    pos = task.labels == 1
    assert is_motif(G, motif, task.tuples[pos]).all()
    assert not is_motif(G, motif, task.tuples[~pos]).any()
    present = ~task.targets
    assert (present[pos].sum(axis=1) == me - r).all()
    hard = task.kind == 1
    assert (present[hard].sum(axis=1) == me - r).all()
    # distinct canonical samples
    assert np.unique(canonical_tuples(motif, task.tuples), axis=0).shape[0] == len(task.tuples)
    # split: disjoint, stratified, covering
    idx = [set(task.indices(s).tolist()) for s in ("train", "val", "test")]
    assert sum(map(len, idx)) == len(task.labels) and not (idx[0] & idx[2]) and not (idx[1] & idx[2])
    for s in ("train", "val", "test"):
        y = task.labels[task.indices(s)]
        assert 0 < y.mean() < 1
    assert len(R) <= 0.25 * G.n_edges


def test_protocol_is_seeded(planted):
    G, _ = planted
    a = motif_prediction_task(G, star(3), n_positives=30, seed=11)
    b = motif_prediction_task(G, star(3), n_positives=30, seed=11)
    c = motif_prediction_task(G, star(3), n_positives=30, seed=12)
    assert np.array_equal(a.tuples, b.tuples) and np.array_equal(a.split, b.split)
    assert np.array_equal(a.removed_edges, b.removed_edges)
    assert not np.array_equal(a.tuples, c.tuples)


def test_protocol_errors():
    with pytest.raises(gm.GraphValueError):
        motif_prediction_task(nx.path_graph(30), clique(3), seed=0)
    with pytest.raises(gm.ParameterError):
        motif_prediction_task(nx.complete_graph(8), clique(3), remove=4, seed=0)
    with pytest.raises(gm.ParameterError):
        motif_prediction_task(nx.complete_graph(8), clique(3), split=(0.5, 0.5, 0.5), seed=0)


def test_tuples_with_a_repeated_vertex_are_refused():
    """A row with a vertex twice is no motif occurrence: one clear error naming the row, from
    every function that takes tuples (the Adamic-Adar score would otherwise divide by log 1 on a
    leaf shared with itself)."""
    G = nx.path_graph(6)  # leaves 0 and 5 have degree 1
    rows = [[0, 1, 2], [1, 0, 1], [2, 3, 4]]
    for call in (lambda: motif_scores(G, clique(3), rows, "adamic_adar", "independent"),
                 lambda: motif_edge_flags(G, clique(3), rows),
                 lambda: enclosing_subgraphs(G, clique(3), rows)):
        with pytest.raises(gm.ParameterError, match=r"distinct vertices per row; row 1 is \[1, 0, 1\]"):
            call()
    assert motif_scores(G, clique(3), [rows[0], rows[2]], "jaccard", "independent").shape == (2,)


def test_link_scores_of_a_vertex_with_itself_are_refused():
    """A pair (u, u) has no link to predict: one clear error naming the row (before, the
    Adamic-Adar term of a degree-1 neighbour divided by log 1 inside the kernel)."""
    G = nx.path_graph(3)
    for method in ("adamic_adar", "all", "jaccard"):
        with pytest.raises(gm.ParameterError, match=r"pairs must hold distinct vertices per row; row 1 is \[0, 0\]"):
            link_scores(G, [[0, 2], [0, 0]], method)
    assert link_scores(G, [[0, 2]], "adamic_adar").tolist() == [1 / math.log(2)]


# -- enclosing subgraphs and labels ----------------------------------------------------------------
@pytest.mark.parametrize("hops", [1, 2])
def test_no_removed_edge_leaks_into_subgraphs(planted, hops):
    G, _ = planted
    task = motif_prediction_task(G, clique(4), n_positives=40, seed=2)
    S = enclosing_subgraphs(task.observed, task.motif, task.tuples, task.targets, hops=hops)
    removed = {tuple(e) for e in task.removed_edges.tolist()}
    H = task.observed.to_networkx()
    for i in range(len(S)):
        nodes, edges, dist = S.sample(i)
        g = nodes[edges]
        assert not ({(min(a, b), max(a, b)) for a, b in g.tolist()} & removed)
        # masked target pairs never appear either
        tv = task.tuples[i]
        for (a, b), t in zip(task.motif.edges.tolist(), task.targets[i]):
            if t:
                assert (min(tv[a], tv[b]), max(tv[a], tv[b])) not in {(min(x, y), max(x, y)) for x, y in g.tolist()}
        # node set = union of h-hop balls in the observed graph, motif vertices first
        ball = set()
        for v in tv:
            ball |= set(nx.single_source_shortest_path_length(H, int(v), cutoff=hops))
        assert set(nodes.tolist()) == ball and nodes[:4].tolist() == tv.tolist()
        # induced: every observed edge among the nodes is there (targets are absent already)
        sub = H.subgraph(nodes.tolist())
        assert sub.number_of_edges() == len(edges)
        if i < 5:   # distances inside the subgraph, capped
            for a in range(4):
                d = nx.single_source_shortest_path_length(sub, int(tv[a]))
                exp = [min(d.get(int(v), S.dmax + 1), S.dmax + 1) for v in nodes]
                assert dist[:, a].tolist() == exp


def test_masking_present_target_edges():
    G = nx.complete_graph(5)
    S = enclosing_subgraphs(G, clique(3), [[0, 1, 2]], [[True, False, True]])
    nodes, edges, _ = S.sample(0)
    e = {tuple(sorted(p)) for p in nodes[edges].tolist()}
    # targets (0,1) and (1,2) masked, (0,2) kept
    assert (0, 1) not in e and (1, 2) not in e and (0, 2) in e and len(e) == 10 - 2


def test_max_nodes_per_hop_is_reproducible():
    G = gm.datasets.load("USAir")
    t = find_motifs(G, clique(3), cap_per_root=1)[:30]
    a = enclosing_subgraphs(G, clique(3), t, max_nodes_per_hop=10, seed=5)
    b = enclosing_subgraphs(G, clique(3), t, max_nodes_per_hop=10, seed=5, threads=1)
    assert np.array_equal(a.nodes, b.nodes) and np.array_equal(a.edges, b.edges)
    assert (a.sizes() <= 3 + 10).all()


@pytest.mark.parametrize("k,dmax", [(2, 3), (3, 3), (5, 3), (4, 5)])
def test_distance_labels_are_a_bijection_on_multisets(k, dmax):
    ms = np.array(list(itertools.combinations_with_replacement(range(dmax + 2), k)))
    lab = distance_labels(ms, dmax)
    assert sorted(lab.tolist()) == list(range(n_distance_labels(k, dmax)))
    assert n_distance_labels(k, dmax) == math.comb(dmax + 1 + k, k)


def test_labels_invariant_to_motif_vertex_order(planted):
    G, _ = planted
    t = find_motifs(G, star(4), cap_per_root=1)[:20]
    S1 = enclosing_subgraphs(G, star(4), t)
    perm = [0, 3, 1, 2]
    S2 = enclosing_subgraphs(G, star(4), t[:, perm])
    for i in range(len(t)):
        n1, _, d1 = S1.sample(i)
        n2, _, d2 = S2.sample(i)
        l1 = dict(zip(n1.tolist(), distance_labels(d1, S1.dmax).tolist()))
        l2 = dict(zip(n2.tolist(), distance_labels(d2, S2.dmax).tolist()))
        assert l1 == l2
    zo = zero_one_labels(S1)
    assert (np.add.reduceat(zo, S1.node_ptr[:-1]) == 4).all()
    # a node is a motif vertex iff one of its distances is 0
    assert np.array_equal(zo == 1, (S1.dist == 0).any(axis=1))


# -- heuristics ------------------------------------------------------------------------------------
def slow_link(H, u, v, name):
    cn = set(H[u]) & set(H[v])
    if name == "cn":
        return len(cn)
    if name == "jaccard":
        un = set(H[u]) | set(H[v])
        return len(cn) / len(un) if un else 0.0
    if name == "adamic_adar":
        return sum(1 / math.log(H.degree(w)) for w in cn)
    if name == "resource_allocation":
        return sum(1 / H.degree(w) for w in cn)
    return H.degree(u) * H.degree(v)


@settings(max_examples=10, deadline=None)
@given(small_graphs())
def test_link_scores_match_networkx(H):
    pairs = np.array(list(itertools.combinations(range(H.number_of_nodes()), 2)))
    got = link_scores(H, pairs, "all")
    ref = {"jaccard": nx.jaccard_coefficient, "adamic_adar": nx.adamic_adar_index,
           "resource_allocation": nx.resource_allocation_index,
           "preferential_attachment": nx.preferential_attachment}
    for name, f in ref.items():
        exp = [s for _, _, s in f(H, pairs.tolist())]
        np.testing.assert_allclose(got[name], exp, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got["cn"], [len(list(nx.common_neighbors(H, u, v))) for u, v in pairs])


def slow_motif_scores(H, motif, tuples):
    """Pure-Python reference of every motif score (formulas of the heuristics module)."""
    E, D = motif.edges.tolist(), motif.dealbreakers.tolist()
    out = {}
    for name in LINK_SCORES:
        raw = {}
        for t in tuples:
            for a, b in E + D:
                u, v = int(t[a]), int(t[b])
                if not H.has_edge(u, v):
                    raw[(u, v)] = slow_link(H, u, v, name)
        top = max(raw.values(), default=0.0)
        norm = top if (name != "jaccard" and top > 0) else 1.0

        def s(u, v):
            return 1.0 if H.has_edge(u, v) else raw[(u, v)] / norm

        res = {m: [] for m in ("independent", "independent_db", "correlated", "correlated_db")}
        for t in tuples:
            se = [s(int(t[a]), int(t[b])) for a, b in E]
            sd = [s(int(t[a]), int(t[b])) for a, b in D]
            res["independent"].append(math.prod(se))
            res["independent_db"].append(math.prod(se) * math.prod(1 - x for x in sd))
            res["correlated"].append(sum(se) / len(se))
            cdb = (sum(se) + sum(1 - x for x in sd)) / (len(se) + len(sd)) if sd else None
            if any(H.has_edge(int(t[a]), int(t[b])) for a, b in D):
                cdb = 0.0
            res["correlated_db"].append(cdb)
        for m, v in res.items():
            if m.endswith("_db") and not D:
                continue
            out[f"{name}/{m}"] = np.array(v, float)
    return out


@pytest.mark.parametrize("motif", [clique(3), clique(4), star(4), cycle(4)])
def test_motif_scores_match_slow_reference(motif):
    H = nx.gnp_random_graph(40, 0.2, seed=5)
    rng = np.random.default_rng(1)
    tuples = np.array([rng.choice(40, motif.k, replace=False) for _ in range(60)])
    got = heuristic_motif_scores(H, motif, tuples, threads=1)
    ref = slow_motif_scores(H, motif, tuples)
    assert got.keys() == ref.keys()
    for k in ref:
        np.testing.assert_allclose(got[k], ref[k], rtol=1e-10, atol=1e-12, err_msg=k)
    for l in LINK_SCORES:   # AM-GM: the correlation-aware score bounds the independent one
        assert (got[f"{l}/correlated"] >= got[f"{l}/independent"] - 1e-12).all()
        if motif.dealbreakers.size:
            assert (got[f"{l}/correlated_db"] >= got[f"{l}/independent_db"] - 1e-12).all()


def test_correlation_aware_heuristic_on_planted_cliques(planted):
    G, _ = planted
    task = motif_prediction_task(G, clique(4), n_positives=60, seed=0)
    res = evaluate_heuristics(task, "test")
    assert res["cn/correlated"]["auc"] > 0.9
    assert 0 <= res["cn/correlated"]["ap"] <= 1


# -- CLI -------------------------------------------------------------------------------------------
def test_cli_predict_motifs(tmp_path, capsys, planted):
    from graphmine.cli import main

    G, _ = planted
    f = tmp_path / "g.txt"
    np.savetxt(f, G.edges(), fmt="%d")
    assert main([ "predict-motifs", str(f), "--motif", "clique", "--k", "4", "--positives", "40",
                  "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["motif"] == "clique" and out["k"] == 4 and out["method"] == "heuristic"
    task = motif_prediction_task(G, clique(4), n_positives=40, seed=1)
    exp = evaluate_heuristics(task, "test")
    assert out["scores"]["cn/correlated"]["auc"] == pytest.approx(exp["cn/correlated"]["auc"])
    assert main(["predict-motifs", str(f), "--motif", "star", "--k", "1"]) == 2
    assert "k must lie in" in capsys.readouterr().err
