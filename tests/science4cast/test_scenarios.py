"""Science4Cast scenario family, bootstrap AUCs, simple scores and canonical pair order, against
independent references (networkx, scikit-learn, closed forms, slow Python versions)."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmine.core.exceptions import ParameterError
from graphmine.science4cast import (feature_names, generate_temporal_graph, pair_features, snapshot,
                                    swap_permutation, year_end_day)
from graphmine.science4cast.blend import bootstrap_aucs
from graphmine.science4cast.generator import SCENARIOS, generate_scenario
from graphmine.science4cast.simple import SIMPLE_SCORES, simple_scores


def yearly_rows(rows, first=1990, last=2008):
    ends = np.array([year_end_day(y) for y in range(first - 1, last + 1)])
    return np.diff(np.searchsorted(np.sort(rows[:, 2]), ends))


# -- the generator's scenario parameters change what they claim to change ------------------------

def test_growth_sets_the_yearly_growth_of_the_rows():
    for growth in (1.1, 1.7):
        rows = generate_temporal_graph(600, last_year=2008, year_start=2008, edges_per_vertex=10, growth=growth,
                                       seed=2)
        # early years are dominated by the newborns' own rows: the last six years follow the growth
        per_year = yearly_rows(rows)[-6:].astype(float)
        ratio = np.exp(np.polyfit(np.arange(per_year.shape[0]), np.log(per_year), 1)[0])
        assert ratio == pytest.approx(growth, rel=0.04)


def test_edges_per_vertex_sets_the_rows_by_year_start():
    for epv in (8, 40):
        rows = generate_temporal_graph(800, last_year=2010, year_start=2008, edges_per_vertex=epv, seed=3)
        before = int((rows[:, 2] < year_end_day(2008)).sum())
        # newborns' rows to themselves are dropped, a few per year: within 5 %
        assert before == pytest.approx(epv * 800, rel=0.05)


def test_triadic_closure_raises_the_clustering_coefficient():
    clus = {}
    for tri, pa in ((0.8, 0.1), (0.05, 0.85)):
        rows = generate_temporal_graph(1200, last_year=2008, year_start=2008, edges_per_vertex=8, triadic=tri,
                                       preferential=pa, repeats=0.05, homophily=0.0, seed=1)
        clus[tri] = nx.average_clustering(snapshot(rows, 2008).to_networkx())
    assert clus[0.8] > 2 * clus[0.05], clus


def first_year_of_each_vertex(rows):
    years = np.searchsorted([year_end_day(y) for y in range(1990, 2009)], rows[:, 2], side="right") + 1990
    first = np.full(int(rows[:, :2].max()) + 1, 9999)
    np.minimum.at(first, rows[:, 0], years)
    np.minimum.at(first, rows[:, 1], years)
    return first


def test_birth_bursts_concentrate_the_first_mentions():
    share = {}
    for burst in (0.0, 0.6):
        rows = generate_temporal_graph(1500, last_year=2008, year_start=2008, edges_per_vertex=8, birth_burst=burst,
                                       seed=4)
        births = np.bincount(first_year_of_each_vertex(rows) - 1990)
        share[burst] = np.sort(births)[-3:].sum() / births.sum()   # the three busiest years
    assert share[0.6] > 0.6 > share[0.0] + 0.2, share


def test_topic_drift_concentrates_the_rows_on_fewer_concepts():
    # drifting topics make some topics (and their concepts) far more popular than others: the
    # share of rows touching the busiest 5 % of the concepts rises
    top = {}
    for drift in (0.0, 0.6):
        vals = []
        for seed in (5, 6):
            rows = generate_temporal_graph(1000, last_year=2008, year_start=2008, edges_per_vertex=10,
                                           topic_drift=drift, topic_size=50, seed=seed)
            deg = np.bincount(rows[:, :2].reshape(-1))
            vals.append(np.sort(deg)[-50:].sum() / deg.sum())
        top[drift] = np.mean(vals)
    assert top[0.6] > top[0.0] + 0.05, top


def test_pure_preferential_attachment_closes_fewer_triangles_than_the_default():
    clus = {}
    for name in ("pure_pa", "default"):
        kw = dict(SCENARIOS[name][1], edges_per_vertex=8)
        rows = generate_temporal_graph(1200, last_year=2008, year_start=2008, seed=1, **kw)
        clus[name] = nx.average_clustering(snapshot(rows, 2008).to_networkx())
    assert clus["pure_pa"] < 0.6 * clus["default"], clus


def test_scenarios_generate_and_check_their_arguments():
    d = generate_scenario("sparse", (500, 800), year_start=2002, years_delta=2, seed=0)
    assert d.pairs.shape == (800, 2) and d.year_start == 2002 and d.years_delta == 2
    with pytest.raises(ParameterError, match="unknown scenario"):
        generate_scenario("nope")
    with pytest.raises(ParameterError, match="size"):
        generate_scenario("default", "huge")
    with pytest.raises(ParameterError, match="topic_drift"):
        generate_temporal_graph(100, topic_drift=-1)
    with pytest.raises(ParameterError, match="birth_burst"):
        generate_temporal_graph(100, birth_burst=1.0)


# -- bootstrap AUCs ---------------------------------------------------------------------------

def test_bootstrap_aucs_match_explicit_resamples_scored_by_scikit_learn():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    y = (rng.random(300) < 0.2).astype(int)
    s1 = y + rng.normal(0, 1, 300)
    s2 = np.round(y + rng.normal(0, 1, 300))   # many ties
    boot = bootstrap_aucs(y, [s1, s2], n_boot=30, seed=11)
    # the same resamples, drawn the documented way (positives then negatives, with replacement)
    again = np.random.default_rng(11)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    for b in range(30):
        idx = np.concatenate((again.choice(pos, pos.shape[0]), again.choice(neg, neg.shape[0])))
        assert boot[b, 0] == pytest.approx(roc_auc_score(y[idx], s1[idx]), abs=1e-12)
        assert boot[b, 1] == pytest.approx(roc_auc_score(y[idx], s2[idx]), abs=1e-12)


def test_bootstrap_standard_error_matches_the_hanley_mcneil_formula():
    # exponential scores (a closed form exists for their AUC's variance; Hanley & McNeil 1982)
    rng = np.random.default_rng(1)
    n1, n0 = 400, 4000
    y = np.concatenate((np.ones(n1, int), np.zeros(n0, int)))
    s = np.concatenate((rng.exponential(2.0, n1), rng.exponential(1.0, n0)))
    boot = bootstrap_aucs(y, [s], n_boot=400, seed=2)
    a = 2.0 / 3.0   # P(X/2 > Y) for X, Y ~ Exp(1): 2 / (2 + 1)
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    hm = np.sqrt((a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n0 - 1) * (q2 - a * a)) / (n1 * n0))
    assert boot[:, 0].std(ddof=1) == pytest.approx(hm, rel=0.15)


def test_bootstrap_aucs_reject_bad_input():
    with pytest.raises(ParameterError, match="n_boot"):
        bootstrap_aucs([0, 1], [[0, 1]], n_boot=1)
    with pytest.raises(ParameterError, match="positive and one negative"):
        bootstrap_aucs([1, 1], [[0, 1]])
    with pytest.raises(ParameterError, match="length"):
        bootstrap_aucs([0, 1], [[0, 1, 2]])


# -- simple scores ---------------------------------------------------------------------------

def test_simple_scores_against_networkx():
    rows = generate_temporal_graph(200, last_year=2001, year_start=2001, edges_per_vertex=6, seed=8)
    rng = np.random.default_rng(3)
    pairs = rng.integers(0, 200, (300, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    X, names = pair_features(rows, pairs, 2001, n_snapshots=2, n_vertices=200)
    got = simple_scores(X, names)
    assert tuple(got) == SIMPLE_SCORES
    now = snapshot(rows, 2001, 200).to_networkx()
    before = snapshot(rows, 2000, 200).to_networkx()
    ebunch = [tuple(p) for p in pairs.tolist()]
    assert np.allclose(got["cn"], [len(list(nx.common_neighbors(now, u, v))) for u, v in ebunch])
    assert np.allclose(got["aa"], [s for *_, s in nx.adamic_adar_index(now, ebunch)], rtol=1e-5)
    assert np.allclose(got["jac"], [s for *_, s in nx.jaccard_coefficient(now, ebunch)], rtol=1e-5)
    du = np.array([now.degree(u) for u, _ in ebunch])
    dv = np.array([now.degree(v) for _, v in ebunch])
    assert np.array_equal(got["deg_sum"], du + dv) and np.array_equal(got["deg_prod"], du * dv)
    growth = du + dv - np.array([before.degree(u) + before.degree(v) for u, v in ebunch])
    assert np.array_equal(got["deg_growth"], growth)
    with pytest.raises(ParameterError, match="two snapshots"):
        simple_scores(X[:, :5], names[:5])


# -- canonical pair order ----------------------------------------------------------------------

def slow_canonical(X, perm):
    out = X.copy()
    first = [i for i in range(len(perm)) if perm[i] > i]
    for r in range(X.shape[0]):
        a = [X[r, i] for i in first]
        b = [X[r, perm[i]] for i in first]
        if a < b:   # Python's lexicographic list order
            out[r] = X[r, perm]
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 3), st.integers(0, 3))
def test_canonical_rows_against_a_slow_reference(seed, pairs_of_columns, shared):
    from graphmine.science4cast._gbm import canonical_rows

    rng = np.random.default_rng(seed)
    k = 2 * pairs_of_columns + shared
    X = rng.integers(0, 3, (40, k)).astype(np.float32)   # small values: many ties
    names = [f"f{j}_u" for j in range(pairs_of_columns)] + [f"f{j}_v" for j in range(pairs_of_columns)]
    names += [f"s{j}" for j in range(shared)]
    perm = swap_permutation(names)
    got = canonical_rows(X, perm, threads=2)
    assert np.array_equal(got, slow_canonical(X, perm))
    assert np.array_equal(canonical_rows(X[:, perm], perm, threads=1), got)   # order invariant


def test_canonical_and_average_models_are_order_invariant_and_agree():
    pytest.importorskip("lightgbm")
    from graphmine.science4cast.estimators import LinkGBMClassifier
    from sklearn.metrics import roc_auc_score

    rows = generate_temporal_graph(400, last_year=2002, year_start=2001, edges_per_vertex=10, seed=9)
    rng = np.random.default_rng(4)
    pairs = rng.integers(0, 400, (3000, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    X, names = pair_features(rows, pairs, 2001, n_snapshots=2, n_vertices=400)
    y = (X[:, names.index("cn")] + rng.normal(0, 1, X.shape[0]) > 2).astype(int)
    perm = swap_permutation(names)
    auc = {}
    for sym in ("canonical", "average"):
        est = LinkGBMClassifier(n_estimators=40, swap_features=perm, symmetry=sym, random_state=0, n_jobs=1)
        est.fit(X[:2000], y[:2000])
        p = est.predict_proba(X[2000:])[:, 1]
        assert np.array_equal(p, est.predict_proba(X[2000:, perm])[:, 1])
        assert np.array_equal(p, est.predict_proba(X[2000:].astype(np.float64))[:, 1])   # float32 as is
        auc[sym] = roc_auc_score(y[2000:], p)
    assert abs(auc["canonical"] - auc["average"]) < 0.03, auc
    with pytest.raises(ParameterError, match="symmetry"):
        LinkGBMClassifier(swap_features=perm, symmetry="max").fit(X[:100], y[:100])


def test_feature_names_compact_selection_keeps_swap_pairs():
    from graphmine.science4cast.models import _columns

    names = feature_names(4)
    sub = [names[i] for i in _columns(names, "compact")]
    assert {"deg_u", "deg_v", "cn", "aa", "jac", "d1_deg_u", "d3_cn", "deg_sum"} <= set(sub)
    assert not {"pr_u", "wdeg_u", "and_v"} & set(sub)
    perm = swap_permutation(sub)
    assert np.array_equal(perm[perm], np.arange(len(sub)))

