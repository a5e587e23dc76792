"""Link prediction scores: the common-neighbour and centrality (CCPA) score of vertex pairs.

The heuristic motif and link scores of motif prediction are in :mod:`graphmine.motifs`.
"""

from .._runtime.docs import fill_doc
from ..core.registry import call, declare
from ._cpu import non_edges

__all__ = ["common_neighbor_centrality", "non_edges"]


@declare("common-neighbour and centrality (CCPA) link scores")
@fill_doc
def common_neighbor_centrality(G, pairs=None, *, alpha=0.8, threads=None):
    """The common-neighbour and centrality (CCPA) score of vertex pairs (exact, CPU).

    See :func:`graphmine.link_prediction._cpu.common_neighbor_centrality`.

    {Parameters: G}
    pairs : array-like of shape (m, 2), optional
        Vertex indices of the pairs (default: every non-adjacent pair u < v).
    alpha : float, default 0.8
        Weight of the common neighbours against the distance term, in [0, 1].
    {threads}

    Returns
    -------
    us, vs : ndarray of int64 of shape (m,)
        The pairs' vertices.
    scores : ndarray of float64 of shape (m,)
        Their scores.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.common_neighbor_centrality(nx.complete_graph(5), [(0, 1)])[2].round(6).tolist()
    [3.4]
    """
    return call("common_neighbor_centrality", G, pairs, alpha=alpha, threads=threads)
