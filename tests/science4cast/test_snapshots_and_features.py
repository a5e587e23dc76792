"""Science4Cast snapshots, pair sampler, generator and features against networkx references."""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmine.core.exceptions import ParameterError
from graphmine.science4cast import (feature_names, generate_benchmark, generate_temporal_graph,
                                    multigraph_degree, pair_edge_counts, pair_features, sample_pairs, snapshot,
                                    snapshot_weights, swap_permutation, training_pairs, year_end_day)
from graphmine.science4cast.features import average_neighbor_degree, pagerank, snapshot_pair_features


@st.composite
def temporal_rows(draw, max_nodes=14, max_rows=70):
    """Rows [v1, v2, t] over 0..n-1 and days of 1990..1995, with repeats and self-loops."""
    n = draw(st.integers(2, max_nodes))
    m = draw(st.integers(0, max_rows))
    rows = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 6 * 365)),
                         min_size=m, max_size=m))
    arr = np.array(rows, dtype=np.int64).reshape(-1, 3)
    # make n the vertex count: a row touching n - 1 in the far future
    arr = np.vstack((arr, [[0, n - 1, 9 * 365]])) if n > 1 else arr
    return n, arr


def ref_multigraph(rows, year, n):
    """Slow reference: networkx MultiGraph of the rows before the end of ``year``, loops dropped."""
    end = (np.datetime64(f"{year}-12-31") - np.datetime64("1990-01-01")).astype(int)
    H = nx.MultiGraph()
    H.add_nodes_from(range(n))
    for u, v, t in rows.tolist():
        if t < end and u != v:
            H.add_edge(u, v)
    return H


def test_year_end_day_matches_the_competition_definition():
    from datetime import date

    for y in (1990, 2000, 2014, 2017, 2021):
        assert year_end_day(y) == (date(y, 12, 31) - date(1990, 1, 1)).days
    with pytest.raises(ParameterError):
        year_end_day(1800)


@settings(max_examples=40, deadline=None)
@given(temporal_rows(), st.integers(1990, 1995))
def test_snapshot_weights_degrees_against_networkx(nr, year):
    n, rows = nr
    H = ref_multigraph(rows, year, n)
    G = snapshot(rows, year, n)
    assert G.n_nodes == n
    assert sorted(map(tuple, G.edges().tolist())) == sorted((min(u, v), max(u, v)) for u, v in nx.Graph(H).edges())
    W = snapshot_weights(rows, year, n).toarray()
    for u in range(n):
        for v in range(n):
            assert W[u, v] == (H.number_of_edges(u, v) if u != v else 0)
    assert multigraph_degree(rows, year, n).tolist() == [H.degree(v) for v in range(n)]
    pairs = np.array([(u, v) for u in range(n) for v in range(n)], dtype=np.int64)
    counts = pair_edge_counts(rows, pairs, year, n)
    assert counts.tolist() == [H.number_of_edges(u, v) if u != v else 0 for u, v in pairs.tolist()]


@settings(max_examples=40, deadline=None)
@given(temporal_rows(), st.integers(1990, 1993), st.integers(1, 2), st.integers(0, 3), st.integers(1, 2),
       st.integers(0, 2**31), st.booleans())
def test_sample_pairs_against_networkx(nr, year, delta, cutoff, min_edges, seed, exhaustive):
    n, rows = nr
    now = ref_multigraph(rows, year, n)
    later = ref_multigraph(rows, year + delta, n)
    elig = [v for v in range(n) if now.degree(v) >= cutoff]
    candidates = {(u, v) for i, u in enumerate(elig) for v in elig[i + 1:] if not now.has_edge(u, v)}
    want = len(candidates) if exhaustive else len(candidates) // 2
    pairs, sol = sample_pairs(rows, year, delta, want, cutoff, min_edges, n_vertices=n, seed=seed)
    assert pairs.shape == (want, 2) and sol.shape == (want,)
    keys = [tuple(sorted(p)) for p in pairs.tolist()]
    assert len(set(keys)) == want and set(keys) <= candidates
    if exhaustive:
        assert set(keys) == candidates
    for (u, v), s in zip(pairs.tolist(), sol.tolist()):
        assert s == int(later.number_of_edges(u, v) >= min_edges)
    with pytest.raises(ParameterError, match="unconnected pairs"):
        sample_pairs(rows, year, delta, len(candidates) + 1, cutoff, min_edges, n_vertices=n, seed=seed)


def test_sample_pairs_is_seeded_and_mixes_the_order():
    d = generate_benchmark(300, 2000, year_start=2000, years_delta=2, seed=4)
    p1, s1 = sample_pairs(d.graph, 2000, 2, 2000, seed=9)
    p2, s2 = sample_pairs(d.graph, 2000, 2, 2000, seed=9)
    assert np.array_equal(p1, p2) and np.array_equal(s1, s2)
    assert 0.4 < np.mean(p1[:, 0] < p1[:, 1]) < 0.6


@settings(max_examples=25, deadline=None)
@given(temporal_rows(max_nodes=12, max_rows=80), st.integers(0, 2**31))
def test_training_pairs_labels_and_no_look_ahead(nr, seed):
    n, rows = nr
    year, h = 1993, 2
    before = ref_multigraph(rows, year - h, n)
    after = ref_multigraph(rows, year, n)
    elig = [v for v in range(n) if before.degree(v) >= 0]
    cand = [(u, v) for i, u in enumerate(elig) for v in elig[i + 1:] if not before.has_edge(u, v)]
    if len(cand) < 4:
        return
    pairs, labels = training_pairs(rows, year, h, len(cand) // 2, n_vertices=n, seed=seed)
    for (u, v), lab in zip(pairs.tolist(), labels.tolist()):
        assert not before.has_edge(u, v)
        assert lab == int(after.has_edge(u, v))
    # rows after the end of `year` never matter
    future = rows[:, 2] >= year_end_day(year)
    changed = rows.copy()
    changed[future, 1] = (changed[future, 0] + 1) % n
    extra = np.array([[0, 1, year_end_day(year) + 5]] * 3)
    p2, l2 = training_pairs(np.vstack((changed, extra)), year, h, len(cand) // 2, n_vertices=n, seed=seed)
    assert np.array_equal(pairs, p2) and np.array_equal(labels, l2)


def test_generator_shape_of_the_data():
    rows = generate_temporal_graph(3000, last_year=2010, year_start=2008, seed=11)
    again = generate_temporal_graph(3000, last_year=2010, year_start=2008, seed=11)
    assert np.array_equal(rows, again)
    assert np.all(np.diff(rows[:, 2]) >= 0) and rows[:, 2].min() >= 0
    assert rows[:, 2].max() < year_end_day(2010) and rows[:, :2].max() < 3000
    # about edges_per_vertex * n rows by year_start
    n_by_start = int((rows[:, 2] < year_end_day(2008)).sum())
    assert 0.9 * 28 * 3000 < n_by_start < 1.1 * 28 * 3000
    # exponential growth: rows per year grow by about sqrt(2) a year
    per_year = np.array([np.sum((rows[:, 2] >= max(year_end_day(y - 1), 0)) & (rows[:, 2] < year_end_day(y)))
                         for y in range(2003, 2011)])
    ratio = per_year[1:] / per_year[:-1]
    assert np.all((ratio > 1.25) & (ratio < 1.6)), ratio
    # self-loops and repeated pairs exist
    assert 0 < np.sum(rows[:, 0] == rows[:, 1]) < 0.01 * rows.shape[0]
    G = snapshot(rows, 2008)
    loops = rows[:, 0] == rows[:, 1]
    assert G.n_edges < (rows[:, 2] < year_end_day(2008)).sum() - loops.sum()
    # heavy tail: a random graph of the same mean degree would have max ~ mean + 4 sqrt(mean) and
    # a standard deviation of sqrt(mean)
    deg = G.degree[G.degree > 0].astype(float)
    assert deg.max() > 5 * deg.mean() and deg.std() > 0.8 * deg.mean()
    with pytest.raises(ParameterError):
        generate_temporal_graph(10)


# -- features ---------------------------------------------------------------------------------------
@st.composite
def graphs_and_pairs(draw):
    n = draw(st.integers(2, 18))
    p = draw(st.floats(0.05, 0.5))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    iu, ju = np.triu_indices(n, 1)
    keep = rng.random(iu.shape[0]) < p
    edges = np.column_stack((iu[keep], ju[keep]))
    pairs = np.array([(u, v) for u in range(n) for v in range(n) if u != v], dtype=np.int64)
    return n, edges, pairs


@settings(max_examples=40, deadline=None)
@given(graphs_and_pairs(), st.integers(1, 4), st.sampled_from([1, 2]))
def test_pair_kernel_against_networkx(gp, max_distance, threads):
    import graphmine as gm

    n, edges, pairs = gp
    G = gm.from_edges(edges, n_nodes=n)
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(edges.tolist())
    cn, jac, aa, dist = snapshot_pair_features(G, pairs[:, 0], pairs[:, 1], max_distance, threads=threads)
    lengths = dict(nx.all_pairs_shortest_path_length(H))
    for i, (u, v) in enumerate(pairs.tolist()):
        common = set(H[u]) & set(H[v])
        assert cn[i] == len(common)
        union = set(H[u]) | set(H[v])
        assert jac[i] == pytest.approx(len(common) / len(union) if union else 0.0)
        assert aa[i] == pytest.approx(sum(1 / np.log(H.degree(w)) for w in common))
        d = lengths[u].get(v)
        assert dist[i] == (d if d is not None and d <= max_distance else max_distance + 1)


@settings(max_examples=25, deadline=None)
@given(graphs_and_pairs())
def test_pagerank_and_neighbour_degree_against_networkx(gp):
    import graphmine as gm

    n, edges, _ = gp
    G = gm.from_edges(edges, n_nodes=n)
    H = G.to_networkx()
    ref = nx.pagerank(H, alpha=0.85, tol=1e-12, max_iter=1000)
    assert np.allclose(pagerank(G), [ref[v] for v in range(n)], atol=1e-8)
    ref = nx.average_neighbor_degree(H)
    assert np.allclose(average_neighbor_degree(G), [ref[v] for v in range(n)])


def test_distance_four_and_far_on_named_graphs():
    import graphmine as gm

    G = gm.as_graph(nx.path_graph(7))
    _, _, _, dist = snapshot_pair_features(G, np.zeros(6, np.int64), np.arange(1, 7))
    assert dist.tolist() == [1, 2, 3, 4, 5, 5]
    G = gm.as_graph(nx.cycle_graph(8))  # both directions around the cycle
    _, _, _, dist = snapshot_pair_features(G, np.zeros(7, np.int64), np.arange(1, 8))
    assert dist.tolist() == [1, 2, 3, 4, 3, 2, 1]


@pytest.fixture(scope="module")
def small_data():
    return generate_benchmark(400, 1500, year_start=2000, years_delta=2, seed=7)


def test_pair_features_hand_checked_on_the_snapshots(small_data):
    d = small_data
    X, names = pair_features(d.graph, d.pairs[:200], 2000, n_snapshots=3)
    assert names == feature_names(3) and X.shape == (200, len(names))
    col = {nm: X[:, i] for i, nm in enumerate(names)}
    for k, y in enumerate((2000, 1999, 1998)):
        G = snapshot(d.graph, y, d.n_vertices).to_networkx()
        deg = np.array([G.degree(v) for v in range(d.n_vertices)])
        u, v = d.pairs[:200, 0], d.pairs[:200, 1]
        cn = np.array([len(set(G[a]) & set(G[b])) for a, b in zip(u, v)])
        if k == 0:
            assert np.array_equal(col["deg_u"], deg[u]) and np.array_equal(col["cn"], cn)
            now_deg, now_cn = deg, cn
            wdeg = multigraph_degree(d.graph, y, d.n_vertices)
            assert np.array_equal(col["wdeg_v"], wdeg[v])
        else:
            assert np.array_equal(col[f"d{k}_deg_v"], now_deg[v] - deg[v])
            assert np.array_equal(col[f"d{k}_cn"], now_cn - cn)


def test_pair_features_never_look_ahead(small_data):
    d = small_data
    year = 1999
    X, _ = pair_features(d.graph, d.pairs, year)
    future = d.graph[:, 2] >= year_end_day(year)
    scrambled = d.graph.copy()
    rng = np.random.default_rng(0)
    scrambled[future, :2] = rng.integers(0, d.n_vertices, (int(future.sum()), 2))
    X2, _ = pair_features(scrambled, d.pairs, year, n_vertices=d.n_vertices)
    assert np.array_equal(X, X2)
    # the oracle can fail: moving one past row does change the features
    past = np.flatnonzero(~future)
    moved = d.graph.copy()
    moved[past[-50:], 2] = year_end_day(year) + 1
    X3, _ = pair_features(moved, d.pairs, year, n_vertices=d.n_vertices)
    assert not np.array_equal(X, X3)


def test_pair_features_swap_and_threads(small_data):
    d = small_data
    X, names = pair_features(d.graph, d.pairs, 2000, threads=1)
    Xs, _ = pair_features(d.graph, d.pairs[:, ::-1], 2000, threads=2)
    assert np.array_equal(Xs, X[:, swap_permutation(names)])
    X2, _ = pair_features(d.graph, d.pairs, 2000, threads=2)
    assert np.array_equal(X, X2)
