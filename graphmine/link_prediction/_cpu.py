"""Link prediction scores of vertex pairs beyond the neighbourhood overlaps of
:mod:`graphmine.motifs.heuristics`: the common-neighbour and centrality score (CCPA).

.. math::

    s(u, v) = \\alpha \\, |N(u) \\cap N(v)| + (1 - \\alpha) \\frac{n}{d(u, v)}

with d the shortest-path distance (the second term is 0 for vertices in different components).
Ahmad et al., "Missing Link Prediction using Common Neighbor and Centrality based Parameterized
Algorithm", Sci. Rep. 10, 364 (2020); networkx's ``common_neighbor_centrality``.
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.limits import check_allocation
from . import _pair_kernels as _pk
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import GraphValueError, ParameterError
from ..core.graph import SERIAL_EDGES, vertex_pairs
from ..core.validation import as_graph
from ..core.registry import implements

__all__ = ["common_neighbor_centrality", "non_edges"]


@fill_doc
def non_edges(G):
    """Every pair u < v of distinct vertices that are not adjacent.

    {Parameters: G}

    Returns
    -------
    (ndarray, ndarray)
        The vertex indices u and v (int64), in increasing order of u, then v.

    Examples
    --------
    >>> import networkx as nx
    >>> [a.tolist() for a in non_edges(nx.path_graph(3))]
    [[0], [2]]
    """
    G = as_graph(G)
    n = G.n_nodes
    check_allocation(n * n, f"the non-edges of {n:,} vertices")
    adj = np.zeros((n, n), bool)
    rows = np.repeat(np.arange(n), G.degree)
    adj[rows, G.indices] = True
    us, vs = np.nonzero(~adj)
    keep = us < vs
    return us[keep].astype(np.int64), vs[keep].astype(np.int64)


def _pairs(G, pairs):
    if pairs is None:
        return non_edges(G)
    p = vertex_pairs(pairs, G.n_nodes, name="pairs")
    us, vs = np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1])
    same = us == vs
    if same.any():
        raise GraphValueError(f"pair {int(np.flatnonzero(same)[0])} is a self-loop ({us[same][0]}, "
                              f"{us[same][0]}): the score is for two distinct vertices")
    return us, vs


@implements("common_neighbor_centrality", "cpu")
@restores_threads
@fill_doc
def common_neighbor_centrality(G, pairs=None, *, alpha=0.8, threads=None):
    """The common-neighbour and centrality (CCPA) score of vertex pairs.

    {Parameters: G}
    pairs : array-like of shape (m, 2), optional
        Vertex indices (0..n-1) of the pairs to score; default: every non-adjacent pair u < v.
    alpha : float
        Weight of the common-neighbour count against the closeness term (normally in [0, 1]).
    threads : int, optional
        Threads for the common-neighbour kernel (default: all).

    Returns
    -------
    us, vs : ndarray of int64
        The pairs scored.
    scores : ndarray of float64
        ``alpha * |N(u) ∩ N(v)| + (1 - alpha) * n / d(u, v)`` (the second term 0 where v cannot
        be reached from u).

    Examples
    --------
    >>> import networkx as nx
    >>> us, vs, s = common_neighbor_centrality(nx.complete_graph(5), [(0, 1), (2, 3)])
    >>> s.round(6).tolist()  # 0.8 * 3 + 0.2 * 5 / 1
    [3.4, 3.4]
    """
    G = as_graph(G)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)) \
            or not np.isfinite(alpha):
        raise ParameterError(f"alpha must be a finite number (normally in [0, 1]), got {alpha!r}")
    alpha = float(alpha)
    nthreads = resolve_threads(threads)
    us, vs = _pairs(G, pairs)
    weight = np.zeros(0, np.float64)
    if nthreads == 1 or us.shape[0] < SERIAL_EDGES:
        cn, _ = _pk._pairs_serial(G.indptr, G.indices, us, vs, weight, False)
    else:
        cn, _ = _pk._pairs_parallel(G.indptr, G.indices, us, vs, weight, False, nthreads)
    scores = alpha * cn.astype(np.float64)
    if alpha != 1.0 and us.shape[0]:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import shortest_path

        sources, inverse = np.unique(us, return_inverse=True)
        check_allocation(8 * sources.shape[0] * G.n_nodes, f"distances from {sources.shape[0]:,} vertices")
        A = csr_matrix((np.ones(G.indices.shape[0], np.int8), G.indices, G.indptr), shape=(G.n_nodes,) * 2)
        dist = shortest_path(A, method="D", unweighted=True, indices=sources)
        d = dist[inverse, vs]
        scores += (1.0 - alpha) * G.n_nodes / d  # n / inf = 0 across components
    return us, vs, scores
