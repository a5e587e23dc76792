"""GPS (graph priority sampling, in-stream estimation): exact when everything fits, the same
numbers as a slow reference of the paper's formulas, unbiased estimate and variance estimate over
many independent samplers, resumable from a pickle, insertions only."""

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmine import ParameterError
from graphmine.streaming import GPS, EdgeStream, ExactTriangleCounter, estimate_triangles, make_estimator

from .test_estimators import INSERTS, STREAM, check_exact, exact_of, streams


def splitmix(state):
    """The kernels' generator: (next state, uniform float in [0, 1))."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return state, (z >> 11) / 9007199254740992.0


def reference_gps(edges, M, c, state):
    """GPS in plain Python, from the paper: (estimate, variance estimate, final sample as
    {edge: (weight, priority)}, z*). Events are insertions of distinct edges."""
    sample, cov, adj = {}, {}, {}
    z = est = var = 0.0
    for a, b in edges:
        closed = sorted(adj.get(a, set()) & adj.get(b, set()))
        add = 0.0
        for w in closed:
            k1, k2 = frozenset((a, w)), frozenset((b, w))
            i1, i2 = (max(1.0, z / sample[k][0]) for k in (k1, k2))  # 1 / min(1, weight / z*)
            e = i1 * i2
            var += e * (e - 1) + 2 * (cov[k1] * i2 * (i1 - 1) + cov[k2] * i1 * (i2 - 1))
            cov[k1] += e
            cov[k2] += e
            add += e
        est += add
        weight = c * len(closed) + 1.0
        state, x = splitmix(state)
        k = frozenset((a, b))
        sample[k], cov[k] = (weight, weight / (1.0 - x)), add
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
        if len(sample) > M:  # the lowest priority leaves; z* is the largest priority that left
            low = min(sample, key=lambda e: sample[e][1])
            z = max(z, sample[low][1])
            x, y = tuple(low)
            adj[x].discard(y)
            adj[y].discard(x)
            del sample[low], cov[low]
    return est, var, sample, z


def post_stream(est, r, uniform=False):
    """The final sample's own triangles, each counted 1 / (p1 p2 p3) with p = min(1, w / z*)
    (the paper's post-stream estimator, unbiased); with ``uniform``, scaled as if the sample
    were uniform (a biased reading of a sample that prefers edges closing triangles)."""
    n = int(est.sample_size[r])
    z = est._zv[r, 0]
    p = {}
    adj = {}
    for s in range(n):
        a, b = int(est._eu[r, s]), int(est._ev[r, s])
        p[frozenset((a, b))] = min(1.0, est._wt[r, s] / z) if z > 0 else 1.0
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    total = count = 0.0
    for e in p:
        a, b = tuple(e)
        for w in adj[a] & adj[b]:
            total += 1.0 / (p[e] * p[frozenset((a, w))] * p[frozenset((b, w))])
            count += 1
    t = est.edges
    if uniform:
        return count / 3 * (t * (t - 1.0) * (t - 2.0)) / (n * (n - 1.0) * (n - 2.0))
    return total / 3


@pytest.mark.parametrize("c", [0.0, 9.0])
@given(stream=streams(deletions=False))
def test_exact_when_everything_fits(c, stream):
    est = GPS(max(len(stream), 2), seed=1, replicates=2, triangle_weight=c)
    check_exact(est.feed(stream), stream)
    assert est.stderr() == 0.0 and np.all(est.replicate_variances() == 0.0)


@pytest.mark.parametrize("memory,c", [(12, 9.0), (40, 9.0), (40, 0.0), (100, 2.5)])
def test_matches_the_reference(memory, c):
    edges = list(zip(INSERTS.u.tolist(), INSERTS.v.tolist()))
    est = GPS(memory, seed=21, replicates=3, triangle_weight=c).feed(INSERTS)
    for r in range(3):
        state = int(np.random.SeedSequence(21).generate_state(3, np.uint64)[r])  # the seed's stream r
        g, var, sample, z = reference_gps(edges, memory, c, state)
        assert est.replicate_estimates()[r] == pytest.approx(g, rel=1e-12)
        assert est.replicate_variances()[r] == pytest.approx(var, rel=1e-12)
        assert est._zv[r, 0] == z
        ids = est._vmap.ids  # the kernels' compact vertex numbers -> the stream's ids
        got = {frozenset((int(ids[est._eu[r, s]]), int(ids[est._ev[r, s]]))): (est._wt[r, s], est._pr[r, s])
               for s in range(int(est.sample_size[r]))}
        assert got == sample
    assert np.unique(est.replicate_estimates()).shape[0] == 3


R = 4000  # independent samplers; the checks allow 4 standard errors


@pytest.fixture(scope="module")
def many():
    return GPS(60, seed=2024, replicates=R, triangle_weight=9.0).feed(INSERTS, threads=1)  # strongly weighted


def test_unbiased_over_independent_samplers(many):
    exact, loc = exact_of(INSERTS)
    reps = many.replicate_estimates()
    assert np.unique(reps).shape[0] > 5
    se = reps.std(ddof=1) / np.sqrt(R)
    assert 0 < se < 0.05 * exact  # tight enough to see a bias of a few percent
    assert abs(reps.mean() - exact) < 4 * se, (reps.mean(), exact, se)
    ids, _ = many.local_estimates()
    top = max(loc, key=loc.get)
    local = many.replicate_local_estimates()[:, ids.tolist().index(top)]
    assert abs(local.mean() - loc[top]) < 4 * local.std(ddof=1) / np.sqrt(R)
    # the final sample, read with its inclusion probabilities, is unbiased too; read as a uniform
    # sample it is not (GPS keeps the edges that close triangles): the check sees that bias
    post = np.array([post_stream(many, r) for r in range(R)])
    assert abs(post.mean() - exact) < 4 * post.std(ddof=1) / np.sqrt(R)
    naive = np.array([post_stream(many, r, uniform=True) for r in range(R)])
    assert abs(naive.mean() - exact) > 10 * naive.std(ddof=1) / np.sqrt(R)


def test_variance_estimate_is_unbiased(many):
    reps = many.replicate_estimates()
    var = many.replicate_variances()
    assert np.all(var > 0)
    observed = reps.var(ddof=1)
    # the observed variance of R samplers is within about sqrt(2 / R) ~ 2% (more with heavy tails)
    # of the true one; the mean of the estimates within its own standard error
    assert abs(var.mean() - observed) < 4 * var.std(ddof=1) / np.sqrt(R) + 0.1 * observed, (var.mean(), observed)
    assert many.stderr() == pytest.approx(np.sqrt(var.sum()) / R)


def test_pickle_resumes_identically():
    whole = GPS(50, seed=5, replicates=3).feed(INSERTS)
    part = GPS(50, seed=5, replicates=3)
    cut = len(INSERTS) // 3
    part.feed(INSERTS.slice(0, cut))
    part = pickle.loads(pickle.dumps(part))
    for _, u, v in INSERTS.events()[cut:cut + 10].tolist():  # one at a time
        part.update(u, v)
    part = pickle.loads(pickle.dumps(part))
    part.feed(INSERTS.slice(cut + 10, len(INSERTS)))
    assert np.array_equal(part.replicate_estimates(), whole.replicate_estimates())
    assert np.array_equal(part.replicate_variances(), whole.replicate_variances())
    assert np.array_equal(part.local_estimates()[1], whole.local_estimates()[1])
    assert part.events == whole.events == len(INSERTS)


def test_threads_and_names():
    a = make_estimator("gps", 40, seed=9, replicates=5, triangle_weight=3).feed(INSERTS, threads=1)
    b = estimate_triangles(INSERTS, 40, method="gps", seed=9, replicates=5, threads=2)
    assert a.triangle_weight == 3.0 and b.triangle_weight == 1.0
    c = GPS(40, seed=9, replicates=5, triangle_weight=3).feed(INSERTS, threads=2)
    assert np.array_equal(a.replicate_estimates(), c.replicate_estimates())
    assert not np.array_equal(a.replicate_estimates(), b.replicate_estimates())


def test_deletions_and_bad_parameters_are_refused():
    with pytest.raises(ParameterError, match="gps counts insertion-only streams"):
        GPS(10).feed(STREAM)
    with pytest.raises(ParameterError, match="gps counts insertion-only"):
        GPS(10).delete(1, 2)
    with pytest.raises(ParameterError, match="memory must be an integer >= 2"):
        GPS(1)
    with pytest.raises(ParameterError, match="triangle_weight"):
        GPS(10, triangle_weight=-1)
    # repeated insertions and self-loops are skipped, as by the other samplers
    est = GPS(10, seed=1).feed(EdgeStream(np.ones(4, np.int64), np.array([1, 1, 2, 3]), np.array([2, 2, 2, 1])))
    assert est.skipped == {"self_loops": 1, "repeated_insertions": 1, "absent_deletions": 0}
    assert est.edges == 2 and ExactTriangleCounter().feed([(1, 2), (3, 1)]).edges == 2
