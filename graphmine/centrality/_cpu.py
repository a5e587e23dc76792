"""Vertex centralities of the CSR core: PageRank, average neighbour degree, core number.

.. math::

    x_v \\leftarrow \\alpha \\Big( \\sum_{u \\in N(v)} \\frac{x_u}{d_u}
        + \\frac{1}{n} \\sum_{d_u = 0} x_u \\Big) + \\frac{1 - \\alpha}{n}, \\qquad
    k_{nn}(v) = \\frac{1}{d_v} \\sum_{u \\in N(v)} d_u

PageRank's system is solved by conjugate gradients on its symmetric form (see
:func:`pagerank`). The neighbourhood sums run in a Numba kernel (pull form, parallel on large
graphs); the networkx backend (:mod:`graphmine.nx_backend`) answers ``networkx.pagerank``,
``networkx.average_neighbor_degree`` and ``networkx.core_number`` from these functions.
"""

import numpy as np

from . import _kernels as _ck
from .._runtime.docs import fill_doc
from .._runtime.interrupt import check as _check_interrupt, interruptible
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ConvergenceError, ParameterError
from ..core.graph import SERIAL_EDGES
from ..core.validation import as_graph
from ..core.registry import declare

__all__ = ["pagerank", "average_neighbor_degree", "core_number"]


def _neighbour_sums(G, share, nthreads):
    return _neighbour_sums_into(G, share, np.empty(G.n_nodes, np.float64), nthreads)


def _neighbour_sums_into(G, share, out, nthreads):
    """out[v] = the sum of ``share`` over the neighbours of v."""
    if nthreads == 1 or G.n_edges < SERIAL_EDGES:
        _ck._neighbour_sums_serial(G.indptr, G.indices, share, out)
    else:
        _ck._neighbour_sums(G.indptr, G.indices, share, out, nthreads)
    return out


@declare("PageRank", cpu=True)
@interruptible
@restores_threads
@fill_doc
def pagerank(G, alpha=0.85, *, tol=1e-10, max_iter=200, nstart=None, threads=None, solver="cg"):
    """PageRank of every vertex (float64 array summing to 1).

    A random surfer follows an edge with probability ``alpha`` and jumps to a uniformly random
    vertex otherwise; isolated vertices (no edge to follow) send their rank to every vertex
    alike, as in ``networkx.pagerank``. On an undirected graph PageRank solves a symmetric
    positive definite system, which conjugate gradients solve in far fewer steps than the power
    iteration (email-Enron: 43 neighbourhood sums against 142 for ``tol=1e-10``).

    {Parameters: G}
    alpha : float
        Damping factor, in [0, 1].
    tol : float
        The accuracy. 'cg': the result is within ``tol`` of the exact PageRank in L1 norm (the
        solve stops once the change a power iteration would make, divided by ``1 - alpha``,
        bounds the error below ``tol``). 'power': stop when an iteration changes the ranks by
        less than ``tol`` in L1 norm, networkx's rule (networkx stops at ``n * tol``), which
        bounds the error by ``tol * alpha / (1 - alpha)``.
    max_iter : int
        Most iterations; :class:`~graphmine.core.exceptions.ConvergenceError` beyond.
    nstart : array_like, optional
        Starting values (non-negative, normalised to sum 1; default uniform).
    {threads}
    solver : {'cg', 'power'}
        'cg': conjugate gradients on the symmetric form (the power iteration where
        ``alpha = 1``, whose system is singular); 'power': networkx's power iteration, step for
        step.

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
    if solver not in ("cg", "power"):
        raise ParameterError(f"solver must be 'cg' or 'power', got {solver!r}")
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
    if solver == "cg" and alpha < 1:
        x = _pagerank_cg(G, float(alpha), x, tol, max_iter, nthreads)
    else:
        x = _pagerank_power(G, float(alpha), x, tol, max_iter, nthreads)
    if x is None:
        raise ConvergenceError(f"pagerank did not converge to tol={tol:g} within max_iter={max_iter} iterations")
    return x / x.sum()


def _dot(a, b):
    # not np.dot: a BLAS call wakes OpenBLAS's thread pool, whose threads then spin and take a
    # core from the kernels (email-Enron: the solve took twice as long)
    return float(np.einsum("i,i->", a, b))


def _pagerank_cg(G, alpha, x, tol, max_iter, nthreads):
    """PageRank for alpha < 1 by conjugate gradients (None if ``max_iter`` iterations do not
    reach ``tol``).

    PageRank solves :math:`x = \\alpha A D^{-1} x + z` on the vertices with an edge, with
    :math:`z = (1 - \\alpha) / (n - \\alpha k)` for k isolated vertices (each of which has rank
    z: their rank goes to every vertex alike, as networkx's dangling rule). With
    :math:`x = D^{1/2} y` the system is symmetric, :math:`(I - \\alpha D^{-1/2} A D^{-1/2}) y =
    z D^{-1/2} 1`, and positive definite with eigenvalues in :math:`[1 - \\alpha, 1 + \\alpha]`,
    so conjugate gradients converge at a rate of at most :math:`(\\sqrt{\\kappa} - 1) /
    (\\sqrt{\\kappa} + 1)` per iteration, :math:`\\kappa = (1 + \\alpha) / (1 - \\alpha)`:
    0.56 for alpha = 0.85 against the power iteration's 0.85 (email-Enron, tol = 1e-10: 43
    iterations against 142, each one neighbourhood sum).

    The residual in x, :math:`D^{1/2} r`, is the change one power iteration would make to x;
    since :math:`\\|(I - \\alpha A D^{-1})^{-1}\\|_1 = 1 / (1 - \\alpha)`, its L1 norm over
    :math:`1 - \\alpha` bounds the error of x, and the solve stops once that bound is below
    ``tol`` (checked again on the residual computed afresh, which the recurrence's rounding
    could have drifted from).
    """
    n = G.n_nodes
    deg = G.degree.astype(np.float64)
    iso = deg == 0
    z = (1.0 - alpha) / (n - alpha * np.count_nonzero(iso))
    sq = np.sqrt(deg)
    s = np.zeros(n)
    np.divide(1.0, sq, out=s, where=~iso)
    alpha_s = alpha * s
    b = z * s
    y = s * x
    tmp = np.empty(n)

    def residual(y, out):  # out = b - (I - alpha S A S) y
        np.multiply(s, y, out=tmp)
        _neighbour_sums_into(G, tmp, out, nthreads)
        out *= alpha_s
        out += b
        out -= y
        return out

    def change(r):  # the L1 norm of D^(1/2) r: what a power iteration would change
        np.abs(r, out=tmp)
        return _dot(tmp, sq)

    stop = tol * (1.0 - alpha)  # the change below which the error is below tol
    r = residual(y, np.empty(n))
    p = r.copy()
    q = np.empty(n)
    rr = _dot(r, r)
    for _ in range(max_iter):
        _check_interrupt()
        if rr == 0.0:  # the start is the solution
            break
        np.multiply(s, p, out=tmp)
        _neighbour_sums_into(G, tmp, q, nthreads)  # q = (I - alpha S A S) p
        q *= alpha_s
        np.subtract(p, q, out=q)
        a = rr / _dot(p, q)
        y += a * p
        r -= a * q
        rr, rr_old = _dot(r, r), rr
        # sqrt(rr) bounds the change from below (every degree is at least 1): the L1 norm is
        # needed only once that bound is under the stopping point
        if rr < stop * stop and change(r) < stop:
            r = residual(y, r)
            if change(r) < stop:
                break
            p[:] = r  # the recurrence drifted: restart from the true residual
            rr = _dot(r, r)
            continue
        p *= rr / rr_old
        p += r
    else:
        return None
    x = sq * y
    x[iso] = z
    return x


def _pagerank_power(G, alpha, x, tol, max_iter, nthreads):
    """PageRank by power iteration (for alpha = 1, where the system above is singular); None if
    ``max_iter`` iterations do not reach ``tol``."""
    n = G.n_nodes
    deg = G.degree.astype(np.float64)
    dangling = deg == 0
    inv = np.zeros(n)
    inv[~dangling] = 1.0 / deg[~dangling]
    for _ in range(max_iter):
        _check_interrupt()
        nxt = alpha * (_neighbour_sums(G, x * inv, nthreads) + x[dangling].sum() / n) + (1.0 - alpha) / n
        err = np.abs(nxt - x).sum()
        x = nxt
        if err < tol:
            return x
    return None


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
