"""Vertex similarity of neighbourhoods and Jarvis-Patrick clustering, exact or from sketches.

.. math::

    \\mathrm{jaccard}(u, v) = \\frac{|N(u) \\cap N(v)|}{|N(u) \\cup N(v)|}, \\quad
    \\mathrm{overlap}(u, v) = \\frac{|N(u) \\cap N(v)|}{\\min(d_u, d_v)}, \\quad
    \\mathrm{common}(u, v) = |N(u) \\cap N(v)|.

Jarvis-Patrick keeps every edge whose similarity exceeds ``tau`` and returns the connected
components of the kept edges as clusters.
"""

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .._runtime.docs import fill_doc
from .._runtime.interrupt import interruptible
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_choice
from ..core.graph import vertex_pairs
from ..core.validation import as_graph
from . import _approx_kernels as _ak
from .counting import _check_confidence, _meta, edge_intersections, warn_saturation
from .results import ArrayEstimate, make_array_estimate
from ..core.registry import check_method

__all__ = ["MEASURES", "similarity", "jarvis_patrick", "JarvisPatrickResult"]

# the similarity measures of neighbourhoods: |A ∩ B| / |A ∪ B|, |A ∩ B| / min(|A|, |B|), |A ∩ B|
MEASURES = ("jaccard", "overlap", "common")


def _check_measure(measure):
    return check_choice("measure", measure, MEASURES)


def _from_intersections(measure, inter, du, dv):
    """(values, derivative d value / d intersection) of the measure."""
    du = du.astype(np.float64)
    dv = dv.astype(np.float64)
    if measure == "common":
        return inter.astype(np.float64), np.ones_like(du)
    if measure == "overlap":
        m = np.minimum(du, dv)
        val = np.divide(inter, m, out=np.zeros_like(du), where=m > 0)
        return val, np.divide(1.0, m, out=np.zeros_like(du), where=m > 0)
    s = du + dv
    union = s - inter
    val = np.divide(inter, union, out=np.zeros_like(du), where=union > 0)
    grad = np.divide(s, union * union, out=np.zeros_like(du), where=union > 0)
    return val, grad


@interruptible
@fill_doc
@restores_threads
def similarity(G, pairs=None, *, measure="jaccard", method="exact", budget=None, bits=None, hashes=1,
               sketch_k=None, estimator=None, seed=None, clamp=True, confidence=0.95, threads=None):
    """Neighbourhood similarity of vertex pairs (default: every edge, in ``G.edges()`` order).

    {Parameters: G}
    pairs : array_like of shape (p, 2), optional
        Vertex pairs (vertex numbers 0..n-1); default all edges u < v.
    {similarity_options}

    Returns
    -------
    ndarray of float64 (exact) or ArrayEstimate (standard errors by the delta method)

    Examples
    --------
    >>> import networkx as nx
    >>> similarity(nx.path_graph(4), [(0, 2), (1, 3)])
    array([1., 1.])
    >>> similarity(nx.complete_graph(4), [(0, 1)], measure="common", method="onehash", sketch_k=8).estimate
    array([2.])
    """
    t0 = time.perf_counter()
    G = as_graph(G)
    measure = _check_measure(measure)
    check_method(method)
    p = None if pairs is None else vertex_pairs(pairs, G.n_nodes, name="pairs")
    if method == "exact":
        nthreads = resolve_threads(threads)
        e = G.edges() if p is None else p
        inter = _ak._pairs_exact(G.indptr, G.indices, np.ascontiguousarray(e[:, 0]),
                                 np.ascontiguousarray(e[:, 1]), nthreads)
        return _from_intersections(measure, inter, G.degree[e[:, 0]], G.degree[e[:, 1]])[0]
    confidence = _check_confidence(confidence)
    e, est, var, sat, S, estimator = edge_intersections(
        G, method, budget=budget, bits=bits, hashes=hashes, sketch_k=sketch_k, estimator=estimator,
        seed=seed, clamp=clamp, threads=threads, pairs=None if p is None else p)
    nsat = int(sat.sum())
    warn_saturation(nsat, est.shape[0], f"{measure} similarity")
    du, dv = G.degree[e[:, 0]], G.degree[e[:, 1]]
    val, grad = _from_intersections(measure, est, du, dv)
    hi = np.minimum(du, dv).astype(np.float64) if measure == "common" else 1.0
    val = np.clip(val, 0.0, hi)
    return make_array_estimate(val, np.sqrt(var) * grad, confidence=confidence, hi=hi,
                               error_model="pairwise",
                               **_meta(S, estimator, f"{measure} similarity", nsat, est.shape[0], t0))


@dataclass(frozen=True, eq=False)
class JarvisPatrickResult:
    """Clusters of a Jarvis-Patrick clustering.

    Attributes
    ----------
    labels : ndarray of int64
        Cluster of every vertex, numbered 0.. in order of each cluster's smallest vertex.
    n_clusters : int
        Number of clusters.
    edges : ndarray, shape (m, 2)
        The edges of the graph (``G.edges()``), and ``kept`` marks those kept.
    kept : ndarray of bool
        Edges whose similarity exceeds ``tau``.
    similarity : ndarray or ArrayEstimate
        Similarity of every edge.
    measure : str
        One of :data:`MEASURES`.
    tau : float
        The threshold.
    method : str
        'exact' or the sketch method.
    uncertain : float or None
        Approximate methods: fraction of edges whose confidence interval contains ``tau`` (their
        keep/drop decision is not settled at the stated confidence). None for 'exact'.
    sketch : dict or None
        budget, params, sketch_bytes, saturated of the sketch used.
    seconds : float
        Wall time.

    Examples
    --------
    >>> import networkx as nx
    >>> r = jarvis_patrick(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 0, measure="common")
    >>> r.n_clusters, r.kept.tolist()
    (2, [True, True, True, False])
    """

    labels: np.ndarray
    n_clusters: int
    edges: np.ndarray
    kept: np.ndarray
    similarity: object
    measure: str
    tau: float
    method: str
    uncertain: object = None
    sketch: dict = field(default=None)
    seconds: float = 0.0

    def __repr__(self):
        return (f"JarvisPatrickResult(n_clusters={self.n_clusters}, kept={int(self.kept.sum())}/"
                f"{self.kept.shape[0]} edges, measure={self.measure!r}, tau={self.tau:g}, "
                f"method={self.method!r})")


def _components(n, edges, kept):
    e = edges[kept]
    A = sp.csr_array((np.ones(e.shape[0], np.int8), (e[:, 0], e[:, 1])), shape=(n, n))
    k, labels = connected_components(A, directed=False)
    # number clusters by their smallest vertex
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    relabel = np.empty(k, np.int64)
    relabel[order] = np.arange(k)
    return int(k), relabel[labels]


@fill_doc
def jarvis_patrick(G, tau, *, measure="jaccard", method="exact", budget=None, bits=None, hashes=1,
                   sketch_k=None, estimator=None, seed=None, clamp=True, confidence=0.95, threads=None):
    """Jarvis-Patrick clustering: connected components of the edges with similarity > ``tau``.

    {Parameters: G}
    tau : float
        Threshold (a fraction for 'jaccard'/'overlap', a count for 'common').
    {similarity_options}

    Returns
    -------
    JarvisPatrickResult

    Examples
    --------
    >>> import networkx as nx
    >>> two_triangles = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3)])
    >>> jarvis_patrick(two_triangles, 0, measure="common").labels
    array([0, 0, 0, 1, 1, 1])
    """
    t0 = time.perf_counter()
    G = as_graph(G)
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.integer, np.floating)) or not np.isfinite(tau):
        raise ParameterError(f"tau must be a finite number, got {tau!r}")
    if measure in ("jaccard", "overlap") and not 0 <= tau < 1:
        raise ParameterError(f"tau must lie in [0, 1) for measure={measure!r} (similarities lie in [0, 1] "
                             f"and an edge is kept when similarity > tau), got {tau!r}")
    if measure == "common" and tau < 0:
        raise ParameterError(f"tau must be >= 0 for measure='common' (a count of common neighbours), got {tau!r}")
    sim = similarity(G, None, measure=measure, method=method, budget=budget, bits=bits, hashes=hashes,
                     sketch_k=sketch_k, estimator=estimator, seed=seed, clamp=clamp,
                     confidence=confidence, threads=threads)
    values = np.asarray(sim)
    kept = values > tau
    edges = G.edges()
    k, labels = _components(G.n_nodes, edges, kept)
    uncertain, sketch = None, None
    if isinstance(sim, ArrayEstimate):
        uncertain = float(np.mean((sim.ci_low <= tau) & (tau < sim.ci_high))) if len(sim) else 0.0
        sketch = dict(budget=sim.budget, params=sim.params, sketch_bytes=sim.sketch_bytes,
                      saturated=sim.saturated, estimator=sim.estimator)
    return JarvisPatrickResult(labels, k, edges, kept, sim, measure, float(tau), method, uncertain,
                               sketch, time.perf_counter() - t0)
