"""The sampling estimators: exact when the memory holds the whole stream, unbiased over many
independent samplers, reproducible, resumable from a pickle."""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmine import ParameterError, SketchSaturationWarning
from graphmine.streaming import (WRS, EdgeStream, ExactTriangleCounter, ThinkDAcc, ThinkDFast, TriestFD, TriestImpr,
                                 estimate_triangles, make_estimator, with_deletions)

DYNAMIC = ("thinkd-acc", "thinkd-fast", "triest-fd")
INSERT_ONLY = ("triest", "wrs")


def make(method, memory, seed=0, replicates=1):
    if method == "thinkd-fast":
        return ThinkDFast(min(1.0, memory), seed=seed, replicates=replicates) if memory <= 1 else \
            ThinkDFast(1.0, seed=seed, replicates=replicates)
    return make_estimator(method, memory, seed=seed, replicates=replicates)


def random_stream(n, m, deletions, seed):
    """A cleaned stream: m distinct edges of a random graph on n vertices in random order, with a
    share of them deleted later."""
    rng = np.random.default_rng(seed)
    iu, ju = np.triu_indices(n, 1)
    pick = rng.choice(iu.shape[0], size=m, replace=False)
    s = EdgeStream(np.ones(m, np.int64), iu[pick], ju[pick])
    return with_deletions(s, deletions, seed=rng) if deletions else s


@st.composite
def streams(draw, deletions=True):
    n = draw(st.integers(3, 14))
    m = draw(st.integers(0, n * (n - 1) // 2))
    share = draw(st.sampled_from([0.0, 0.2, 0.5])) if deletions else 0.0
    return random_stream(n, m, share, draw(st.integers(0, 2**32 - 1)))


def exact_of(stream):
    ex = ExactTriangleCounter().feed(stream)
    return ex.global_estimate(), dict(zip(*map(np.ndarray.tolist, ex.local_estimates())))


def check_exact(est, stream):
    g, loc = exact_of(stream)
    assert est.global_estimate() == pytest.approx(g, abs=1e-9)
    ids, vals = est.local_estimates()
    assert dict(zip(ids.tolist(), vals.tolist())) == pytest.approx(loc, abs=1e-9)


@pytest.mark.parametrize("method", DYNAMIC)
@given(stream=streams())
def test_dynamic_methods_exact_when_everything_fits(method, stream):
    est = make(method, max(len(stream), 3), seed=1, replicates=2)
    check_exact(est.feed(stream), stream)
    assert est.stderr() == 0.0  # both replicates hold the whole graph


@pytest.mark.parametrize("method", INSERT_ONLY)
@given(stream=streams(deletions=False))
def test_insert_only_methods_exact_when_everything_fits(method, stream):
    est = make(method, max(len(stream), 3), seed=1)
    check_exact(est.feed(stream), stream)


@given(stream=streams(deletions=False), memory=st.integers(2, 30), seed=st.integers(0, 1000))
def test_thinkd_acc_is_triest_impr_on_insertions(stream, memory, seed):
    # without deletions the two count the same way and draw the same random numbers
    a = ThinkDAcc(memory, seed=seed).feed(stream)
    b = TriestImpr(memory, seed=seed).feed(stream)
    assert a.global_estimate() == pytest.approx(b.global_estimate(), rel=1e-12)
    assert np.allclose(a.local_estimates()[1], b.local_estimates()[1], rtol=1e-12)


# -- unbiasedness: the mean of many independent samplers against the exact count ----------------
STREAM = random_stream(40, 260, 0.2, seed=11)  # 312 events, 52 deletions
INSERTS = random_stream(40, 260, 0.0, seed=11)
R = 4000  # independent samplers (replicates) per method; the check allows 4 standard errors


@pytest.mark.parametrize("method,memory", [("thinkd-acc", 60), ("thinkd-fast", 0.3), ("triest-fd", 60),
                                           ("triest", 60), ("wrs", 60)])
def test_unbiased_over_independent_samplers(method, memory):
    stream = STREAM if method in DYNAMIC else INSERTS
    exact, loc = exact_of(stream)
    est = make(method, memory, seed=2024, replicates=R)
    if method == "thinkd-fast":
        est = ThinkDFast(memory, seed=2024, replicates=R)
    est.feed(stream, threads=1)
    reps = est.replicate_estimates()
    assert np.unique(reps).shape[0] > 5  # the samplers differ: the memory is far below the stream
    se = est.stderr()
    assert 0 < se < 0.05 * exact  # the check below is tight enough to see a bias of a few percent
    assert abs(est.global_estimate() - exact) < 4 * se, (est.global_estimate(), exact, se)
    # per vertex too, at the vertex with most triangles
    ids, _ = est.local_estimates()
    top = max(loc, key=loc.get)
    local = est._replicate_locals()[:, ids.tolist().index(top)]
    assert abs(local.mean() - loc[top]) < 4 * local.std(ddof=1) / np.sqrt(R)


def test_a_biased_estimate_would_be_seen():
    # the same check on TRIEST-FD's unscaled counters (the sample's own triangles) fails by far
    est = TriestFD(60, seed=2024, replicates=R).feed(STREAM, threads=1)
    raw = est._glob
    exact, _ = exact_of(STREAM)
    assert abs(raw.mean() - exact) > 20 * raw.std(ddof=1) / np.sqrt(R)


# -- reproducibility, checkpoints -------------------------------------------------------------
@pytest.mark.parametrize("method", DYNAMIC + INSERT_ONLY)
def test_pickle_resumes_identically(method):
    stream = STREAM if method in DYNAMIC else INSERTS
    mem = 0.4 if method == "thinkd-fast" else 50
    whole = (ThinkDFast(mem, seed=5, replicates=3) if method == "thinkd-fast" else make(method, mem, 5, 3))
    whole.feed(stream)
    part = ThinkDFast(mem, seed=5, replicates=3) if method == "thinkd-fast" else make(method, mem, 5, 3)
    cut = len(stream) // 3
    part.feed(stream.slice(0, cut))
    part = pickle.loads(pickle.dumps(part))
    part.feed(stream.slice(cut, cut + 10))
    part = pickle.loads(pickle.dumps(part))
    for sg, u, v in stream.events()[cut + 10:cut + 20].tolist():  # one at a time
        (part.update if sg > 0 else part.delete)(u, v)
    part.feed(stream.slice(cut + 20, len(stream)))
    assert np.array_equal(part.replicate_estimates(), whole.replicate_estimates())
    assert np.array_equal(part.local_estimates()[1], whole.local_estimates()[1])
    assert part.events == whole.events == len(stream)


@pytest.mark.parametrize("method", ("thinkd-acc", "wrs"))
def test_threads_do_not_change_the_result(method):
    stream = STREAM if method in DYNAMIC else INSERTS
    a = make(method, 40, seed=9, replicates=5).feed(stream, threads=1)
    b = make(method, 40, seed=9, replicates=5).feed(stream, threads=2)
    assert np.array_equal(a.replicate_estimates(), b.replicate_estimates())
    c = make(method, 40, seed=10, replicates=5).feed(stream, threads=1)
    assert not np.array_equal(a.replicate_estimates(), c.replicate_estimates())


def test_vertex_ids_are_mapped():
    # large, sparse ids give the same estimates as compact ones
    big = EdgeStream(STREAM.signs, STREAM.u * 10**12 + 7, STREAM.v * 10**12 + 7)
    a = ThinkDAcc(50, seed=1).feed(STREAM)
    b = ThinkDAcc(50, seed=1).feed(big)
    assert a.global_estimate() == b.global_estimate()
    assert np.array_equal(a.local_estimates()[0] * 10**12 + 7, b.local_estimates()[0])
    ids, vals = b.top_vertices(3)
    assert ids.shape == (3,) and np.all(np.diff(vals) <= 0)


def test_errors_and_warnings():
    with pytest.raises(ParameterError, match="insertion-only"):
        TriestImpr(10).feed(STREAM)
    with pytest.raises(ParameterError, match="insertion-only"):
        WRS(10).delete(1, 2)
    with pytest.raises(ParameterError, match="memory must be an integer >= 2"):
        ThinkDAcc(1)
    with pytest.raises(ParameterError, match="probability"):
        ThinkDFast(0)
    with pytest.raises(ParameterError, match="method must be one of"):
        make_estimator("mascot", 10)
    with pytest.warns(SketchSaturationWarning, match="passed its memory"):
        est = ThinkDFast(1.0, memory=5, seed=1).feed(INSERTS)
    check_exact(est, INSERTS)  # it grew, and stayed exact
    one = ThinkDAcc(20, seed=1).feed(STREAM)
    assert np.isnan(one.stderr()) and one.to_dict()["stderr"] is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert estimate_triangles(STREAM, method="exact").stderr() == 0.0


def test_estimate_triangles_runs_one_sampler_per_thread():
    est = estimate_triangles(STREAM, 40, method="thinkd-acc", seed=3, threads=2)
    assert est.replicates == 2 and est.global_estimate() == est.replicate_estimates().mean()
    fast = estimate_triangles(STREAM, 40, method="thinkd-fast", seed=3)
    assert fast.probability == pytest.approx(40 / STREAM.peak_edges())
    with pytest.raises(ParameterError, match="needs a memory"):
        estimate_triangles(STREAM, method="triest-fd")


def test_clipped_local_estimates_are_never_farther():
    est = ThinkDAcc(30, seed=4, replicates=50).feed(STREAM)
    ids, x = ExactTriangleCounter().feed(STREAM).local_estimates()
    assert np.array_equal(ids, est.local_estimates()[0])
    raw, clipped = est.replicate_local_estimates(), est.replicate_local_estimates(clip=True)
    assert (raw < 0).any() and (clipped >= 0).all()  # deletions make unbiased local estimates negative at times
    assert np.all(np.abs(clipped - x) <= np.abs(raw - x))
    assert np.array_equal(est.local_estimates(clip=True)[1], np.maximum(raw.mean(axis=0), 0))
