r"""k-clique cores and k-clique densest subgraphs (exact, CPU).

The k-clique core number of a vertex is the largest c such that it belongs to a subgraph in which
every vertex lies on at least c k-cliques of that subgraph (k = 2: the usual core number). The
k-clique density of a vertex set S is

.. math::

    \rho_k(S) = \frac{|\{k\text{-cliques inside } S\}|}{|S|},

and the k-clique densest subgraph maximises it (Tsourakakis, WWW 2015). Both come from peeling
(:mod:`graphmine.cliques._peel_kernels`): removing the vertex on the fewest remaining k-cliques gives the
core numbers, and the densest suffix of that order is within a factor k of the optimum. Repeated
peeling with loads (Greedy++; Boob et al. 2020, Chekuri, Quanrud & Torres 2022) converges to the
optimum, and its average assignment of cliques to vertices is a certificate: no set is denser than
the largest average load, so the loop stops once the best set found is within (1 + eps) of it.
For small graphs the exact optimum comes from Goldberg's max-flow construction extended to
cliques, improved until no denser set exists (Dinkelbach's iteration).
"""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _peel_kernels as _pk
from .._runtime.docs import fill_doc
from .census import vertex_clique_counts
from ..core.exceptions import ParameterError, ResourceLimitError, check_int
from .enumeration import list_cliques
from ..core.validation import as_graph
from .._runtime.interrupt import interruptible
from ..core.registry import declare

__all__ = ["clique_core_number", "densest_clique_subgraph", "DensestSubgraph", "EXACT_MAX_CLIQUES"]

#: method='auto' solves exactly (max-flow) up to this many k-cliques
EXACT_MAX_CLIQUES = 200_000


@dataclass
class DensestSubgraph:
    """A k-clique densest subgraph (or the best found).

    Attributes
    ----------
    vertices : ndarray of int64
        The vertex set S, sorted.
    cliques : int
        k-cliques inside S.
    density : float
        cliques / |S|.
    upper_bound : float
        No vertex set of the graph is denser (equal to ``density`` when exact).
    exact : bool
        Whether S is proven optimal.
    iterations : int
        Peeling passes (approximation) or max-flow problems solved (exact).

    Examples
    --------
    >>> import networkx as nx
    >>> densest_clique_subgraph(nx.complete_graph(5), 3)
    DensestSubgraph(vertices=array([0, 1, 2, 3, 4]), cliques=10, density=2.0, upper_bound=2.0, exact=True, iterations=1)
    """

    vertices: np.ndarray
    cliques: int
    density: float
    upper_bound: float
    exact: bool
    iterations: int


def _clique_degrees(G, k, threads):
    cur = vertex_clique_counts(G, k, threads=threads)
    if cur.dtype != np.int64:
        raise ResourceLimitError(f"peeling lists every {k}-clique, and this graph has more than 2^53 "
                                 f"{k}-cliques through one vertex")
    return cur


@declare("k-clique core numbers", cpu=True)
@interruptible
@fill_doc
def clique_core_number(G, k=3, *, threads=None):
    """The k-clique core number of every vertex (int64 array; k = 2 gives the core number).

    {Parameters: G}
    k : int
        Clique size >= 2.
    threads : int, optional
        Threads for the initial per-vertex counts (the peeling is serial).

    Returns
    -------
    ndarray of int64 of shape (n,)
        Entry v is the largest c such that v lies in a subgraph where every vertex is in at
        least c of the subgraph's k-cliques.

    {Raises: clique_k_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> clique_core_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3).tolist()
    [1, 1, 1, 0]
    """
    k = check_int("k", k, 2)
    G = as_graph(G)
    n = G.n_nodes
    if n == 0:
        return np.zeros(0, np.int64)
    cur = _clique_degrees(G, k, threads)
    order, gone = _pk._clique_peel(G.indptr, G.indices, k, cur, np.zeros(n, np.int64))
    core = np.empty(n, np.int64)
    core[order] = np.maximum.accumulate(gone)
    return core


def _best_suffix(order, gone, total):
    """(start, cliques, size) of the densest suffix order[start:] of a peeling order."""
    n = order.shape[0]
    left = total - np.concatenate([[0], np.cumsum(gone[:-1])])
    size = n - np.arange(n)
    i = int(np.argmax(left / size))
    return i, int(left[i]), int(size[i])


@declare("k-clique densest subgraph", cpu=True)
@interruptible
@fill_doc
def densest_clique_subgraph(G, k=3, *, method="auto", eps=0.01, max_iter=100, threads=None):
    """The k-clique densest subgraph: the vertex set S maximising k-cliques(S) / |S|.

    {Parameters: G}
    k : int
        Clique size >= 2 (k = 2: the densest subgraph by edges per vertex).
    method : {'auto', 'exact', 'approx'}
        'exact': max-flow (graphs with few k-cliques; scipy); 'approx': peeling with loads until
        the set found is certified within a factor (1 + eps) of the optimum or ``max_iter``
        passes ran; 'auto': exact up to :data:`EXACT_MAX_CLIQUES` k-cliques.
    eps : float
        Target relative gap of 'approx' (> 0).
    max_iter : int
        Most peeling passes of 'approx'.
    threads : int, optional
        Threads for the per-vertex clique counts.

    Returns
    -------
    DensestSubgraph
        With ``density`` and ``upper_bound``: ``density * (1 + eps) >= upper_bound`` unless
        ``max_iter`` passes were not enough.

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.complete_graph(5)
    >>> H.add_edges_from([(4, 5), (5, 6)])
    >>> r = densest_clique_subgraph(H, 3)
    >>> r.vertices.tolist(), r.cliques, r.density
    ([0, 1, 2, 3, 4], 10, 2.0)
    """
    k = check_int("k", k, 2)
    if method not in ("auto", "exact", "approx"):
        raise ParameterError(f"method must be 'auto', 'exact' or 'approx', got {method!r}")
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not eps > 0:
        raise ParameterError(f"eps must be a number > 0, got {eps!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ParameterError(f"max_iter must be a positive integer, got {max_iter!r}")
    G = as_graph(G)
    n = G.n_nodes
    if n == 0:
        return DensestSubgraph(np.zeros(0, np.int64), 0, 0.0, 0.0, True, 0)
    cur = _clique_degrees(G, k, threads)
    total = int(cur.sum()) // k
    if total == 0:
        return DensestSubgraph(np.arange(n, dtype=np.int64), 0, 0.0, 0.0, True, 0)
    if method == "exact" or (method == "auto" and total <= EXACT_MAX_CLIQUES):
        return _exact(G, k, cur, total)
    return _greedy_pp(G, k, cur, total, float(eps), int(max_iter))


def _greedy_pp(G, k, cur, total, eps, max_iter):
    n = G.n_nodes
    load = np.zeros(n, np.int64)
    best = None
    upper = float("inf")
    for it in range(1, max_iter + 1):
        order, gone = _pk._clique_peel(G.indptr, G.indices, k, cur, load)
        i, c, s = _best_suffix(order, gone, total)
        if best is None or c * best[2] > best[1] * s:
            best = (np.sort(order[i:]), c, s)
        if it == 1:
            # plain peeling: the densest subgraph lies inside the core of its own density
            upper = float(gone.max())
        load[order] += gone
        upper = min(upper, float(load.max()) / it)
        if best[1] / best[2] * (1 + eps) >= upper:
            break
    density = best[1] / best[2]
    return DensestSubgraph(best[0], best[1], density, max(upper, density), False, it)


def _exact(G, k, cur, total):
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order, maximum_flow

    n = G.n_nodes
    cl = np.concatenate(list(list_cliques(G, k)))
    C = cl.shape[0]
    # start from the densest suffix of one peeling: few max-flow problems remain
    order, gone = _pk._clique_peel(G.indptr, G.indices, k, cur, np.zeros(n, np.int64))
    i, c, s = _best_suffix(order, gone, total)
    S = np.sort(order[i:])
    dens = Fraction(c, s)
    if C * (n + 1) >= 2**31:
        raise ResourceLimitError(f"exact densest subgraph: {C:,} {k}-cliques on {n:,} vertices overflow the "
                                 "max-flow capacities; use method='approx'")
    src, tgt = 0, C + n + 1
    rows_c = np.arange(1, C + 1)
    iterations = 0
    while True:
        iterations += 1
        a, b = dens.numerator, dens.denominator
        # s -> clique (b), clique -> its vertices (b: a clique never passes more), vertex -> t (a)
        r = np.concatenate([np.zeros(C, np.int64), np.repeat(rows_c, k), C + 1 + np.arange(n)])
        t = np.concatenate([rows_c, C + 1 + cl.reshape(-1), np.full(n, tgt)])
        cap = np.concatenate([np.full(C, b), np.full(C * k, b), np.full(n, a)]).astype(np.int32)
        A = sp.csr_array((cap, (r, t)), shape=(tgt + 1, tgt + 1))
        res = maximum_flow(A, src, tgt)
        if int(res.flow_value) >= C * b:
            break
        flow = res.flow
        residual = (A - flow).tocsr()
        residual.data[residual.data < 0] = 0
        residual.eliminate_zeros()
        reach = breadth_first_order(residual, src, directed=True, return_predecessors=False)
        T = np.sort(reach[reach > C] - C - 1)
        T = T[T < n]
        inside = np.isin(cl, T).all(axis=1).sum()
        new = Fraction(int(inside), int(T.shape[0])) if T.shape[0] else Fraction(0)
        if new <= dens:
            break
        S, dens = T, new
    c = int(np.isin(cl, S).all(axis=1).sum())
    return DensestSubgraph(S.astype(np.int64), c, c / S.shape[0], c / S.shape[0], True, iterations)
