"""Tests of graphmine.probgraph: sketches, estimators, approximate counts and their errors.

Oracles: the exact kernels of graphmine, networkx, closed forms on complete graphs, and
pybloom-live's BloomFilter as a reference Bloom filter.
"""

import json
import math
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import graphmine as gm
from graphmine import probgraph as pg
from graphmine.cli import main
from graphmine.core.exceptions import ParameterError, SketchSaturationWarning
from graphmine._primitives.estimators import bloom_tables

pytestmark = pytest.mark.filterwarnings("ignore::graphmine.SketchSaturationWarning")


@pytest.fixture(scope="module")
def kron():
    return gm.generators.kronecker_graph(9, 16, seed=3)


@pytest.fixture(scope="module")
def karate():
    return gm.as_graph(nx.karate_club_graph())


def er(n, p, seed):
    return gm.generators.erdos_renyi_graph(n, p, seed=seed)


# --- hand-computed values -------------------------------------------------------------------

@pytest.mark.parametrize("method", ["onehash", "kmv"])
@pytest.mark.parametrize("k", [3, 4, 5])
def test_complete_graph_bottomk_is_exact(method, k):
    # K_9 holds C(9, k) k-cliques; bottom-k sketches with k >= 8 hold every set whole
    est = pg.count_cliques(nx.complete_graph(9), k, method=method, sketch_k=8, seed=2)
    assert est.estimate == math.comb(9, k)
    assert est.stderr == 0 and est.error_model == "exact"


def test_named_graph_similarity_exact_matches_networkx(karate):
    H = nx.karate_club_graph()
    pairs = np.array([(0, 1), (0, 33), (5, 6), (2, 30), (10, 20)])
    jac = pg.similarity(karate, pairs, measure="jaccard")
    ref = [p for _, _, p in nx.jaccard_coefficient(H, pairs.tolist())]
    np.testing.assert_allclose(jac, ref)
    com = pg.similarity(karate, pairs, measure="common")
    np.testing.assert_array_equal(com, [len(list(nx.common_neighbors(H, u, v))) for u, v in pairs])
    ov = pg.similarity(karate, pairs, measure="overlap")
    np.testing.assert_allclose(ov, [c / min(H.degree[u], H.degree[v]) for c, (u, v) in zip(com, pairs)])


def _jp_reference(H, measure, tau):
    keep = nx.Graph()
    keep.add_nodes_from(H)
    for u, v in H.edges():
        a, b = set(H[u]), set(H[v])
        c = len(a & b)
        s = {"common": c, "jaccard": c / len(a | b), "overlap": c / min(len(a), len(b))}[measure]
        if s > tau:
            keep.add_edge(u, v)
    return {frozenset(c) for c in nx.connected_components(keep)}


@pytest.mark.parametrize("measure,tau", [("jaccard", 0.25), ("overlap", 0.5), ("common", 2)])
def test_jarvis_patrick_exact_matches_reference(karate, measure, tau):
    res = pg.jarvis_patrick(karate, tau, measure=measure)
    got = {frozenset(np.flatnonzero(res.labels == c).tolist()) for c in range(res.n_clusters)}
    assert got == _jp_reference(nx.karate_club_graph(), measure, tau)
    # clusters are numbered by their smallest vertex
    firsts = [np.flatnonzero(res.labels == c)[0] for c in range(res.n_clusters)]
    assert firsts == sorted(firsts)


# --- kernels against exact counts where sketches cannot collide -------------------------------

@settings(max_examples=6, deadline=None)
@given(n=st.integers(5, 40), p=st.floats(0.1, 0.7), seed=st.integers(0, 10**6))
def test_bottomk_exact_on_random_graphs(n, p, seed):
    G = er(n, p, seed)
    kk = max(3, int(G.degree.max()) if G.n_nodes else 3)
    for method in ("onehash", "kmv"):
        assert pg.count_triangles(G, method=method, sketch_k=kk, seed=seed).estimate == gm.count_triangles(G)
        assert pg.count_cliques(G, 4, method=method, sketch_k=kk, seed=seed).estimate == gm.count_cliques(G, 4)
        np.testing.assert_array_equal(pg.triangles(G, method=method, sketch_k=kk, seed=1).estimate,
                                      gm.triangles(G))
        np.testing.assert_allclose(pg.similarity(G, method=method, sketch_k=kk, measure="jaccard").estimate,
                                   pg.similarity(G, measure="jaccard"))


@settings(max_examples=5, deadline=None)
@given(n=st.integers(5, 40), p=st.floats(0.1, 0.6), seed=st.integers(0, 10**6))
def test_large_bloom_filters_are_nearly_exact(n, p, seed):
    # 2^16 bits for sets of <= 40 elements: where no two vertices share a bit, the filters hold
    # the sets exactly and the estimates stay within their stated bound and within 2% + 1 of the
    # exact count. Two of 40 vertices share a bit for about 1% of the seeds, and then every
    # neighbourhood pair holding both is one element off (vertex clustering by up to 0.15 on
    # small degrees): such seeds are left out, found from the filters of the complete graph,
    # where each row holds all the other vertices (a row of n - 1 bits iff no two share one)
    G = er(n, p, seed)
    K = pg.sketch_neighbourhoods(nx.complete_graph(G.n_nodes), "bloom", bits=1 << 16, seed=seed)
    assume(all(int(row.sum()) == G.n_nodes - 1 for row in np.unpackbits(K.filters.view(np.uint8), axis=1)))
    for k, est in ((3, "or"), (4, "or"), (4, "and")):
        ex = gm.count_cliques(G, k)
        r = pg.count_cliques(G, k, method="bloom", bits=1 << 16, estimator=est, seed=seed)
        assert abs(r.estimate - ex) <= 0.02 * ex + 1
        assert r.ci[0] <= ex <= r.ci[1]
    cl = pg.clustering(G, method="bloom", bits=1 << 16, seed=seed)
    np.testing.assert_allclose(cl.estimate, gm.clustering(G), atol=0.03)


def test_khash_large_k_within_tolerance(kron):
    ex = gm.count_triangles(kron)
    r = pg.count_triangles(kron, method="khash", sketch_k=2048, seed=5)
    assert abs(r.estimate - ex) / ex < 0.03
    assert r.ci[0] <= ex <= r.ci[1]


def test_per_vertex_and_average_clustering_against_networkx(karate):
    H = nx.karate_club_graph()
    r = pg.clustering(karate, method="kmv", sketch_k=32, seed=1)
    np.testing.assert_allclose(r.estimate, [nx.clustering(H)[v] for v in range(34)])
    a = pg.average_clustering(karate, method="onehash", sketch_k=32, seed=1)
    assert a.estimate == pytest.approx(nx.average_clustering(H))
    t = pg.transitivity(karate, method="kmv", sketch_k=32, seed=1)
    assert t.estimate == pytest.approx(nx.transitivity(H))


def test_jarvis_patrick_sketch_agrees_when_exact(karate):
    ex = pg.jarvis_patrick(karate, 0.3, measure="jaccard")
    ap = pg.jarvis_patrick(karate, 0.3, measure="jaccard", method="onehash", sketch_k=32, seed=1)
    np.testing.assert_array_equal(ex.labels, ap.labels)
    assert ap.uncertain == 0.0 and ex.uncertain is None


# --- invariance ----------------------------------------------------------------------------

@pytest.mark.parametrize("method", pg.METHODS)
def test_same_seed_same_answer_different_seed_differs(kron, method):
    a = pg.count_triangles(kron, method=method, budget=0.1, seed=11)
    b = pg.count_triangles(kron, method=method, budget=0.1, seed=11)
    c = pg.count_triangles(kron, method=method, budget=0.1, seed=12)
    assert a.estimate == b.estimate and a.params == b.params
    assert a.estimate != c.estimate


def test_serial_and_parallel_agree(kron):
    one = pg.count_cliques(kron, 4, method="bloom", budget=0.2, seed=3, threads=1)
    two = pg.count_cliques(kron, 4, method="bloom", budget=0.2, seed=3, threads=2)
    assert one.estimate == pytest.approx(two.estimate, rel=1e-9)
    s1 = pg.similarity(kron, method="kmv", budget=0.2, seed=3, threads=1).estimate
    s2 = pg.similarity(kron, method="kmv", budget=0.2, seed=3, threads=2).estimate
    np.testing.assert_array_equal(s1, s2)


def test_relabelling_keeps_exact_sketch_counts(karate):
    perm = np.random.default_rng(0).permutation(34)
    H = gm.from_edges(perm[karate.edges()])
    for G in (karate, H):
        assert pg.count_cliques(G, 4, method="onehash", sketch_k=32, seed=9).estimate == gm.count_cliques(karate, 4)


# --- hybrid exact/sketch terms and split (hub bitmap + Bloom) sketches ---------------------------

@pytest.mark.parametrize("method", pg.METHODS)
@pytest.mark.parametrize("k", [3, 4, 5])
def test_hybrid_is_exact_when_every_term_is_cheap(kron, method, k):
    # every out-neighbourhood has at most max_out vertices: every term goes through the marker array
    max_out = kron.oriented("degree" if k == 3 else "degeneracy").max_out_degree
    est = pg.count_cliques(kron, k, method=method, budget=0.1, seed=5, exact_threshold=max_out)
    assert est.estimate == gm.count_cliques(kron, k)
    assert est.stderr == 0 and est.error_model == "exact" and est.estimated == 0


@pytest.mark.parametrize("k", [3, 4, 5])
def test_hub_bitmap_holding_every_vertex_is_exact(k):
    G = er(120, 0.3, 4)
    # 128 hub bits cover all 120 vertices: the Bloom filters stay empty, every term is a popcount
    est = pg.count_cliques(G, k, method="bloom", bits=64, hub_bits=128, exact_threshold=0, seed=1)
    assert est.estimate == gm.count_cliques(G, k) and est.stderr == 0
    assert est.params["hub_bits"] == 128


@settings(max_examples=5, deadline=None)
@given(n=st.integers(70, 200), p=st.floats(0.05, 0.4), seed=st.integers(0, 10**6),
       hub_bits=st.sampled_from([64, 128]))
def test_split_sketch_hub_part_matches_reference(n, p, seed, hub_bits):
    from graphmine.probgraph.sketches import NeighbourhoodSketch

    G = er(n, p, seed)
    O = G.oriented("degree", relabel=True)
    S = NeighbourhoodSketch("bloom", "degree", O.indptr, O.indices, 2, 0, 1, seed, 1, hub_words=hub_bits // 64)
    base = n - hub_bits
    for v in range(0, n, 7):
        row = O.indices[O.indptr[v]:O.indptr[v + 1]]
        bits = np.flatnonzero(np.unpackbits(S.hubs[v].view(np.uint8), bitorder="little"))
        np.testing.assert_array_equal(bits, np.sort(row[row >= base]) - base)
        assert S.hub_counts[v] == int((row >= base).sum())
        # the Bloom filter holds exactly the other elements
        ref = np.zeros(S.words, np.uint64)
        for x in row[row < base]:
            ref |= _filter_of(S, x)
        np.testing.assert_array_equal(S.filters[v], ref)


def _filter_of(S, x):
    from graphmine._primitives.sketch_kernels import _bloom_insert

    r = np.zeros(S.words, np.uint64)
    _bloom_insert(r, int(x), S.bits, S.seeds)
    return r


def test_lean_triangle_kernel_matches_generic_kernel(kron):
    from graphmine.probgraph import _approx_kernels as _ak
    from graphmine.probgraph.sketches import NeighbourhoodSketch

    O = kron.oriented("degree", relabel=True)
    for wh, th in [(0, 0), (1, 0), (1, 6)]:
        S = NeighbourhoodSketch("bloom", "degree", O.indptr, O.indices, 2, 0, 1, 7, 2, hub_words=wh)
        lean = _ak._triangles_bloom_total(O.indptr[:-1], S.set_sizes, O.indices, 0, False, S.hubs, wh, S.filters,
                                          0, S.bits, 1, S.ctab, S.stab, S.hub_counts, th, 2)
        gen = _ak._cliques_sketch_total(O.indptr, O.indices, 3, O.max_out_degree, 0, 0, False, S.filters,
                                        S.values, S.stored, S.bits, 1, S.seeds, S.ctab, S.stab, S.hubs,
                                        S.hub_counts, S.hub_base, th, 2)
        assert lean[0] == gen[0]                       # exact parts agree
        np.testing.assert_allclose(lean[1:4], gen[1:4], rtol=1e-9)
        assert lean[5] == gen[5]                       # estimated terms
    # cheap terms and hub terms are exact: only the rest is estimated
    assert lean[0] > 0 and lean[5] < lean[6]


def test_sketches_read_off_the_full_csr_equal_the_oriented_ones(kron):
    """The one-pass path (orientation implied by the rank on the full CSR) builds the same
    sketches as the relabelled oriented CSR, and its kernel gives the same float64[7]."""
    from graphmine.probgraph import _approx_kernels as _ak
    from graphmine.probgraph.counting import degree_rank
    from graphmine.probgraph.sketches import NeighbourhoodSketch

    O = kron.oriented("degree", relabel=True)
    rank = degree_rank(kron.degree)
    np.testing.assert_array_equal(rank, O.rank)
    for wh, th, est in [(0, 0, 0), (1, 0, 0), (1, 6, 0), (1, 6, 1), (1, 6, 2)]:
        S = NeighbourhoodSketch("bloom", "degree", O.indptr, O.indices, 2, 0, 2, 7, 2, hub_words=wh)
        R = NeighbourhoodSketch("bloom", "degree", kron.indptr, kron.indices, 2, 0, 2, 7, 2, hub_words=wh,
                                rank=rank)
        np.testing.assert_array_equal(R.filters, S.filters)
        np.testing.assert_array_equal(R.hubs, S.hubs.reshape(R.hubs.shape) if wh else R.hubs)
        np.testing.assert_array_equal(R.set_sizes, np.diff(O.indptr))
        np.testing.assert_array_equal(R.hub_counts, S.hub_counts)
        for r in range(0, kron.n_nodes, 5):   # the arcs are the oriented rows, unsorted
            a = R.start[r]
            np.testing.assert_array_equal(np.sort(R.arcs[a:a + R.set_sizes[r]]),
                                          O.indices[O.indptr[r]:O.indptr[r + 1]])
        assert R.nbytes == S.nbytes and R.budget == pytest.approx(S.budget)
        old = _ak._triangles_bloom_total(O.indptr[:-1], S.set_sizes, O.indices, est, False, S.hubs, wh, S.filters,
                                         0, S.bits, 2, S.ctab, S.stab, S.hub_counts, th, 2)
        new = _ak._triangles_bloom_total(R.start, R.set_sizes, R.arcs, est, False, R.rows, wh, R.rows, wh, R.bits, 2,
                                         R.ctab, R.stab, R.hub_counts, th, 1)
        assert new[0] == old[0] and new[4:].tolist() == old[4:].tolist()
        np.testing.assert_allclose(new[1:4], old[1:4], rtol=1e-9)


@pytest.mark.parametrize("n, p, seed", [(300, 0.3, 1), (120, 0.05, 2)])
def test_one_pass_bloom_triangles_are_accurate_against_networkx(n, p, seed):
    H = nx.gnp_random_graph(n, p, seed=seed)
    ex = sum(nx.triangles(H).values()) // 3
    for hub_bits in (None, 0):   # the default split sketch, and plain filters (every term estimated)
        a, b = (pg.count_triangles(H, method="bloom", budget=0.25, seed=seed, threads=t, hub_bits=hub_bits,
                                   exact_threshold=0 if hub_bits == 0 else None) for t in (1, 2))
        assert a.estimate == pytest.approx(b.estimate, rel=1e-12) and a.params == b.params
        assert abs(a.estimate - ex) <= max(0.05 * ex, 3 * a.stderr)
        # int64 ids give the same sketches and estimate
        G = gm.as_graph(H)
        G64 = gm.Graph(G.indptr, G.indices.astype(np.int64), index_dtype=np.int64)
        assert G64.indices.dtype == np.int64
        c = pg.count_triangles(G64, method="bloom", budget=0.25, seed=seed, threads=2, hub_bits=hub_bits,
                               exact_threshold=0 if hub_bits == 0 else None)
        assert c.estimate == pytest.approx(b.estimate, rel=1e-12)
    assert a.stderr > 0 and a.estimated == 1.0


def test_branch_free_bottomk_merge_matches_the_reference_merge():
    from graphmine.probgraph._approx_kernels import _merge_branch_free
    from graphmine._primitives.estimators import bottomk_merge

    rng = np.random.default_rng(5)
    for _ in range(300):
        k = int(rng.integers(1, 12))
        pool = rng.choice(60, size=2 * k, replace=False).astype(np.uint32)
        M = np.full((2, k), 0xFFFFFFFF, np.uint32)
        sx, sy = int(rng.integers(0, k + 1)), int(rng.integers(0, k + 1))
        M[0, :sx] = np.sort(rng.choice(pool, sx, replace=False))
        M[1, :sy] = np.sort(rng.choice(pool, sy, replace=False))
        for limit in (k, sx + sy):
            assert _merge_branch_free(M, 0, sx, M, 1, sy, limit) == bottomk_merge(M, 0, sx, M, 1, sy, limit)


@pytest.mark.parametrize("method", ["onehash", "kmv"])
def test_lean_bottomk_triangle_kernel_matches_generic_kernel(kron, method):
    from graphmine.probgraph import _approx_kernels as _ak
    from graphmine.probgraph.sketches import NeighbourhoodSketch

    O = kron.oriented("degree", relabel=True)
    for th, clamp in [(0, True), (8, True), (8, False)]:
        S = NeighbourhoodSketch(method, "degree", O.indptr, O.indices, 0, 8, 1, 3, 2)
        lean = _ak._triangles_bottomk_total(O.indptr, O.indices, method == "kmv", clamp, S.values, S.stored, th, 2)
        gen = _ak._cliques_sketch_total(O.indptr, O.indices, 3, O.max_out_degree, S.kind, 3, clamp, S.filters,
                                        S.values, S.stored, S.bits, 1, S.seeds, S.ctab, S.vtab, S.hubs,
                                        S.hub_counts, S.hub_base, th, 2)
        assert lean[0] == gen[0] and lean[5:].tolist() == gen[5:].tolist()
        np.testing.assert_allclose(lean[1:4], gen[1:4], rtol=1e-9)
    assert 0 < lean[5] < lean[6]


def test_split_sketch_is_reproducible_and_unbiased_over_seeds():
    G = gm.generators.kronecker_graph(11, 32, seed=2)
    ex = gm.count_triangles(G)
    a = pg.count_triangles(G, method="bloom", budget=0.2, seed=4)
    b = pg.count_triangles(G, method="bloom", budget=0.2, seed=4, threads=1)
    assert a.estimate == pytest.approx(b.estimate, rel=1e-12) and a.params == b.params
    assert a.params["hub_bits"] > 0 and 0 < a.estimated < 1
    runs = [pg.count_triangles(G, method="bloom", budget=0.2, seed=s) for s in range(12)]
    v = np.array([r.estimate for r in runs])
    # unclamped sums are unbiased: the mean of 12 independent runs lies within 3 standard errors
    # of the mean, taking each run's stated (bound) error as its standard deviation
    se_mean = np.mean([r.stderr for r in runs]) / math.sqrt(len(runs))
    assert abs(v.mean() - ex) <= 3 * se_mean
    assert np.mean([r.ci[0] <= ex <= r.ci[1] for r in runs]) >= 0.9
    # the split sketch beats a plain Bloom filter of the same memory
    plain = np.array([pg.count_triangles(G, method="bloom", budget=0.2, seed=s, hub_bits=0).estimate
                      for s in range(12)])
    assert np.abs(v - ex).mean() < np.abs(plain - ex).mean()


# --- statistical behaviour ---------------------------------------------------------------------

@pytest.mark.parametrize("method", ["bloom", "onehash"])
def test_error_shrinks_with_budget_and_mean_within_stated_error(kron, method):
    ex = gm.count_triangles(kron)
    errs = []
    for budget in (0.05, 0.25, 1.0):
        runs = [pg.count_triangles(kron, method=method, budget=budget, seed=s) for s in range(6)]
        v = np.array([r.estimate for r in runs])
        errs.append(np.abs(v - ex).mean() / ex)
        # the mean of 6 runs lies within the stated (bound) error of one run
        assert abs(v.mean() - ex) <= np.mean([r.stderr for r in runs])
    assert errs[0] > errs[1] > errs[2]


def test_replicate_intervals_cover_at_about_nominal_rate(kron):
    ex = gm.count_triangles(kron)
    runs = [pg.count_triangles(kron, method="bloom", budget=0.1, seed=s, replicates=4) for s in range(20)]
    cover = np.mean([r.ci[0] <= ex <= r.ci[1] for r in runs])
    assert cover >= 0.8   # nominal 0.95; 20 trials
    assert all(r.error_model == "replicates" and r.replicates == 4 for r in runs)


def test_bound_intervals_cover_at_least_nominal(kron):
    ex = gm.count_cliques(kron, 4)
    runs = [pg.count_cliques(kron, 4, method="bloom", budget=0.1, seed=s) for s in range(10)]
    assert np.mean([r.ci[0] <= ex <= r.ci[1] for r in runs]) >= 0.9


# --- reference Bloom filter -----------------------------------------------------------------

def test_bloom_fill_and_estimators_agree_with_pybloom_live():
    from pybloom_live import BloomFilter

    rng = np.random.default_rng(4)
    X = set(rng.choice(5000, 300, replace=False).tolist())
    Y = set(list(X)[:120]) | set(rng.choice(np.arange(5000, 9000), 180, replace=False).tolist())
    # error_rate 0.5: one slice, one hash — a standard Bloom filter with b = 1
    fx, fy = BloomFilter(700, 0.5), BloomFilter(700, 0.5)
    for x in X:
        fx.add(x)
    for y in Y:
        fy.add(y)
    B = fx.num_bits
    est, var = bloom_tables(B, 1)
    sd = math.sqrt(var[len(X)])
    assert abs(est[fx.bitarray.count()] - len(X)) <= 4 * sd
    inter = len(X & Y)
    ones_or = fx.union(fy).bitarray.count()
    ones_and = fx.intersection(fy).bitarray.count()
    assert abs(len(X) + len(Y) - est[ones_or] - inter) <= 4 * math.sqrt(var[ones_or])
    assert est[ones_and] >= inter - 4 * math.sqrt(var[ones_and])   # AND is biased upward
    # graphmine's filters of (nearly) the same size fill like pybloom's for the same set
    G = gm.from_edges([(9999, x) for x in X] + [(9998, y) for y in Y])
    S = pg.sketch_neighbourhoods(G, "bloom", bits=64 * ((B + 63) // 64), seed=1)
    ours = S.fill()[9999] * S.bits
    expected = S.bits * S.expected_fill(len(X))
    assert abs(ours - expected) <= 4 * math.sqrt(S.bits * 0.25)
    assert abs(ours / S.bits - fx.bitarray.count() / B) < 0.05
    ours_or = np.unpackbits((S.filters[9999] | S.filters[9998]).view(np.uint8)).sum()
    e_or, v_or = bloom_tables(S.bits, 1)
    assert abs(len(X) + len(Y) - e_or[ours_or] - inter) <= 4 * math.sqrt(v_or[ours_or])


def test_bloom_positions_match_filters(karate):
    S = pg.sketch_neighbourhoods(karate, "bloom", bits=128, hashes=2, seed=3)
    row = np.zeros(128, bool)
    for x in karate.neighbors(0):
        row[S.bloom_positions(x)] = True
    got = np.unpackbits(S.filters[0].view(np.uint8), bitorder="little").astype(bool)
    np.testing.assert_array_equal(got, row)


# --- saturation, sizing, errors -------------------------------------------------------------

def test_saturation_is_warned_and_reported():
    with pytest.warns(SketchSaturationWarning, match="full Bloom filter"):
        r = pg.count_triangles(nx.complete_graph(300), method="bloom", bits=64, seed=1)
    assert r.saturated > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", SketchSaturationWarning)
        pg.count_triangles(nx.complete_graph(30), method="bloom", bits=4096, seed=1)


def test_budget_sets_the_sketch_size(kron):
    O = kron.oriented("degree")
    r = pg.count_triangles(kron, method="bloom", budget=0.25, seed=1)
    csr_bytes = 8 * (kron.n_nodes + O.indices.shape[0])
    assert r.sketch_bytes <= 0.25 * csr_bytes and r.budget == pytest.approx(r.sketch_bytes / csr_bytes)
    words = int(0.25 * 64 * (kron.n_nodes + O.indices.shape[0]) / kron.n_nodes // 64)
    # the budget is split between the hub bitmap and the Bloom filter
    assert r.params["bits"] + r.params["hub_bits"] == 64 * words and r.params["hub_bits"] == 64 * min(words // 2, max(words - 2, 0))


def test_choose_sketch_meets_target(kron):
    c = pg.choose_sketch(kron, 0.02, method="bloom", seed=1)
    assert c.met and c.relative_stderr <= 0.02
    r = pg.count_triangles(kron, seed=1, **c.kwargs())
    assert r.relative_stderr <= 0.02


@pytest.mark.parametrize("kwargs", [
    dict(method="nope"), dict(method="bloom", budget=-1), dict(method="bloom", budget=0.1, bits=64),
    dict(method="kmv", bits=64), dict(method="bloom", sketch_k=8), dict(method="bloom", hashes=0),
    dict(method="bloom", estimator="minhash"), dict(method="bloom", seed=-3),
    dict(method="bloom", replicates=0), dict(method="bloom", confidence=1.5),
    dict(method="kmv", hub_bits=64), dict(method="bloom", hub_bits=-1), dict(method="bloom", hub_bits=1.5),
    dict(method="bloom", budget=0.3, hub_bits=4096), dict(method="bloom", exact_threshold=-1),
])
def test_bad_parameters_raise(karate, kwargs):
    with pytest.raises(ParameterError):
        pg.count_triangles(karate, **kwargs)


def test_bad_similarity_inputs_raise(karate):
    with pytest.raises(ParameterError):
        pg.similarity(karate, measure="cosine")
    with pytest.raises(ValueError):
        pg.similarity(karate, [(0, 99)])
    with pytest.raises(ParameterError):
        pg.jarvis_patrick(karate, float("nan"))


def test_top_level_dispatch(karate):
    r = gm.count_cliques(karate, 4, method="kmv", sketch_k=32, seed=1)
    assert isinstance(r, pg.Estimate) and r.estimate == gm.count_cliques(karate, 4)
    d = r.to_dict()
    json.dumps(d)
    assert {"estimate", "stderr", "ci", "budget", "sketch_bytes", "method"} <= set(d)


# --- command line ------------------------------------------------------------------------------

def test_cli_count_cliques_json(capsys):
    assert main(["count-cliques", "Celegans", "--method", "bloom", "--budget", "0.25", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"estimate", "stderr", "ci", "budget", "sketch_bytes"} <= set(out)
    assert out["count"] == round(out["estimate"])


def test_cli_clustering_and_jarvis_patrick(capsys, tmp_path):
    G = gm.datasets.load("Celegans")
    assert main(["clustering", "Celegans", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["average_clustering"]["estimate"] == pytest.approx(gm.average_clustering(G))
    assert out["transitivity"]["estimate"] == pytest.approx(gm.transitivity(G))
    assert main(["clustering", "Celegans", "--method", "kmv", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["transitivity"]["method"] == "kmv" and "stderr" in out["transitivity"]
    path = tmp_path / "labels.tsv"
    assert main(["jarvis-patrick", "Celegans", "--similarity", "overlap", "--tau", "0.5", "--out", str(path)]) == 0
    capsys.readouterr()
    rows = np.loadtxt(path, dtype=np.int64, comments="#")
    res = pg.jarvis_patrick(G, 0.5, measure="overlap")
    np.testing.assert_array_equal(rows[:, 0], G.node_ids)
    np.testing.assert_array_equal(rows[:, 1], res.labels)
    assert main(["jarvis-patrick", "Celegans", "--tau", "0.1", "--budget", "0.2"]) == 2
    assert "approximate methods only" in capsys.readouterr().err
