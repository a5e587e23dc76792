"""Temporal closure prediction (graphmine.motifs.closure): candidates and labels against a
brute-force recomputation with networkx, every score against a slow reference, the sample, the
learned model's windows, and the errors."""

import itertools
import math
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmine.core.exceptions import GraphValueError, ParameterError
from graphmine.motifs.closure import (CLOSURE_SCORES, KATZ_TERMS, PPR_ALPHA, PPR_STEPS, ClosureModel,
                                      closure_features, closure_scores, closure_task, default_cut,
                                      evaluate_closure, predict_closure)


def events(items, times, n=None):
    """Temporal events from a list of vertex lists and their times (sorted here)."""
    order = np.argsort(np.asarray(times, dtype=np.float64), kind="stable")
    items = [list(items[i]) for i in order]
    sizes = np.array([len(it) for it in items], np.int64)
    nodes = np.array([v for it in items for v in it], np.int64)
    n = n if n is not None else (int(nodes.max()) + 1 if nodes.size else 0)
    return SimpleNamespace(item_ptr=np.concatenate(([0], np.cumsum(sizes))), item_nodes=nodes,
                           times=np.asarray(times, np.float64)[order], n_nodes=n)


# -- brute force ---------------------------------------------------------------------------------

def brute(ev, cut, delta, motif, kind, closure):
    """{canonical tuple: label} by enumerating every vertex set (networkx projected graph)."""
    ptr, nodes, times = ev.item_ptr, ev.item_nodes, ev.times
    sets = [set(nodes[ptr[i]:ptr[i + 1]].tolist()) for i in range(len(times))]
    past = [s for s, t in zip(sets, times) if t <= cut]
    window = [s for s, t in zip(sets, times) if cut < t <= cut + delta]
    G = nx.Graph()
    G.add_nodes_from(range(ev.n_nodes))
    for s in past:
        G.add_edges_from(itertools.combinations(sorted(s), 2))
    out = {}
    k = 4 if motif == "clique4" else 3
    for X in itertools.combinations(range(ev.n_nodes), k):
        missing = [p for p in itertools.combinations(X, 2) if not G.has_edge(*p)]
        if k == 3 and kind == "open":
            if missing or any(set(X) <= s for s in past):
                continue
            key = X
        else:
            if len(missing) != 1:
                continue
            a, b = missing[0]
            rest = tuple(v for v in X if v not in (a, b))
            key = (a, b) + rest
        if closure == "simplex":
            lab = any(set(X) <= s for s in window)
        else:
            lab = any({key[0], key[1]} <= s for s in window)
        out[key] = int(lab)
    return out


def simplicial(ev):
    """Whether some item holds 3 or more distinct vertices."""
    return any(len(set(ev.item_nodes[a:b].tolist())) >= 3 for a, b in zip(ev.item_ptr[:-1], ev.item_ptr[1:]))


def got(task):
    return {tuple(int(v) for v in row): int(l) for row, l in zip(task.tuples, task.labels)}


@st.composite
def temporal_items(draw, max_size=4):
    n = draw(st.integers(3, 9))
    m = draw(st.integers(2, 22))
    items = [draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=max_size)) for _ in range(m)]
    times = draw(st.lists(st.integers(0, 12), min_size=m, max_size=m))
    return events(items, times, n), draw(st.integers(0, 12)), draw(st.integers(1, 8))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(temporal_items())
def test_candidates_and_labels_against_brute_force(data):
    ev, cut, delta = data
    if cut < ev.times[0]:
        with pytest.raises(GraphValueError, match="no item"):
            closure_task(ev, cut, delta)
        return
    cases = [("triangle", "wedge", "edges"), ("clique4", "auto", "edges")]
    if simplicial(ev):
        cases += [("triangle", "open", "simplex"), ("triangle", "wedge", "simplex"), ("clique4", "auto", "simplex")]
    for motif, kind, closure in cases:
        for threads in (1, 2):
            task = closure_task(ev, cut, delta, motif=motif, candidates=kind, closure=closure, threads=threads)
            want = brute(ev, cut, delta, motif, "open" if kind == "open" else "wedge", closure)
            assert got(task) == want, (motif, kind, closure)
            assert task.tuples.shape[0] == len(want)          # each candidate once
            assert task.info["sample_rate"] == 1.0


def test_hand_made_case():
    # t=1: {0,1,2} closes the triangle 0-1-2 as a simplex before the cut (not a candidate)
    # t=2: {2,3}, t=3: {3,4}, t=4: {2,4}: the open triangle 2-3-4; t=4: {4,5}
    # t=6: {2,3,4,9} closes it; t=7: {3,5} closes the wedge 3-4-5; t=20: outside the window
    ev = events([[0, 1, 2], [2, 3], [3, 4], [2, 4], [4, 5], [2, 3, 4, 9], [3, 5], [0, 3, 4]],
                [1, 2, 3, 4, 4, 6, 7, 20], n=10)
    task = closure_task(ev, cut=4, delta=5)
    assert (task.candidates, task.closure) == ("open", "simplex")
    assert got(task) == {(2, 3, 4): 1}
    wedges = closure_task(ev, cut=4, delta=5, candidates="wedge")
    # centres: 1 (0-1-2? linked: all three: no); 2: (0,3),(0,4),(1,3),(1,4); 4: (2,5),(3,5)
    assert got(wedges) == {(0, 3, 2): 0, (0, 4, 2): 0, (1, 3, 2): 0, (1, 4, 2): 0, (2, 5, 4): 0, (3, 5, 4): 1}
    assert task.info["n_items_past"] == 5 and task.info["n_items_window"] == 2
    s = closure_scores(task, [n for n in CLOSURE_SCORES if n not in ("katz", "ppr")])
    # weights 1, 1, 1; common neighbours of 2, 3, 4: none; degrees 3 (2: 0,1,3,4 -> 4), 2, 3
    assert s["harmonic_mean"].tolist() == [1.0] and s["arithmetic_mean"].tolist() == [1.0]
    assert s["common_neighbors"].tolist() == [0.0] and s["jaccard"].tolist() == [0.0]
    assert s["projected_pa"].tolist() == [4 * 2 * 3]
    assert s["simplicial_pa"].tolist() == [3 * 2 * 3]
    # pairwise data: every item of two vertices, triangles default to wedges closing by edges
    pw = events([[0, 1], [1, 2], [2, 3], [0, 2], [0, 3]], [1, 2, 3, 5, 6])
    t = closure_task(pw, cut=3, delta=3)
    assert (t.candidates, t.closure) == ("wedge", "edges")
    assert got(t) == {(0, 2, 1): 1, (1, 3, 2): 0}
    with pytest.raises(ParameterError, match="closure='simplex' needs items of 3"):
        closure_task(pw, cut=3, delta=3, closure="simplex")


# -- scores ----------------------------------------------------------------------------------------

def slow_scores(ev, task):
    """Every local score from networkx and Python sets."""
    ptr, nodes, times = ev.item_ptr, ev.item_nodes, ev.times
    G = nx.Graph()
    G.add_nodes_from(range(ev.n_nodes))
    items = {}
    sdeg = np.zeros(ev.n_nodes)
    for i in range(len(times)):
        if times[i] > task.cut:
            continue
        s = sorted(set(nodes[ptr[i]:ptr[i + 1]].tolist()))
        for v in s:
            sdeg[v] += 1
        for u, v in itertools.combinations(s, 2):
            items[(u, v)] = items.get((u, v), 0) + 1
            G.add_edge(u, v)
    out = {n: [] for n in CLOSURE_SCORES[:8]}
    for X in task.tuples.tolist():
        w = [items[tuple(sorted(p))] for p in itertools.combinations(X, 2) if tuple(sorted(p)) in items]
        out["harmonic_mean"].append(len(w) / sum(1 / x for x in w))
        out["geometric_mean"].append(math.prod(w) ** (1 / len(w)))
        out["arithmetic_mean"].append(sum(w) / len(w))
        common = set.intersection(*(set(G[v]) for v in X))
        union = set.union(*(set(G[v]) for v in X))
        out["common_neighbors"].append(len(common))
        out["jaccard"].append(len(common) / len(union) if union else 0.0)
        out["adamic_adar"].append(sum(1 / math.log(G.degree(z)) for z in common))
        out["projected_pa"].append(math.prod(G.degree(v) for v in X))
        out["simplicial_pa"].append(math.prod(sdeg[v] for v in X))
    return G, out


CANDIDATE_CASES = st.sampled_from([("triangle", "open"), ("triangle", "wedge"), ("clique4", "auto")])


def drawn_task(data, case):
    """(events, the closure task of a drawn case), or (events, None) where the cut precedes every
    item or the case needs items of 3+ vertices the events lack."""
    ev, cut, delta = data
    motif, kind = case
    closure = "edges" if kind != "open" else "simplex"
    if cut < ev.times[0] or (closure == "simplex" and not simplicial(ev)):
        return ev, None
    return ev, closure_task(ev, cut, delta, motif=motif, candidates=kind, closure=closure)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(temporal_items(max_size=5), CANDIDATE_CASES)
def test_local_scores_against_slow_reference(data, case):
    ev, task = drawn_task(data, case)
    if task is None:
        return
    names = list(CLOSURE_SCORES[:8])
    s = closure_scores(task, names, threads=2)
    _, want = slow_scores(ev, task)
    for n in names:
        assert np.allclose(s[n], want[n], rtol=1e-12, atol=1e-12), n


def dense_walks(G, n):
    A = nx.to_numpy_array(G, nodelist=range(n))
    lam = max(abs(np.linalg.eigvalsh(A))) if n else 0.0
    beta = 0.5 / lam
    S = np.zeros_like(A)
    P = np.eye(n)
    for _ in range(KATZ_TERMS):
        P = beta * A @ P
        S += P
    deg = A.sum(axis=0)
    W = A / np.where(deg > 0, deg, 1)[None, :]
    X = np.eye(n)
    R = (1 - PPR_ALPHA) * X
    for _ in range(PPR_STEPS):
        X = PPR_ALPHA * W @ X
        R += (1 - PPR_ALPHA) * X
    # closed forms of the infinite series, for the truncation error
    katz_inf = np.linalg.inv(np.eye(n) - beta * A) - np.eye(n)
    ppr_inf = (1 - PPR_ALPHA) * np.linalg.inv(np.eye(n) - PPR_ALPHA * W)
    return S, R, katz_inf, ppr_inf


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_katz_and_ppr_against_dense_series(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 5, 300)
    items = [rng.choice(25, s, replace=False).tolist() for s in sizes]
    ev = events(items, np.arange(300.0), n=25)
    task = closure_task(ev, 200, 100, motif="triangle", candidates="wedge")
    assert task.tuples.shape[0] > 10
    s = closure_scores(task, ["katz", "ppr"])
    G, _ = slow_scores(ev, task)
    S, R, katz_inf, ppr_inf = dense_walks(G, 25)
    pairs = [(0, 1), (0, 2), (1, 2)]
    katz = [sum(S[x[i], x[j]] for i, j in pairs) for x in task.tuples]
    ppr = [sum(R[x[j], x[i]] + R[x[i], x[j]] for i, j in pairs) for x in task.tuples]
    assert np.allclose(s["katz"], katz, rtol=1e-9) and np.allclose(s["ppr"], ppr, rtol=1e-9)
    # the truncated series are within their stated remainders of the closed forms
    katz_full = [sum(katz_inf[x[i], x[j]] for i, j in pairs) for x in task.tuples]
    ppr_full = [sum(ppr_inf[x[j], x[i]] + ppr_inf[x[i], x[j]] for i, j in pairs) for x in task.tuples]
    # entries of (beta A)^l are at most 2^-l: each pair's remainder is below 2^-KATZ_TERMS
    assert np.all(np.abs(np.array(katz_full) - s["katz"]) <= 3 * 2.0 ** -KATZ_TERMS)
    assert np.all(np.abs(np.array(ppr_full) - s["ppr"]) <= 6 * PPR_ALPHA ** (PPR_STEPS + 1) + 1e-12)


def test_walk_scores_skipped_beyond_the_work_limit():
    rng = np.random.default_rng(3)
    items = [rng.choice(20, 3, replace=False).tolist() for _ in range(200)]
    task = closure_task(events(items, np.arange(200.0), n=20), 150, 50)
    with pytest.warns(UserWarning, match="katz skipped"):
        s = closure_scores(task, ["katz", "harmonic_mean"], max_walk_work=10)
    assert list(s) == ["harmonic_mean"]


# -- sampling ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("motif,kind", [("triangle", "open"), ("triangle", "wedge"), ("clique4", "auto")])
def test_sample_is_uniform_subset_and_thread_independent(motif, kind):
    rng = np.random.default_rng(7)
    sizes = rng.integers(2, 4, 1500)
    items = [rng.choice(60, s, replace=False).tolist() for s in sizes]
    ev = events(items, np.arange(1500.0), n=60)
    closure = "simplex" if kind == "open" else "edges"
    full = closure_task(ev, 1000, 500, motif=motif, candidates=kind, closure=closure)
    n_full = full.tuples.shape[0]
    assert n_full > 400
    cap = n_full // 4
    a = closure_task(ev, 1000, 500, motif=motif, candidates=kind, closure=closure, max_candidates=cap, seed=3,
                     threads=1)
    b = closure_task(ev, 1000, 500, motif=motif, candidates=kind, closure=closure, max_candidates=cap, seed=3,
                     threads=2)
    assert got(a) == got(b)
    assert set(got(a).items()) <= set(got(full).items())
    # binomial: within 5 standard deviations of the cap
    q = a.info["sample_rate"]
    assert abs(a.tuples.shape[0] - q * n_full) <= 5 * math.sqrt(n_full * q * (1 - q)) + 1
    assert abs(a.info["n_candidates_estimate"] - n_full) <= 0.5 * n_full
    c = closure_task(ev, 1000, 500, motif=motif, candidates=kind, closure=closure, max_candidates=cap, seed=4)
    assert got(c) != got(a)


# -- the learned model --------------------------------------------------------------------------------

def synthetic(seed=0, n=80, m=4000):
    """Items drawn from fixed communities: closure follows the pair weights."""
    rng = np.random.default_rng(seed)
    groups = [rng.choice(n, 8, replace=False) for _ in range(12)]
    items = []
    for _ in range(m):
        if rng.random() < 0.7:
            g = groups[rng.integers(len(groups))]
            items.append(rng.choice(g, rng.integers(2, 4), replace=False).tolist())
        else:
            items.append(rng.choice(n, rng.integers(2, 4), replace=False).tolist())
    return events(items, np.arange(float(m)), n=n)


def test_learned_model_windows_are_disjoint():
    pytest.importorskip("lightgbm")
    ev = synthetic()
    r = predict_closure(ev, 3000, 500, seed=0, threads=2)
    test, train = r["task"], r["train_task"]
    # the training labels' window ends where the test's past ends; no label is seen twice
    assert train.cut + train.delta <= test.cut
    assert train.cut == 2500 and train.delta == 500
    for name in ("lightgbm",) + CLOSURE_SCORES:
        m = r["scores"][name]
        assert 0 <= m["roc_auc"] <= 1 and m["auc_pr_ratio"] > 0
    model = ClosureModel(seed=0, threads=1).fit(train)
    with pytest.raises(ParameterError, match="inside the training labels' window"):
        model.predict_proba(closure_task(ev, 2900, 100))
    # the model sees only the training window: changing items after train.cut + delta changes
    # nothing it learnt
    later = ev.times > 3000
    ev2 = events([ev.item_nodes[ev.item_ptr[i]:ev.item_ptr[i + 1]].tolist() if not later[i] else [0, 1, 2]
                  for i in range(len(ev.times))], ev.times, n=ev.n_nodes)
    train2 = closure_task(ev2, 2500, 500)
    assert got(train2) == got(train)
    p1 = model.predict_proba(test)
    p2 = ClosureModel(seed=0, threads=1).fit(train2).predict_proba(test)
    assert np.array_equal(p1, p2)
    with pytest.raises(ParameterError, match="overlap"):
        predict_closure(ev, 3000, 500, train_cut=2800)


def test_learned_predictor_is_chosen_on_the_past_only():
    pytest.importorskip("lightgbm")
    pytest.importorskip("sklearn")
    from scipy.stats import rankdata

    ev = synthetic(2)
    r = predict_closure(ev, 3000, 500, seed=0, threads=1)
    sel = r["selection"]
    # the check trains one window before the training window and scores the training window
    assert sel["window"] == (2000.0, 2500.0) and sel["probe_positives"] > 0 and sel["check"] == "rolling origin"
    ratio = sel["auc_pr_ratio"]
    best_single = max(CLOSURE_SCORES, key=lambda k: ratio.get(k, -1))
    best_model = max(("lightgbm", "logistic", "lightgbm+logistic", f"lightgbm+{best_single}"), key=ratio.get)
    assert sel["chosen"] == (best_single if ratio[best_single] - ratio[best_model] > sel["se_single_vs_model"]
                             else best_model)
    # its figures are recomputed here from the two earlier windows alone
    probe, train = closure_task(ev, 2000, 500), r["train_task"]
    lg = ClosureModel(seed=0, threads=1).fit(probe).predict_proba(train)
    lr = ClosureModel(seed=0, threads=1, kind="logistic").fit(probe).predict_proba(train)
    singles = closure_scores(train)
    assert np.isclose(sel["auc_pr_ratio"]["lightgbm"], evaluate_closure(train.labels, lg)["auc_pr_ratio"])
    assert np.isclose(sel["auc_pr_ratio"]["logistic"], evaluate_closure(train.labels, lr)["auc_pr_ratio"])
    for k, v in singles.items():
        assert np.isclose(sel["auc_pr_ratio"][k], evaluate_closure(train.labels, v)["auc_pr_ratio"])
    best = max(singles, key=lambda k: sel["auc_pr_ratio"][k])
    mix = evaluate_closure(train.labels, rankdata(lg) + rankdata(singles[best]))["auc_pr_ratio"]
    assert np.isclose(sel["auc_pr_ratio"][f"lightgbm+{best}"], mix)
    both = evaluate_closure(train.labels, rankdata(lg) + rankdata(lr))["auc_pr_ratio"]
    assert np.isclose(sel["auc_pr_ratio"]["lightgbm+logistic"], both)
    # and the test entry 'learned' is that choice applied at the cut
    test = r["task"]
    tm = {"lightgbm": ClosureModel(seed=0, threads=1).fit(train).predict_proba(test),
          "logistic": ClosureModel(seed=0, threads=1, kind="logistic").fit(train).predict_proba(test)}
    ts = closure_scores(test)
    c = sel["chosen"]
    both = {**tm, **ts}
    s = both[c] if c in both else rankdata(tm["lightgbm"]) + rankdata(both[c.split("+")[1]])
    assert r["scores"]["learned"] == evaluate_closure(test.labels, s)
    # the rank average of the two models is reported beside them
    assert r["scores"]["lightgbm+logistic"] == evaluate_closure(test.labels, rankdata(tm["lightgbm"])
                                                                + rankdata(tm["logistic"]))
    # an earlier window with fewer than MIN_PROBE_POSITIVES closing candidates is not trained on
    import graphmine.motifs.closure as closure_module

    pos = sel["probe_positives"]
    for limit, check in ((pos, "rolling origin"), (pos + 1, "split halves")):
        old = closure_module.MIN_PROBE_POSITIVES
        closure_module.MIN_PROBE_POSITIVES = limit
        try:
            assert predict_closure(ev, 3000, 500, seed=0, threads=1)["selection"]["check"] == check
        finally:
            closure_module.MIN_PROBE_POSITIVES = old
    # without an earlier window the check splits the training window's candidates
    r2 = predict_closure(ev, 1000, 500, seed=0, threads=1)
    assert r2["selection"]["check"] == "split halves"
    assert r2["selection"]["probe_candidates"] < r2["train_task"].labels.size
    with pytest.raises(ParameterError, match="kind"):
        ClosureModel(kind="forest")


def slow_recency(ev, task):
    """The recency features of every candidate, item by item in Python: over the candidate's
    linked pairs, the items of (cut - delta, cut] holding the pair, (cut - its last item's
    time) / delta and the sum of exp(-(cut - t) / delta) over its items (min, mean, max; and the
    geometric mean of the last)."""
    ptr, nodes, times = ev.item_ptr, ev.item_nodes, ev.times
    sets = [(set(nodes[ptr[i]:ptr[i + 1]].tolist()), float(t)) for i, t in enumerate(times) if t <= task.cut]
    cut, delta = task.cut, task.delta
    rows = []
    for X in task.tuples.tolist():
        rec, age, dec = [], [], []
        for u, v in itertools.combinations(X, 2):
            ts = [t for s, t in sets if u in s and v in s]
            if not ts:
                continue                                # a missing pair (wedges, 4-sets)
            rec.append(sum(t > cut - delta for t in ts))
            age.append((cut - max(ts)) / delta)
            dec.append(sum(math.exp(-(cut - t) / delta) for t in ts))
        row = []
        for vals in (rec, age, dec):
            row += [min(vals), sum(vals) / len(vals), max(vals)]
        row.append(math.exp(sum(math.log(d) for d in dec) / len(dec)))
        rows.append(row)
    return np.array(rows).reshape(-1, 10)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(temporal_items(max_size=5), CANDIDATE_CASES)
def test_recency_features_against_slow_reference(data, case):
    ev, task = drawn_task(data, case)
    if task is None:
        return
    names, X = closure_features(task, walk=False, threads=2)
    cols = [names.index(c) for c in ("recent_min", "recent_mean", "recent_max", "age_min", "age_mean", "age_max",
                                     "decayed_min", "decayed_mean", "decayed_max", "decayed_gm")]
    assert np.allclose(X[:, cols], slow_recency(ev, task), rtol=1e-12, atol=1e-12)
    # without them the other columns are unchanged
    names2, X2 = closure_features(task, walk=False, recency=False)
    assert names2 == [n for i, n in enumerate(names) if i not in cols]
    assert np.array_equal(X2, np.delete(X, cols, axis=1))


def test_features_and_metrics():
    ev = synthetic(1)
    task = closure_task(ev, 3000, 500)
    names, X = closure_features(task)
    assert X.shape == (task.tuples.shape[0], len(names)) and "katz" in names and "weight_max" in names
    s = closure_scores(task, ["geometric_mean"])["geometric_mean"]
    assert np.array_equal(X[:, names.index("geometric_mean")], s)
    pytest.importorskip("lightgbm")
    r = predict_closure(ev, 3000, 500, motif="clique4", threads=2)      # 'auto' resolves alike in both windows
    assert r["task"].candidates == r["train_task"].candidates == "missing_pair" and "lightgbm" in r["scores"]
    # recency=False reaches the models: they see the features without the recency columns
    r = predict_closure(ev, 3000, 500, recency=False, select=False, seed=0, threads=1)
    lg = ClosureModel(seed=0, threads=1, recency=False).fit(r["train_task"])
    assert "recent_max" not in lg.feature_names_ and "weight_max" in lg.feature_names_
    assert r["scores"]["lightgbm"] == evaluate_closure(r["task"].labels, lg.predict_proba(r["task"]))
    assert "recent_max" in ClosureModel(seed=0, threads=1).fit(r["train_task"]).feature_names_
    m = evaluate_closure([0, 1, 0, 0, 1], [0.1, 0.8, 0.3, 0.2, 0.5])
    assert m == {"auc_pr": 1.0, "auc_pr_ratio": 2.5, "roc_auc": 1.0}


# -- errors --------------------------------------------------------------------------------------------

def test_errors():
    ev = events([[0, 1, 2], [1, 2], [2, 3]], [1, 2, 3])
    bad = SimpleNamespace(item_ptr=ev.item_ptr, item_nodes=ev.item_nodes, times=ev.times[::-1].copy(), n_nodes=4)
    with pytest.raises(ParameterError, match="sorted ascending"):
        closure_task(bad, 2, 1)
    with pytest.raises(ParameterError, match="temporal events"):
        closure_task([(0, 1, 2)], 2, 1)
    with pytest.raises(ParameterError, match="motif must be"):
        closure_task(ev, 2, 1, motif="square")
    with pytest.raises(ParameterError, match="delta must be > 0"):
        closure_task(ev, 2, 0)
    with pytest.raises(ParameterError, match="open triangles have all three"):
        closure_task(ev, 2, 1, candidates="open", closure="edges")
    with pytest.raises(ParameterError, match="max_candidates"):
        closure_task(ev, 2, 1, max_candidates=0)
    with pytest.raises(GraphValueError, match="nothing to evaluate"):
        predict_closure(ev, 2, 1, model=False)
    assert default_cut(ev) == (3.0, 0.0)


# -- the command line -----------------------------------------------------------------------------------

def test_cli_predict_closure(tmp_path, capsys):
    import json

    from graphmine.cli import main

    # the hand-made case as 't u1 u2 ...' lines, ids shifted by 100
    rows = [(1, [0, 1, 2]), (2, [2, 3]), (3, [3, 4]), (4, [2, 4]), (4, [4, 5]), (6, [2, 3, 4, 9]), (7, [3, 5]),
            (20, [0, 3, 4]), (3, [0, 4]), (2, [1, 4])]
    f = tmp_path / "items.txt"
    f.write_text("".join(f"{t} " + " ".join(str(v + 100) for v in it) + "\n" for t, it in rows))
    assert main(["predict-closure", str(f), "--cut", "4", "--delta", "5", "--no-model", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    # open triangles at t <= 4: 2-3-4 (closes at 6) and 0-2-4, 1-2-4, 0-1-4 (no common item later)
    ev = events([it for _, it in rows], [t for t, _ in rows], n=10)
    want = brute(ev, 4, 5, "triangle", "open", "simplex")
    assert (out["n_candidates"], out["positives"]) == (len(want), sum(want.values())) == (4, 1)
    assert out["candidates"] == "open" and set(out["scores"]) == set(CLOSURE_SCORES)
    assert out["positive_rate"] == 0.25 and out["sample_rate"] == 1.0
    assert main(["predict-closure", str(tmp_path / "missing.txt"), "--no-model"]) == 2
    assert "missing.txt" in capsys.readouterr().err


@pytest.mark.parametrize("motif,kind", [("triangle", "open"), ("triangle", "wedge")])
def test_serial_twins_give_the_parallel_kernels_results(monkeypatch, motif, kind):
    # a first run on small data takes the serial twins (no parfor compile): the same candidates,
    # labels and local scores as the parallel kernels on two threads
    from graphmine.motifs import closure as cl

    rng = np.random.default_rng(11)
    sizes = rng.integers(2, 5, 900)
    items = [rng.choice(50, s, replace=False).tolist() for s in sizes]
    ev = events(items, np.arange(900.0), n=50)
    closure = "simplex" if kind == "open" else "edges"
    names = list(CLOSURE_SCORES[:8])
    runs = []
    for twin in (True, False):
        with monkeypatch.context() as m:
            m.setattr(cl._sw, "serial_first", lambda kernel, size, t=twin: t)
            task = closure_task(ev, 600, 300, motif=motif, candidates=kind, closure=closure, threads=2)
            runs.append((task.tuples.copy(), task.labels.copy(), closure_scores(task, names, threads=2)))
    (ta, la, sa), (tb, lb, sb) = runs
    assert np.array_equal(ta, tb) and np.array_equal(la, lb) and ta.shape[0] > 100
    for n in names:
        assert np.array_equal(sa[n], sb[n]), n
    assert cl._ck.local_scores_serial.py_func.__qualname__ == "local_scores_serial"  # its own cache entry
