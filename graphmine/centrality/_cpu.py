"""Vertex centralities of the CSR core: PageRank, average neighbour degree, core number.

.. math::

    x_v \\leftarrow \\alpha \\Big( \\sum_{u \\in N(v)} \\frac{x_u}{d_u}
        + \\frac{1}{n} \\sum_{d_u = 0} x_u \\Big) + \\frac{1 - \\alpha}{n}, \\qquad
    k_{nn}(v) = \\frac{1}{d_v} \\sum_{u \\in N(v)} d_u

The neighbourhood sums run in a Numba kernel (pull form, parallel on large graphs); the
networkx backend (:mod:`graphmine.nx_backend`) answers ``networkx.pagerank``,
``networkx.average_neighbor_degree`` and ``networkx.core_number`` from these functions.
"""

import numpy as np

from . import _kernels as _ck
from .._runtime.docs import fill_doc
from .._runtime.interrupt import interruptible
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ConvergenceError, ParameterError
from ..core.graph import SERIAL_EDGES
from ..core.validation import as_graph
from ..core.registry import declare

__all__ = ["pagerank", "average_neighbor_degree", "core_number"]


def _neighbour_sums(G, share, nthreads):
    out = np.empty(G.n_nodes, np.float64)
    if nthreads == 1 or G.n_edges < SERIAL_EDGES:
        _ck._neighbour_sums_serial(G.indptr, G.indices, share, out)
    else:
        _ck._neighbour_sums(G.indptr, G.indices, share, out, nthreads)
    return out


@declare("PageRank", cpu=True)
@interruptible
@restores_threads
@fill_doc
def pagerank(G, alpha=0.85, *, tol=1e-10, max_iter=200, nstart=None, threads=None):
    """PageRank of every vertex by power iteration (float64 array summing to 1).

    A random surfer follows an edge with probability ``alpha`` and jumps to a uniformly random
    vertex otherwise; isolated vertices (no edge to follow) send their rank to every vertex
    alike, as in ``networkx.pagerank``.

    {Parameters: G}
    alpha : float
        Damping factor, in [0, 1].
    tol : float
        Stop when the L1 norm of an iteration's change is below ``tol`` (networkx stops at
        ``n * tol``).
    max_iter : int
        Most iterations; :class:`~graphmine.core.exceptions.ConvergenceError` beyond.
    nstart : array_like, optional
        Starting values (non-negative, normalised to sum 1; default uniform).
    {threads}

    Returns
    -------
    ndarray of float64
        The rank of every vertex; the values sum to 1.

    Examples
    --------
    >>> import networkx as nx
    >>> pr = pagerank(nx.star_graph(3))
    >>> round(float(pr[0]), 4), round(float(pr.sum()), 6)
    (0.4797, 1.0)
    """
    G = as_graph(G)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating, np.integer)) \
            or not 0 <= alpha <= 1:
        raise ParameterError(f"alpha must be a number in [0, 1], got {alpha!r}")
    if not tol > 0:
        raise ParameterError(f"tol must be positive, got {tol!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 0:
        raise ParameterError(f"max_iter must be a non-negative integer, got {max_iter!r}")
    n = G.n_nodes
    if n == 0:
        return np.empty(0, np.float64)
    if nstart is None:
        x = np.full(n, 1.0 / n)
    else:
        x = np.array(nstart, dtype=np.float64)
        if x.shape != (n,) or not np.all(np.isfinite(x)) or np.any(x < 0) or x.sum() <= 0:
            raise ParameterError(f"nstart must hold {n} non-negative finite values, not all 0")
        x /= x.sum()
    nthreads = resolve_threads(threads)
    deg = G.degree.astype(np.float64)
    dangling = deg == 0
    inv = np.zeros(n)
    inv[~dangling] = 1.0 / deg[~dangling]
    for _ in range(max_iter):
        nxt = alpha * (_neighbour_sums(G, x * inv, nthreads) + x[dangling].sum() / n) + (1.0 - alpha) / n
        err = np.abs(nxt - x).sum()
        x = nxt
        if err < tol:
            return x / x.sum()
    raise ConvergenceError(f"pagerank did not converge to tol={tol:g} within max_iter={max_iter} iterations")


@declare("mean degree of the neighbours", cpu=True)
@interruptible
@restores_threads
@fill_doc
def average_neighbor_degree(G, *, threads=None):
    """Mean degree of each vertex's neighbours (0 for isolated vertices), as networkx defines it.

    The sums of degrees are exact (integers below 2**53), so each value is the correctly rounded
    quotient, as networkx's.

    {Parameters: G, threads}

    Returns
    -------
    ndarray of float64
        ``sum(d[u] for u in N(v)) / d[v]`` for every vertex v.

    Examples
    --------
    >>> import networkx as nx
    >>> average_neighbor_degree(nx.path_graph(4))
    array([2. , 1.5, 1.5, 2. ])
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    deg = G.degree.astype(np.float64)
    s = _neighbour_sums(G, deg, nthreads)
    out = np.zeros(G.n_nodes)
    nz = deg > 0
    out[nz] = s[nz] / deg[nz]
    return out


@declare("k-core number of every vertex", cpu=True)
@fill_doc
def core_number(G):
    """The core number of every vertex (int64 array), as ``networkx.core_number``: the largest k
    such that the vertex belongs to a subgraph of minimum degree k (bucket peeling).

    {Parameters: G}

    Returns
    -------
    ndarray of int64
        The core number of every vertex (0 for isolated vertices).

    Examples
    --------
    >>> import networkx as nx
    >>> core_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    array([2, 2, 2, 1])
    """
    return as_graph(G).core_number()
