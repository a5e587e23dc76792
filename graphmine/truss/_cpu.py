"""k-trusses and the truss decomposition (exact, CPU).

The k-truss of a graph (Cohen 2005) is its largest subgraph in which every edge lies on at least
k - 2 triangles of the subgraph, without isolated vertices; the truss number of an edge is the
largest k whose k-truss contains it. Both come from one peeling of the edges by support
(:mod:`graphmine.truss._kernels`): the supports are counted in parallel, the peeling is serial
and linear in the triangle listing. One k-truss is cheaper: supports on the degree orientation,
then a queue of the edges below k - 2 only.
"""

import numpy as np

from . import _kernels as _tk
from .._runtime.docs import fill_doc
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import check_int
from ..core.graph import rank_space_arcs
from ..core.validation import as_graph
from .._runtime.interrupt import interruptible
from ..core.registry import declare, implements

__all__ = ["truss_decomposition", "k_truss"]


def _peel(G, nthreads, stop):
    eid, src, dst = _tk._edge_ids(G.indptr, G.indices)
    O = G.oriented("degree", relabel=True, threads=nthreads)
    arc_sup = _tk._oriented_support(O.indptr, O.indices, nthreads)
    sup = _tk._edge_support(O.indptr, O.indices, O.rank, src, dst, arc_sup, nthreads)
    return src, dst, _tk._truss_peel(G.indptr, G.indices, eid, src, dst, sup, stop)


@declare("truss number of every edge", cpu=True)
@interruptible
@restores_threads
@fill_doc
def truss_decomposition(G, *, threads=None):
    """The truss number of every edge.

    {Parameters: G, threads}

    Returns
    -------
    edges : ndarray of shape (m, 2)
        The edges ``u < v``, sorted (``G.edges()``).
    truss : ndarray of int64
        The largest k such that the k-truss contains the edge (>= 2).

    Examples
    --------
    >>> import networkx as nx
    >>> edges, t = truss_decomposition(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    >>> t.tolist()
    [3, 3, 3, 2]
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    src, dst, truss = _peel(G, nthreads, -1)
    return np.column_stack((src, dst)), truss


@implements("k_truss", "cpu")
@interruptible
@restores_threads
@fill_doc
def k_truss(G, k, *, threads=None):
    """The k-truss of ``G``: the largest subgraph whose every edge lies on at least k - 2 of its
    triangles, isolated vertices removed (for k <= 2: every edge).

    {Parameters: G}
    k : int
    {threads}

    {Returns: k_truss}

    Examples
    --------
    >>> import networkx as nx
    >>> H = k_truss(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)
    >>> H.node_ids.tolist(), H.n_edges
    ([0, 1, 2], 3)
    """
    k = check_int("k", k)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    return G.edge_subgraph(_truss_edges(G, k, nthreads), threads=nthreads)


def _truss_edges(G, k, nthreads):
    """The (m', 2) edges of the k-truss; G a Graph, nthreads resolved.

    One k needs no truss numbers: the supports are counted on the degree orientation (each
    triangle once, from its first vertex, merging only the later part of its out-row: about a
    quarter of the intersection work of counting per undirected edge), then only the edges
    below k - 2 are peeled, queued as they fall below."""
    if k <= 2:
        return G.edges()
    O = G.oriented("degree", relabel=True, threads=nthreads)
    sup = _tk._oriented_support(O.indptr, O.indices, nthreads)
    dead = _tk._k_truss_peel(G.indptr, G.indices, O.indptr, O.indices, O.rank, sup, k - 2)
    tails, heads = rank_space_arcs(O.indptr, O.indices, O.rank)
    return np.column_stack((tails[~dead], heads[~dead]))

