r"""Cliques of every size at once, per vertex and per edge, and higher-order clustering (exact, CPU).

One pivoting search over the degeneracy orientation (the succinct clique tree of Pivoter, Jain &
Seshadhri 2020; :mod:`graphmine.cliques._pivot_kernels`) counts the cliques of every size without listing
them, so it finishes on graphs where listing the k-cliques of one large k cannot.

Exactness: totals are Python integers computed from an int64 histogram of the tree's leaves, exact
whatever their size (dense graphs have more than 2^63 cliques of middle sizes). Per-vertex and
per-edge counts are summed in float64; they are returned as int64 when every count is below
2^53 (then exact) and as float64 otherwise (each a sum of exact binomials, rounded to 53 bits).

The k-clique clustering coefficient of a vertex (Yin, Benson & Leskovec, KDD 2018) is the
fraction of its (k-1)-wedges, a (k-1)-clique through v together with one more neighbour of v,
that close into a k-clique:

.. math::

    C_k(v) = \frac{(k - 1)\, K_k(v)}{(d_v - k + 2)\, K_{k-1}(v)},

with :math:`K_j(v)` the j-cliques through v; :math:`C_3` is the usual clustering coefficient.
"""

from math import comb

import numpy as np

from . import _cliquepoly_kernels as _cp
from . import _pivot_kernels as _pk
from .._primitives import small_work as _sw
from .._runtime.docs import fill_doc
from .._runtime.limits import check_allocation
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_int
from ..core.graph import SERIAL_EDGES, rank_space_arcs
from ..core.validation import as_graph
from .._runtime.interrupt import interruptible
from ..core.registry import call, declare

__all__ = ["count_all_cliques", "vertex_clique_counts", "edge_clique_counts", "clique_clustering",
           "EDGE_K_MAX"]

#: per-edge counts are computed up to this clique size
EDGE_K_MAX = 5
# float64 sums of integers are exact below this
_EXACT = 2.0 ** 53


def _size_limit(max_k, name="max_k", low=1):
    if max_k is None:
        return None
    return check_int(name, max_k, low)


def _binomials(top_n, top_r):
    """float64 table C(a, r) for a <= top_n, r <= top_r (Pascal's rule; exact below 2^53)."""
    B = np.zeros((top_n + 1, top_r + 1), np.float64)
    B[:, 0] = 1.0
    for a in range(1, top_n + 1):
        B[a, 1:] = B[a - 1, 1:] + B[a - 1, :-1]
    return B


def _run(G, K, want_vertex, want_edge, nthreads):
    """(oriented graph, leaf histogram, per-vertex sums, per-arc sums, K used)."""
    O = G.oriented("degeneracy", relabel=True, threads=nthreads)
    D = O.max_out_degree
    K = D + 1 if K is None else min(K, D + 1)
    Ke = min(K, EDGE_K_MAX)
    serial = nthreads == 1 or G.n_edges < SERIAL_EDGES
    copies = 1 if serial else nthreads + 1
    check_allocation(8 * copies * (G.n_nodes * (K + 1) * want_vertex + O.indices.shape[0] * (Ke + 1) * want_edge
                                   + (K + 1) * (D + 2)),
                     f"clique counts of sizes up to {K} on {copies} thread(s)",
                     "pass a smaller max_k or fewer threads")
    binom = _binomials(max(D, 1), K)
    if serial:
        hist, pv, pe = _pk._sct_serial(O.indptr, O.indices, D, K, Ke, binom, want_vertex, want_edge)
    else:
        hist, pv, pe = _pk._sct_parallel(O.indptr, O.indices, D, K, Ke, binom, want_vertex, want_edge, nthreads)
    return O, hist, pv, pe, K


_MOD = 1 << 64
# the float channel of the polynomial counts is proven within a factor 1 +- 2^-30 of the count, so
# it fixes the count from its residue mod 2^64 while the count is below 2^92
_POLY_EXACT = 2.0 ** 92


def _tables(D, top):
    """Closed forms as (mod 2^64, float64) tables of shape (D + 1, top + 1): the binomials
    C(z, j) ((1 + x)^z, z universal vertices) and the path polynomials, C(L - j + 1, j) sets of j
    pairwise adjacent vertices among L whose non-adjacencies form a path."""
    binu = np.zeros((D + 1, top + 1), np.uint64)
    binf = np.zeros((D + 1, top + 1), np.float64)
    pathu = np.zeros((D + 1, top + 1), np.uint64)
    pathf = np.zeros((D + 1, top + 1), np.float64)
    for a in range(D + 1):
        for j in range(min(a, top) + 1):
            c = comb(a, j)
            binu[a, j] = c % _MOD
            binf[a, j] = float(c)
            c = comb(a - j + 1, j)
            pathu[a, j] = c % _MOD
            pathf[a, j] = float(c)
    return binu, binf, pathu, pathf


def _poly_totals(G, K, nthreads):
    """Exact counts[k], k = 0..K, by clique polynomials (:mod:`graphmine.cliques._cliquepoly_kernels`), or
    None where a count is too large for the residue and the float to fix it."""
    O = G.oriented("degeneracy", relabel=True, threads=nthreads)
    D = O.max_out_degree
    K = D + 1 if K is None else min(K, D + 1)
    copies = nthreads + 1
    check_allocation(copies * (16 * (2 * D + 6) * K + 48 * D * ((D + 63) // 64 + 2)),
                     f"clique polynomials of degree up to {K} on {nthreads} thread(s)",
                     "pass a smaller max_k or fewer threads")
    binu, binf, pathu, pathf = _tables(max(D, 1), K - 1)
    if _sw.serial_first(_cp._poly_counts, O.indices.shape[0]):
        totu, totf = _cp._poly_counts_serial(O.indptr, O.indices, D, K, binu, binf, pathu, pathf)
    else:
        totu, totf = _cp._poly_counts(O.indptr, O.indices, D, K, binu, binf, pathu, pathf, nthreads)
    counts = [1]
    for k in range(1, K + 1):
        f = float(totf[k])
        if not f < _POLY_EXACT:
            return None
        r = int(totu[k])
        counts.append(r + _MOD * ((int(f) - r + _MOD // 2) // _MOD))
    return counts


def _totals(hist, K):
    """Exact counts[k], k = 0..K, from the leaf histogram (Python integers)."""
    counts = [0] * (K + 1)
    for h, q in zip(*np.nonzero(hist)):
        h, q = int(h), int(q)
        leaves = int(hist[h, q])
        for k in range(h, min(K, h + q) + 1):
            counts[k] += leaves * comb(q, k - h)
    counts[0] = 1
    return counts


def _as_counts(x):
    """int64 when exact (every value below 2^53), else the float64 sums."""
    if x.size == 0 or float(x.max()) < _EXACT:
        return np.rint(x).astype(np.int64)
    return x


@declare("k-clique counts of every k at once", cpu=True)
@interruptible
@restores_threads
@fill_doc
def count_all_cliques(G, *, max_k=None, threads=None):
    """The number of k-cliques of ``G`` for every k up to the clique number (exact, CPU).

    {Parameters: G}
    max_k : int, optional
        Count sizes up to ``max_k`` only (faster: larger held sets are cut).
    {threads}

    Returns
    -------
    list of int
        ``counts[k]`` is the number of k-cliques, for k = 0 .. the clique number (or ``max_k``
        if smaller): ``counts[0] = 1`` (the empty clique), ``counts[1] = n``,
        ``counts[2] = m``, ``counts[3]`` the triangles. Python integers, exact at any size;
        ``len(counts) - 1`` is the clique number when ``max_k`` does not cut it.

    Examples
    --------
    >>> import networkx as nx
    >>> count_all_cliques(nx.complete_graph(5))
    [1, 5, 10, 10, 5, 1]
    """
    K = _size_limit(max_k)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if G.n_nodes == 0:
        return [1]
    counts = _poly_totals(G, K, nthreads)
    if counts is None:
        _, hist, _, _, K = _run(G, K, False, False, nthreads)
        counts = _totals(hist, K)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return counts


@declare("k-cliques through every vertex", cpu=True)
@interruptible
@restores_threads
@fill_doc
def vertex_clique_counts(G, k=None, *, max_k=None, threads=None, device="cpu"):
    """The k-cliques through every vertex (the k-clique degree), for one k or for every k.

    {Parameters: G}
    k : int, optional
        A clique size >= 1: return the counts of this size only (1-D, length n).
    max_k : int, optional
        Without ``k``: sizes 0..max_k (default: up to the clique number).
    {threads}
    device : {'cpu', 'cuda', 'auto'}, default 'cpu'
        'cuda' (or 'auto' with a GPU and a large enough graph) counts one size
        3 <= k <= ``graphmine.cuda.MAX_K`` on the GPU (:func:`graphmine.cuda.clique_counts`).

    Returns
    -------
    ndarray
        ``(n,)`` with ``k``, else ``(n, K + 1)`` whose column j counts the j-cliques through each
        vertex (column 0 is zero, column 1 one, column 2 the degree). int64 when every count is
        below 2^53 (exact), float64 otherwise.

    Examples
    --------
    >>> import networkx as nx
    >>> vertex_clique_counts(nx.complete_graph(5), 3).tolist()  # C(4, 2)
    [6, 6, 6, 6, 6]
    """
    if device != "cpu":  # the registry picks the GPU (or comes back here with device='cpu')
        if max_k is not None:
            raise ParameterError(f"max_k applies to device='cpu'; device={device!r} counts one size k")
        return call("vertex_clique_counts", G, k=k, device=device, threads=threads)
    k = _size_limit(k, "k")
    K = k if k is not None else _size_limit(max_k)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    n = G.n_nodes
    if n == 0:
        return np.zeros(0 if k is not None else (0, (K or 0) + 1), np.int64)
    O, _, pv, _, Kused = _run(G, K, True, False, nthreads)
    if k is not None:
        col = pv[:, k] if k <= Kused else np.zeros(n)
        return _as_counts(col[O.rank])
    out = pv[O.rank]
    if max_k is None:
        nz = np.flatnonzero(out.any(axis=0))
        out = out[:, :nz[-1] + 1] if nz.size else out[:, :1]
    elif Kused < K:
        out = np.hstack([out, np.zeros((n, K - Kused))])
    return _as_counts(out)


@declare("k-cliques through every edge", cpu=True)
@interruptible
@restores_threads
@fill_doc
def edge_clique_counts(G, k=None, *, threads=None):
    """The k-cliques through every edge, for one k <= 5 or for k = 2..5.

    {Parameters: G}
    k : int, optional
        A clique size 2..5 (default: all of them).
    {threads}

    Returns
    -------
    edges : ndarray of shape (m, 2)
        The edges ``u < v``, sorted (``G.edges()``).
    counts : ndarray
        ``(m,)`` with ``k``, else ``(m, 6)`` whose column j counts the j-cliques through each
        edge (columns 0 and 1 zero, column 2 one, column 3 the triangles). int64 when every count
        is below 2^53, else float64.

    Examples
    --------
    >>> import networkx as nx
    >>> edges, c = edge_clique_counts(nx.complete_graph(5), 4)
    >>> c.tolist()  # C(3, 2) for every edge
    [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]
    """
    if k is not None:
        k = _size_limit(k, "k", 2)
        if k > EDGE_K_MAX:
            raise ParameterError(f"per-edge counts go up to k = {EDGE_K_MAX}, got k={k}")
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    edges = G.edges()
    m = edges.shape[0]
    if m == 0:
        return edges, np.zeros(0 if k is not None else (0, EDGE_K_MAX + 1), np.int64)
    O, _, _, pe, K = _run(G, k if k is not None else EDGE_K_MAX, False, True, nthreads)
    # arcs of the rank-space orientation -> the sorted edge list of G
    src, dst = rank_space_arcs(O.indptr, O.indices, O.rank)
    lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    where = np.searchsorted(edges[:, 0] * G.n_nodes + edges[:, 1], lo * G.n_nodes + hi)
    out = np.zeros((m, EDGE_K_MAX + 1), np.float64)
    out[where, :pe.shape[1]] = pe
    if k is not None:
        return edges, _as_counts(out[:, k])
    return edges, _as_counts(out)


@interruptible
@restores_threads
@fill_doc
def clique_clustering(G, k=3, *, threads=None):
    r"""The k-clique clustering coefficient of every vertex (Yin, Benson & Leskovec 2018).

    .. math::

        C_k(v) = \frac{(k - 1)\, K_k(v)}{(d_v - k + 2)\, K_{k-1}(v)}

    the fraction of the (k-1)-wedges at v (a (k-1)-clique through v plus one more neighbour of
    v) that close into k-cliques; 0 where v has no (k-1)-wedge. ``k = 3`` is the usual local
    clustering coefficient.

    {Parameters: G}
    k : int
        Clique size >= 3.
    {threads}

    Returns
    -------
    ndarray of float64, length n
        The coefficient of every vertex, in [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> clique_clustering(nx.complete_graph(5), 4).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    k = _size_limit(k, "k", 3)
    G = as_graph(G)
    counts = vertex_clique_counts(G, max_k=k, threads=threads).astype(np.float64)
    d = G.degree.astype(np.float64)
    wedges = (d - k + 2) * counts[:, k - 1]
    out = np.zeros(G.n_nodes, np.float64)
    pos = wedges > 0
    out[pos] = (k - 1) * counts[pos, k] / wedges[pos]
    return out
