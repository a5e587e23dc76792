"""Graphlet degree vectors as features (closure_features(orbits=True), the 'orbit_cosine' link score)
against the census computed independently here (networkx's degrees, triangles, 4-cycles and
4-cliques on a networkx projected graph, the other orbits from graphmine's census of that
networkx graph), hand-computed cosines, and the option changing nothing when off."""

import itertools
import math
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.motifs import (LINK_SCORES, ORBIT_FEATURES, ORBIT_LINK_SCORE, clique, heuristic_motif_scores,
                              link_scores, path)
from graphmine.motifs.closure import ClosureModel, closure_features, closure_task, predict_closure


def random_events(seed, n=60, m=700, top=4):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, top + 1, m)
    items = [np.unique(rng.integers(0, n, s)) for s in sizes]
    nodes = np.concatenate(items)
    ptr = np.concatenate(([0], np.cumsum([len(i) for i in items])))
    return SimpleNamespace(item_ptr=ptr, item_nodes=nodes, times=np.arange(m, dtype=np.float64), n_nodes=n)


def oracle_orbits(ev, cut):
    """(n, 15) orbit counts of the projected past graph, built with networkx; orbits 0, 3, 8, 14 from
    networkx's own degrees, triangles, cycles and cliques."""
    G = nx.Graph()
    G.add_nodes_from(range(ev.n_nodes))
    for i, t in enumerate(ev.times):
        if t <= cut:
            G.add_edges_from(itertools.combinations(ev.item_nodes[ev.item_ptr[i]:ev.item_ptr[i + 1]].tolist(), 2))
    O = gm.orbit_counts(G).astype(np.float64)
    deg = np.array([G.degree(v) for v in range(ev.n_nodes)])
    tri = np.array([nx.triangles(G, v) for v in range(ev.n_nodes)])
    c4 = np.zeros(ev.n_nodes)
    for cyc in nx.simple_cycles(G, length_bound=4):
        if len(cyc) == 4:
            c4[cyc] += 1
    k4 = np.zeros(ev.n_nodes)
    for c in nx.enumerate_all_cliques(G):  # by increasing size
        if len(c) > 4:
            break
        if len(c) == 4:
            k4[c] += 1
    # 4-cycles as subgraphs through v count induced 4-cycles, diamonds (rim) and 4-cliques: check
    # the census's induced orbit 8 through the pattern counts: cycles = o8 + o12 + o13 + 3 o14
    assert np.array_equal(O[:, 0], deg) and np.array_equal(O[:, 3], tri) and np.array_equal(O[:, 14], k4)
    assert np.array_equal(O[:, 8] + O[:, 12] + O[:, 13] + 3 * O[:, 14], c4)
    return O


def test_walk_scores_are_the_same_every_run():
    # Katz's largest eigenvalue starts ARPACK from a fixed vector, not a random one
    ev = random_events(3)
    task = closure_task(ev, 700.0, 200, motif="triangle", threads=2)
    names, X = closure_features(task, walk=True, threads=2)
    again = [closure_features(task, walk=True, threads=2)[1] for _ in range(3)]
    assert "katz" in names and all(np.array_equal(X, Y) for Y in again)


@pytest.mark.parametrize("motif,seed", [("triangle", 0), ("clique4", 1)])
def test_closure_orbit_columns_against_an_independent_census(motif, seed):
    ev = random_events(seed)
    cut = 700.0
    task = closure_task(ev, cut, 200, motif=motif, threads=2)
    assert task.tuples.shape[0] > 10
    names0, X0 = closure_features(task, walk=False, threads=2)
    names, X = closure_features(task, walk=False, orbits=True, threads=2)
    assert names == names0 + list(ORBIT_FEATURES) and X.shape == (task.tuples.shape[0], len(names0) + 45)
    assert np.array_equal(X[:, :len(names0)], X0)
    O = oracle_orbits(ev, cut)
    mean = O.mean(axis=0)
    for r, tup in enumerate(task.tuples[:200]):
        for o in range(15):
            vals = [O[v, o] / mean[o] if mean[o] > 0 else 0.0 for v in tup]
            want = (min(vals), sum(vals) / len(vals), max(vals))
            got = [X[r, names.index(f"orbit{o}_{a}")] for a in ("min", "mean", "max")]
            assert np.allclose(got, want, rtol=1e-12, atol=1e-12), (r, o, got, want)


@pytest.mark.slow
def test_orbits_off_changes_nothing_and_on_reaches_the_models():
    pytest.importorskip("lightgbm")
    ev = random_events(2, n=50, m=1500)
    kw = dict(select=False, seed=0, threads=1)
    plain = predict_closure(ev, 1100, 200, **kw)
    off = predict_closure(ev, 1100, 200, orbits=False, **kw)
    assert plain["scores"] == off["scores"] and "katz" in plain["scores"]
    train, test = plain["train_task"], plain["task"]
    a = ClosureModel(seed=0, threads=1, walk=False).fit(train)
    b = ClosureModel(seed=0, threads=1, walk=False, orbits=False).fit(train)
    assert a.feature_names_ == b.feature_names_ and not any(n.startswith("orbit") for n in a.feature_names_)
    assert np.array_equal(a.predict_proba(test), b.predict_proba(test))
    on = ClosureModel(seed=0, threads=1, walk=False, orbits=True).fit(train)
    assert on.feature_names_[-45:] == list(ORBIT_FEATURES)
    p = on.predict_proba(test)
    assert p.shape == (test.tuples.shape[0],)
    r = predict_closure(ev, 1100, 200, orbits=True, max_walk_work=0, **kw)  # no walk scores, as `on`
    assert r["scores"]["lightgbm"]["roc_auc"] == pytest.approx(
        gm.motifs.evaluate_closure(test.labels, p)["roc_auc"], abs=1e-12)


def _cos(x, y):
    nx_, ny_ = math.sqrt(sum(a * a for a in x)), math.sqrt(sum(b * b for b in y))
    return 0.0 if nx_ == 0 or ny_ == 0 else sum(a * b for a, b in zip(x, y)) / (nx_ * ny_)


def test_orbit_cosine_by_hand_and_against_a_slow_reference():
    # a 3-star: leaves (degree 1, 2 paths from the end, 1 star leaf) alike; leaf against centre
    # (degree 3, 3 path middles, 1 star centre) share only the degree coordinate
    S = nx.star_graph(3)
    leaf = (math.log(2), math.log(3), math.log(2))
    centre = (math.log(4), math.log(4), math.log(2))
    want = math.log(2) * math.log(4) / (math.sqrt(sum(x * x for x in leaf)) * math.sqrt(sum(x * x for x in centre)))
    got = link_scores(S, [[1, 2], [0, 1]], ORBIT_LINK_SCORE)
    assert got[0] == pytest.approx(1.0) and got[1] == pytest.approx(want, rel=1e-12)
    # vertex-transitive graphs: every pair alike; an isolated vertex: 0
    assert np.allclose(link_scores(nx.cycle_graph(7), [[0, 3], [1, 2]], ORBIT_LINK_SCORE), 1.0)
    H = nx.path_graph(4)
    H.add_node(4)
    assert link_scores(H, [[0, 4]], ORBIT_LINK_SCORE).tolist() == [0.0]
    # a random graph against cosines of the census's rows, pair by pair
    H = nx.gnp_random_graph(40, 0.15, seed=3)
    O = gm.orbit_counts(H)
    pairs = np.array([(u, v) for u in range(0, 40, 3) for v in range(1, 40, 7) if u != v])
    got = link_scores(H, pairs, ORBIT_LINK_SCORE)
    want = [_cos([math.log1p(c) for c in O[u]], [math.log1p(c) for c in O[v]]) for u, v in pairs]
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)


def test_orbit_cosine_in_the_motif_scores():
    G = nx.gnp_random_graph(30, 0.2, seed=1)
    tuples = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [2, 9, 11]])
    default = heuristic_motif_scores(G, clique(3), tuples)
    assert not any(k.startswith(ORBIT_LINK_SCORE) for k in default)
    both = heuristic_motif_scores(G, clique(3), tuples, links=LINK_SCORES + (ORBIT_LINK_SCORE,))
    for k, v in default.items():
        assert np.array_equal(both[k], v)   # the other scores unchanged beside it
    got = heuristic_motif_scores(G, path(3), tuples, links=(ORBIT_LINK_SCORE,), modes=("independent", "correlated"))
    E = path(3).edges
    for r, t in enumerate(tuples):
        s = [1.0 if G.has_edge(t[a], t[b]) else float(link_scores(G, [[t[a], t[b]]], ORBIT_LINK_SCORE)[0])
             for a, b in E]
        assert got[f"{ORBIT_LINK_SCORE}/independent"][r] == pytest.approx(math.prod(s), rel=1e-12)
        assert got[f"{ORBIT_LINK_SCORE}/correlated"][r] == pytest.approx(sum(s) / len(s), rel=1e-12)
