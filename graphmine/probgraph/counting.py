"""Approximate triangle and k-clique counts, clustering coefficients and transitivity.

Same names and call pattern as the exact functions of :mod:`graphmine`; ``method`` picks the
sketch. Global counts sketch the out-neighbourhoods of an acyclic orientation (each clique is
seen once); per-vertex counts sketch the full neighbourhoods and estimate, for every edge uv,
the triangles through it, |N(u) ∩ N(v)|:

.. math::

    T = \\sum_{u \\to v} |N^+(u) \\cap N^+(v)|, \\qquad
    T(v) = \\tfrac12 \\sum_{u \\in N(v)} |N(u) \\cap N(v)|, \\qquad
    c_v = \\frac{2 T(v)}{d_v (d_v - 1)}.
"""

from .._runtime.docs import fill_doc
import math
import time

import numpy as np

from ..core.validation import check_k as _check_k
from .._runtime.interrupt import interruptible
from .._primitives.small_work import serial_first
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, SketchSaturationWarning, check_int, warn_at_caller
from ..core.validation import as_graph
from . import _approx_kernels as _ak
from .._primitives.estimators import EST_AND, EST_LIMIT, EST_MINHASH, EST_OR, KIND_BLOOM
from .results import make_array_estimate, make_estimate
from ..core.registry import check_method
from .sketches import (MAX_HASHES, METHODS, NeighbourhoodSketch, check_estimator,
                       resolve_seed, sketch_neighbourhoods, sketch_size)

__all__ = ["count_triangles", "count_cliques", "triangles", "clustering", "average_clustering",
           "transitivity", "warn_saturation", "clique_estimate"]

_EST_CODE = {"or": EST_OR, "and": EST_AND, "limit": EST_LIMIT, "minhash": EST_MINHASH, "kmv": EST_MINHASH}


def _check_confidence(confidence):
    if not isinstance(confidence, (float, int)) or not 0 < confidence < 1:
        raise ParameterError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    return float(confidence)


def warn_saturation(saturated, total, what):
    """Warn (:class:`~graphmine.SketchSaturationWarning`) when estimated terms hit a full Bloom filter.

    Parameters
    ----------
    saturated : int
        Terms whose filters were full (no warning when 0).
    total : int
        Terms estimated.
    what : str
        The quantity, for the message.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     warn_saturation(2, 100, "triangles")
    >>> seen[0].category.__name__
    'SketchSaturationWarning'
    """
    if saturated:
        warn_at_caller(
            f"{saturated} of {total} estimated intersections ({100 * saturated / max(total, 1):.2g}%) "
            f"hit a full Bloom filter while estimating {what}; those terms are bounds, not estimates. "
            "Raise the budget (or bits) to avoid saturation.", SketchSaturationWarning)


def _meta(sketch, estimator, quantity, saturated, total, t0):
    return dict(quantity=quantity, method=sketch.method, estimator=estimator, budget=sketch.budget,
                params=sketch.params(), sketch_bytes=sketch.nbytes,
                saturated=saturated / total if total else 0.0, seconds=time.perf_counter() - t0)


def _sketch_args(sketch):
    return (sketch.kind, sketch.filters, sketch.values, sketch.stored, sketch.bits, sketch.hashes)


def _check_replicates(replicates):
    if isinstance(replicates, bool) or not isinstance(replicates, (int, np.integer)) or replicates < 1:
        raise ParameterError(f"replicates must be a positive integer, got {replicates!r}")
    return int(replicates)


def replicate_seeds(seed, replicates):
    """Independent seeds of the replicates (the first is ``seed`` itself)."""
    if replicates == 1:
        return [seed]
    return [seed] + [int(x) for x in np.random.default_rng(seed).integers(2**63, size=replicates - 1)]


def combine(runs, *, confidence, quantity, estimator, t0, lo=0.0, hi=math.inf, scale=1.0):
    """One Estimate from runs of (value, sd bound, saturated, estimated terms, sketch, terms).

    One run: the error is the bound (sum of the standard deviations of the estimated terms), or
    exact when every term was computed exactly. Several: mean and the standard error of the
    mean, Student's t interval.
    """
    values = np.array([r[0] for r in runs]) * scale
    sat = sum(r[2] for r in runs)
    nest = sum(r[3] for r in runs)
    terms = sum(r[5] for r in runs)
    S = runs[0][4]
    meta = _meta(S, estimator, quantity, sat, nest, t0)
    meta["replicates"] = len(runs)
    meta["estimated"] = nest / terms if terms else 0.0
    if len(runs) == 1:
        bound = runs[0][1] * scale
        meta["error_model"] = "exact" if bound == 0 else "bound"
        return make_estimate(float(np.clip(values[0], lo, hi)), bound, confidence=confidence, lo=lo, hi=hi,
                             **meta)
    meta["error_model"] = "replicates"
    se = float(values.std(ddof=1) / math.sqrt(len(runs)))
    return make_estimate(float(np.clip(values.mean(), lo, hi)), se, confidence=confidence, lo=lo, hi=hi,
                         dof=len(runs) - 1, **meta)


def split_words(method, n, nnz, *, budget, bits, sketch_k, hub_bits):
    """(hub words, Bloom words, k) of a split sketch of n out-neighbourhoods holding nnz arcs.

    With a ``budget`` (the default), half of the Bloom words go to an exact bitmap of the
    highest-ranked vertices (at most n bits, and only while two words are left for the filter); with ``bits``, the Bloom filter has that size and
    hubs are used only when ``hub_bits`` is given. ``hub_bits=0`` turns the split off.
    """
    words, k = sketch_size(method, n, nnz, budget, bits, sketch_k)
    if hub_bits is not None:
        if method != "bloom":
            raise ParameterError(f"hub_bits splits Bloom sketches; method={method!r} has none")
        if isinstance(hub_bits, bool) or not isinstance(hub_bits, (int, np.integer)) or hub_bits < 0:
            raise ParameterError(f"hub_bits must be a non-negative integer, got {hub_bits!r}")
    if method != "bloom":
        return 0, words, k
    top = (n + 63) // 64
    if hub_bits is None:
        # a filter of fewer than two words saturates on the sets that need estimating: hubs only
        # where at least two words are left for it
        wh = 0 if bits is not None else min(words // 2, max(words - 2, 0), top)
        return wh, words - wh, k
    wh = min((int(hub_bits) + 63) // 64, top)
    if bits is None:
        if wh >= words:
            raise ParameterError(f"hub_bits={hub_bits} leaves no room for the Bloom filters in a budget of "
                                 f"{64 * words} bits per vertex")
        words -= wh
    return wh, words, k


def _check_threshold(exact_threshold, default):
    if exact_threshold is None:
        return default
    if isinstance(exact_threshold, bool) or not isinstance(exact_threshold, (int, np.integer)) \
            or exact_threshold < 0:
        raise ParameterError(f"exact_threshold must be a non-negative integer, got {exact_threshold!r}")
    return int(exact_threshold)


def _elsewhere(name, G, method, device, **kw):
    """The exact count, or an estimate asked of another device: the registry's choice
    (:mod:`graphmine.core.registry`: the exact family on the CPU, the GPU's back-end for 'cuda' or
    'auto', the sketches below on the CPU when the GPU declines an 'auto' call)."""
    from ..core.registry import call

    return call(name, G, method=method, device=device, **kw)


def degree_rank(degree):
    """Rank of every vertex in the degree order, (deg u, u) < (deg v, v), as
    :meth:`graphmine.Graph.oriented` ranks them (int32 while the ids fit: the kernels gather it)."""
    n = degree.shape[0]
    rank = np.empty(n, np.int32 if n < 2**31 else np.int64)
    rank[np.argsort(degree, kind="stable")] = np.arange(n, dtype=rank.dtype)
    return rank


@interruptible
@restores_threads
@fill_doc
def clique_estimate(G, k, method, *, budget=None, bits=None, hashes=1, sketch_k=None, estimator=None, seed=None,
                    order=None, clamp=None, confidence=0.95, threads=None, replicates=1, hub_bits=None,
                    exact_threshold=None, gpu_run=None):
    """The k-clique estimate of :func:`count_cliques` for a graph ``G`` already validated.

    Parameters
    ----------
    G : Graph
        A validated graph.
    k : int
        Checked clique size.
    method : str
        A sketch method.
    {sketch_budget, sketch_bits, sketch_hashes, sketch_k, sketch_estimator, sketch_seed, order}
    {sketch_clamp, sketch_confidence, threads, sketch_replicates, sketch_hub_bits}
    {sketch_exact_threshold}
    gpu_run : callable, optional
        A device back-end's Bloom triangle run for one seed (``graphmine.cuda``'s, which passes
        it): ``gpu_run(G, order, threads, words, hub_words, hashes, seed, estimator code, clamp,
        threshold)`` -> (float64[7] totals, sketch). None: the CPU kernels.

    Returns
    -------
    Estimate
        The k-clique estimate.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> est = clique_estimate(gm.as_graph(nx.complete_graph(6)), 4, "kmv", sketch_k=16, seed=2)
    >>> est.estimate, est.quantity  # whole sets fit the sketches: exact, C(6, 4)
    (15.0, '4-cliques')
    """
    t0 = time.perf_counter()
    check_method(method, METHODS)
    estimator = check_estimator(method, estimator)
    confidence = _check_confidence(confidence)
    replicates = _check_replicates(replicates)
    hashes = check_int("hashes", hashes, 1, MAX_HASHES)
    if order is None:
        order = "degree" if k == 3 else "degeneracy"
    if order not in ("degree", "degeneracy"):
        raise ParameterError(f"order must be 'degree' or 'degeneracy', got {order!r}")
    nthreads = resolve_threads(threads)
    gpu = gpu_run is not None and method == "bloom" and k == 3
    # Bloom triangles on the CPU over the degree order read the orientation straight off the
    # full CSR while sketching (no oriented copy: building one costs as much as the estimate)
    ranked = not gpu and method == "bloom" and k == 3 and order == "degree"
    if ranked:
        O = None
        rank = degree_rank(G.degree)
    else:
        # ids relabelled by rank: memory locality, and the hubs are the largest ids
        O = G.oriented(order, relabel=True, threads=nthreads)
    n = G.n_nodes
    wh, words, ksk = split_words(method, n, G.n_edges, budget=budget, bits=bits, sketch_k=sketch_k,
                                 hub_bits=hub_bits)
    thresh = _check_threshold(exact_threshold, wh + words if method == "bloom" else ksk)
    if clamp is None:
        clamp = method != "bloom"
    runs = []
    for s in replicate_seeds(resolve_seed(seed), replicates):
        if gpu:
            r, S = gpu_run(G, order, nthreads, words, wh, hashes, s, _EST_CODE[estimator], bool(clamp),
                                   thresh)
            runs.append((r[0] + r[1], r[3], int(r[4]), int(r[5]), S, int(r[6])))
            continue
        if ranked:
            S = NeighbourhoodSketch(method, order, G.indptr, G.indices, words, ksk, hashes, s, nthreads,
                                    hub_words=wh, rank=rank)
            total = _ak._triangles_bloom_total
            if serial_first(total, G.indices.shape[0]):
                total = _ak.triangles_bloom_serial
            # one row per vertex: the hub bitmap, then the filter from word wh
            r = total(S.start, S.set_sizes, S.arcs, _EST_CODE[estimator], bool(clamp), S.rows, wh, S.rows, wh,
                      S.bits, hashes, S.ctab, S.stab, S.hub_counts, thresh, nthreads)
            runs.append((r[0] + r[1], r[3], int(r[4]), int(r[5]), S, int(r[6])))
            del S
            continue
        S = NeighbourhoodSketch(method, order, O.indptr, O.indices, words, ksk, hashes, s, nthreads,
                                hub_words=wh)
        kind, F, M, St, nbits, b = _sketch_args(S)
        if O.max_out_degree < k - 1:
            tot, sd, sat, nest, terms = 0.0, 0.0, 0, 0, 0
        elif k == 3 and kind == KIND_BLOOM:
            r = _ak._triangles_bloom_total(O.indptr[:-1], S.set_sizes, O.indices, _EST_CODE[estimator], bool(clamp),
                                           S.hubs, wh, F, 0, nbits, b, S.ctab, S.stab, S.hub_counts, thresh, nthreads)
        elif k == 3 and method in ("onehash", "kmv"):
            r = _ak._triangles_bottomk_total(O.indptr, O.indices, method == "kmv", bool(clamp), M, St, thresh,
                                             nthreads)
        else:
            total = _ak._cliques_sketch_total
            if serial_first(total, O.indices.shape[0]):
                total = _ak.cliques_sketch_serial
            r = total(
                O.indptr, O.indices, k, O.max_out_degree, kind, _EST_CODE[estimator], bool(clamp),
                F, M, St, nbits, b, S.seeds, S.ctab, S.stab if kind == KIND_BLOOM else S.vtab, S.hubs,
                S.hub_counts, S.hub_base, thresh, nthreads)
        if O.max_out_degree >= k - 1:
            tot, sd, sat, nest, terms = r[0] + r[1], r[3], int(r[4]), int(r[5]), int(r[6])
        runs.append((tot, sd, sat, nest, S, terms))
        del S, F, M, St
    quantity = "triangles" if k == 3 else f"{k}-cliques"
    warn_saturation(sum(r[2] for r in runs), sum(r[3] for r in runs), quantity)
    est = combine(runs, confidence=confidence, quantity=quantity, estimator=estimator, t0=t0)
    est.params["exact_threshold"] = thresh
    return est


@fill_doc
def count_cliques(G, k=3, *, method="bloom", budget=None, bits=None, hashes=1, sketch_k=None,
                  estimator=None, seed=None, order=None, clamp=None, confidence=0.95, replicates=1,
                  hub_bits=None, exact_threshold=None, threads=None, device="cpu"):
    """Estimate the number of k-cliques from neighbourhood sketches (any k >= 3).

    The first k - 2 vertices of each clique are enumerated exactly over the orientation (ids
    relabelled by rank); the last two levels, |C ∩ N+(w)| for the common out-neighbourhood C of
    the prefix, are estimated from sketches, so the cost of the deepest (dominant) merges
    becomes a few word operations. Terms are computed exactly where that is as cheap as the
    sketch (d+(w) <= ``exact_threshold``), and Bloom sketches hold the highest-ranked vertices
    (the hubs, which most out-neighbourhoods share) in an exact bitmap, so only the rest of an
    intersection is estimated. ``stderr`` covers the estimated part only; ``estimated`` is the
    fraction of terms that were estimated.

    {Parameters: G, k, sketch_method, sketch_budget, sketch_bits, sketch_hashes, sketch_k, sketch_estimator}
        For k >= 4 Bloom's 'and' is the multi-set AND of the prefix's filters, biased upward
        by coincident bits.
    {sketch_seed, order, sketch_clamp, sketch_confidence, sketch_replicates, sketch_hub_bits}
    {sketch_exact_threshold, threads, sketch_device}

    Returns
    -------
    Estimate
        The estimate, its standard error and confidence interval, and the sketch used.

    Raises
    ------
    ParameterError
        ``k`` < 3, an unknown method or estimator, or sketch sizes out of range.

    Examples
    --------
    >>> import networkx as nx
    >>> est = count_cliques(nx.complete_graph(8), 4, method="onehash", sketch_k=16, seed=1)
    >>> est.estimate, est.stderr  # a bottom-k sketch holding whole sets is exact
    (70.0, 0.0)
    """
    if method == "exact" or device != "cpu":
        kw = {} if method == "exact" else dict(
            budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k, estimator=estimator, seed=seed,
            clamp=clamp, confidence=confidence, replicates=replicates, hub_bits=hub_bits,
            exact_threshold=exact_threshold)
        return _elsewhere("count_cliques", G, method, device, k=k, order=order, threads=threads, **kw)
    k = _check_k(k)
    G = as_graph(G)
    return clique_estimate(G, k, method, budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k,
                           estimator=estimator, seed=seed, order=order, clamp=clamp,
                           confidence=confidence, threads=threads, replicates=replicates,
                           hub_bits=hub_bits, exact_threshold=exact_threshold)


@fill_doc
def count_triangles(G, *, method="bloom", budget=None, bits=None, hashes=1, sketch_k=None,
                    estimator=None, seed=None, order="degree", clamp=None, confidence=0.95,
                    replicates=1, hub_bits=None, exact_threshold=None, threads=None, device="cpu"):
    """Estimate the number of triangles: sum over arcs u -> v of |N+(u) ∩ N+(v)| from sketches.

    With Bloom filters on the CPU in the degree order (the defaults) the orientation is read
    straight off the full CSR while the sketches are built, in one pass: no oriented copy is
    made or cached, and the estimate equals the one over the relabelled orientation with the
    same seed. 1-hash MinHash and KMV run a lean kernel with a branch-free merge of the two
    bottom-k sketches, but a merge of k values still costs about as much as the exact kernel's
    marker scan of a short out-neighbourhood: on Kronecker 16/64 (average degree 110, 2 threads)
    ``method='onehash'`` at budget 0.25 is only 1.3-1.6x faster than the exact count at 86-99%
    accuracy (seed to seed), against the Bloom filters' 4-6x at 98.6% or better; on
    facebook_combined (average degree 44) it takes 12x the exact count's time. Prefer ``'bloom'``
    (or ``method='exact'``) for counting; bottom-k sketches pay for similarity, not for triangles.

    .. math:: \\hat T = \\sum_{u \\to v} \\widehat{|N^+(u) \\cap N^+(v)|}

    {Parameters: G, sketch_method, sketch_budget, sketch_bits, sketch_hashes, sketch_k, sketch_estimator, sketch_seed}
    order : {'degree', 'degeneracy'}, default 'degree'
        Orientation whose out-neighbourhoods are sketched.
    {sketch_clamp, sketch_confidence, sketch_replicates, sketch_hub_bits, sketch_exact_threshold}
    {threads, sketch_device}

    Returns
    -------
    Estimate
        The triangle estimate (an int for ``method='exact'``).

    Examples
    --------
    >>> import networkx as nx
    >>> est = count_triangles(nx.karate_club_graph(), method="bloom", bits=4096, seed=1)
    >>> round(est.estimate)  # 45 triangles; filters this large rarely collide
    45
    """
    if method == "exact":
        return _elsewhere("count_triangles", G, method, device, threads=threads)
    if device != "cpu":
        return _elsewhere("count_triangles", G, method, device, budget=budget, bits=bits, hashes=hashes,
                          sketch_k=sketch_k, estimator=estimator, seed=seed, order=order, clamp=clamp,
                          confidence=confidence, replicates=replicates, hub_bits=hub_bits,
                          exact_threshold=exact_threshold, threads=threads)
    G = as_graph(G)
    return clique_estimate(G, 3, method, budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k,
                           estimator=estimator, seed=seed, order=order, clamp=clamp,
                           confidence=confidence, threads=threads, replicates=replicates,
                           hub_bits=hub_bits, exact_threshold=exact_threshold)


@interruptible
@restores_threads
def edge_intersections(G, method, *, budget=None, bits=None, hashes=1, sketch_k=None, estimator=None,
                       seed=None, clamp=True, threads=None, pairs=None):
    """Estimated |N(u) ∩ N(v)| for every edge (u < v, in ``G.edges()`` order) or given pairs.

    Returns (edges, estimates, variances, saturated mask, sketch, estimator name).
    """
    check_method(method, METHODS)
    estimator = check_estimator(method, estimator)
    nthreads = resolve_threads(threads)
    S = sketch_neighbourhoods(G, method, budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k,
                              seed=seed, scope="all", threads=nthreads)
    e = G.edges() if pairs is None else pairs
    kind, F, M, St, nbits, b = _sketch_args(S)
    pairs_sketch = _ak._pairs_sketch
    if serial_first(pairs_sketch, int(S.set_sizes.sum()) + e.shape[0]):
        pairs_sketch = _ak.pairs_sketch_serial
    est, var, sat = pairs_sketch(np.ascontiguousarray(e[:, 0]), np.ascontiguousarray(e[:, 1]),
                                      S.set_sizes, kind, _EST_CODE[estimator], bool(clamp), F, M, St,
                                      nbits, b, S.ctab, S.vtab, nthreads)
    return e, est, var, sat, S, estimator


def _vertex_sums(n, edges, values):
    return (np.bincount(edges[:, 0], values, minlength=n) + np.bincount(edges[:, 1], values, minlength=n))


def _per_vertex(G, method, quantity, kw):
    t0 = time.perf_counter()
    G = as_graph(G)
    confidence = _check_confidence(kw.pop("confidence", 0.95))
    e, est, var, sat, S, estimator = edge_intersections(G, method, **kw)
    n = G.n_nodes
    nsat = int(sat.sum())
    warn_saturation(nsat, est.shape[0], quantity)
    tri = 0.5 * _vertex_sums(n, e, est)
    tvar = 0.5 * _vertex_sums(n, e, np.sqrt(var))  # sd bound: terms share hashes
    meta = _meta(S, estimator, quantity, nsat, est.shape[0], t0)
    return G, tri, tvar, e, est, var, meta, confidence


def _split_kw(budget, bits, hashes, sketch_k, estimator, seed, clamp, confidence, threads):
    return dict(budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k, estimator=estimator,
                seed=seed, clamp=clamp, confidence=confidence, threads=threads)


def _forwarded(method, kw):
    """The keywords a call forwarded by :func:`_elsewhere` takes: the exact count only threads."""
    return {"threads": kw["threads"]} if method == "exact" else kw


@fill_doc
def triangles(G, *, method="bloom", budget=None, bits=None, hashes=1, sketch_k=None, estimator=None,
              seed=None, clamp=True, confidence=0.95, threads=None, device="cpu"):
    """Estimated triangles through every vertex, T(v) = 1/2 sum over u in N(v) of |N(u) ∩ N(v)|.

    Every edge's intersection is estimated from the sketches of the two full neighbourhoods;
    each vertex sums those of its edges.

    {sketch_vertex_parameters}

    Returns
    -------
    ArrayEstimate
        One estimate per vertex (length n); the intervals are clipped to [0, d(d - 1)/2].

    Examples
    --------
    >>> import networkx as nx
    >>> triangles(nx.complete_graph(4), method="kmv", sketch_k=8, seed=0).estimate
    array([3., 3., 3., 3.])
    """
    kw = _split_kw(budget, bits, hashes, sketch_k, estimator, seed, clamp, confidence, threads)
    if method == "exact" or device != "cpu":
        return _elsewhere("triangles", G, method, device, **_forwarded(method, kw))
    G, tri, tvar, _, _, _, meta, conf = _per_vertex(G, method, "triangles per vertex", kw)
    d = G.degree.astype(np.float64)
    return make_array_estimate(tri, tvar, confidence=conf, hi=d * (d - 1) / 2, **meta)


def _local_from(G, e, est, var):
    d = G.degree.astype(np.float64)
    pairs = d * (d - 1)
    w = np.zeros_like(d)
    np.divide(1.0, pairs, out=w, where=pairs > 0)
    n = G.n_nodes
    c = _vertex_sums(n, e, est) * w
    cvar = _vertex_sums(n, e, np.sqrt(var)) * w
    return c, cvar, w


@fill_doc
def clustering(G, *, method="bloom", budget=None, bits=None, hashes=1, sketch_k=None, estimator=None,
               seed=None, clamp=True, confidence=0.95, threads=None, device="cpu"):
    """Estimated local clustering coefficient of every vertex (0 for degree < 2).

    From the estimated triangles of :func:`triangles`: :math:`\\hat c_v = 2 \\hat T(v) / (d_v (d_v - 1))`,
    its standard error scaled alike.

    {sketch_vertex_parameters}

    Returns
    -------
    ArrayEstimate
        Values and intervals clipped to [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> clustering(nx.complete_graph(5), method="onehash", sketch_k=8, seed=0).estimate
    array([1., 1., 1., 1., 1.])
    """
    kw = _split_kw(budget, bits, hashes, sketch_k, estimator, seed, clamp, confidence, threads)
    if method == "exact" or device != "cpu":
        return _elsewhere("clustering", G, method, device, **_forwarded(method, kw))
    G, _, _, e, est, var, meta, conf = _per_vertex(G, method, "local clustering", kw)
    c, cvar, _ = _local_from(G, e, est, var)
    meta["quantity"] = "local clustering"
    return make_array_estimate(np.clip(c, 0.0, 1.0), cvar, confidence=conf, hi=1.0, **meta)


@fill_doc
def average_clustering(G, *, count_zeros=True, method="bloom", budget=None, bits=None, hashes=1,
                       sketch_k=None, estimator=None, seed=None, clamp=True, confidence=0.95,
                       threads=None, device="cpu"):
    """Estimated mean local clustering coefficient.

    The mean is a linear function of the per-edge estimates t_uv,
    (1/N) sum_uv t_uv (w_u + w_v) with w_v = 1 / (d_v (d_v - 1)); its standard error is bounded
    by (1/N) sum_uv sd(t_uv) (w_u + w_v). With ``count_zeros=False`` the mean runs over the
    vertices whose estimated coefficient is positive.

    {Parameters: G, count_zeros, sketch_method, sketch_budget, sketch_bits, sketch_hashes, sketch_k}
    {sketch_estimator, sketch_seed, sketch_clamp, sketch_confidence, threads, sketch_device}

    Returns
    -------
    Estimate
        The mean, in [0, 1], with its error bound.

    Examples
    --------
    >>> import networkx as nx
    >>> average_clustering(nx.complete_graph(6), method="kmv", sketch_k=8, seed=0).estimate
    1.0
    """
    kw = _split_kw(budget, bits, hashes, sketch_k, estimator, seed, clamp, confidence, threads)
    if method == "exact" or device != "cpu":
        return _elsewhere("average_clustering", G, method, device, count_zeros=count_zeros, **_forwarded(method, kw))
    G, _, _, e, est, var, meta, conf = _per_vertex(G, method, "average clustering", kw)
    c, _, w = _local_from(G, e, est, var)
    include = np.ones(G.n_nodes, bool) if count_zeros else c > 0
    N = int(include.sum())
    if N == 0:
        return make_estimate(0.0, 0.0, confidence=conf, hi=1.0, **meta)
    wi = np.where(include, w, 0.0)
    coef = wi[e[:, 0]] + wi[e[:, 1]]
    mean = float(np.clip(c[include], 0.0, 1.0).sum() / N)
    bound = float((np.sqrt(var) * coef).sum() / N)
    meta["error_model"] = "bound" if bound > 0 else "exact"
    return make_estimate(mean, bound, confidence=conf, hi=1.0, **meta)


@fill_doc
def transitivity(G, *, method="bloom", budget=None, bits=None, hashes=1, sketch_k=None,
                 estimator=None, seed=None, order="degree", clamp=None, confidence=0.95,
                 replicates=1, hub_bits=None, exact_threshold=None, threads=None, device="cpu"):
    """Estimated transitivity 3 T / (connected triples) from the oriented triangle estimate.

    .. math:: \\hat\\tau = \\frac{3 \\hat T}{\\sum_v \\binom{d_v}{2}}

    The error is the triangle estimate's, scaled.

    {Parameters: G, sketch_method, sketch_budget, sketch_bits, sketch_hashes, sketch_k, sketch_estimator, sketch_seed}
    order : {'degree', 'degeneracy'}, default 'degree'
        Orientation of the triangle estimate.
    {sketch_clamp, sketch_confidence, sketch_replicates, sketch_hub_bits, sketch_exact_threshold}
    {threads, sketch_device}

    Returns
    -------
    Estimate
        The transitivity, at most 1.

    Examples
    --------
    >>> import networkx as nx
    >>> transitivity(nx.complete_graph(6), method="onehash", sketch_k=8, seed=0).estimate
    1.0
    """
    if method == "exact":
        return _elsewhere("transitivity", G, method, device, threads=threads)
    t0 = time.perf_counter()
    G = as_graph(G)
    T = count_triangles(G, method=method, budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k,
                        estimator=estimator, seed=seed, order=order, clamp=clamp,
                        confidence=confidence, replicates=replicates, hub_bits=hub_bits,
                        exact_threshold=exact_threshold, threads=threads, device=device)
    d = G.degree.astype(np.float64)
    triples = float((d * (d - 1)).sum() / 2)
    scale = 3.0 / triples if triples else 0.0
    meta = dict(quantity="transitivity", method=T.method, estimator=T.estimator, budget=T.budget,
                params=T.params, sketch_bytes=T.sketch_bytes, saturated=T.saturated,
                seconds=time.perf_counter() - t0, error_model=T.error_model, replicates=T.replicates,
                estimated=T.estimated)
    value = min(T.estimate * scale, 1.0)
    dof = T.replicates - 1 if T.replicates > 1 else None
    return make_estimate(value, T.stderr * scale, confidence=confidence, hi=1.0, dof=dof, **meta)
