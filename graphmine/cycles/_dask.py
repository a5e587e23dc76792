"""4-cycles on a Dask cluster: the 'dask' back-end of ``graphmine.four_cycles`` and
``graphmine.count_four_cycles`` (a :class:`~graphmine.distributed.DistributedGraph` passed to them).

The cluster holds the degree orientation in P row blocks; a 4-cycle needs whole
neighbourhoods, so every block is first completed with its in-arcs (P x P small tasks that cut
the arcs of block j ending in block i, then one merge per block: the undirected row block). With
c(v, w) = |N(v) ∩ N(w)|, every two-hop path v - u - w (w != v) adds c(v, w) - 1 to v, which sums
to 2 C_4(v) (see :mod:`graphmine.cycles._cpu`); task (i, j, k) takes the paths with v, u and w in
blocks i, j and k and needs those three blocks only, so no task holds the graph.
"""

import numpy as np

from .._runtime.docs import fill_doc
from ..core.registry import implements
from ..distributed.graph import VertexCounts
from ._kernels import _path_terms

__all__ = ["four_cycles", "count_four_cycles"]


def _paths_task(ri, rj, rk, bi, bj, bk):
    return _path_terms(ri[0], bi[0], bi[1], rj[0], rj[1], bj[0], bj[1], rk[0], rk[1], bk[0], bk[1])


def _halve_sum(*parts):
    return np.sum(parts, axis=0) // 2 if parts else np.zeros(0, np.int64)


def _per_block(D):
    ranges = D.ranges()
    P = D.partitions
    full = D.undirected_blocks()
    return [D.submit(_halve_sum, *[D.submit(_paths_task, ranges[i], ranges[j], ranges[k], full[i], full[j],
                                            full[k]) for j in range(P) for k in range(P)])
            for i in range(P)]


@implements("four_cycles", "dask")
@fill_doc
def four_cycles(D, *, method="exact", threads=None):
    """The number of 4-cycles through every vertex of a :class:`DistributedGraph`.

    {Parameters: dask_exact}

    Returns
    -------
    VertexCounts
        ``(node_ids, counts)`` as numpy arrays, in the graph's vertex order.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> gm.four_cycles(DistributedGraph(nx.complete_graph(4), client, partitions=2)).values.tolist()
    [3, 3, 3, 3]
    >>> client.close(); client.cluster.close()
    """
    counts = D.gather(_per_block(D))
    ids = D.gather(D.node_id_blocks())
    return VertexCounts(np.concatenate(ids), np.concatenate(counts).astype(np.int64))


@implements("count_four_cycles", "dask")
@fill_doc
def count_four_cycles(D, *, method="exact", threads=None):
    """The number of 4-cycles of a :class:`DistributedGraph`.

    {Parameters: dask_exact}

    Returns
    -------
    int
        The number of 4-cycles: a quarter of the sum of the per-vertex counts.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> gm.count_four_cycles(DistributedGraph(nx.complete_bipartite_graph(3, 3), client, partitions=2))
    9
    >>> client.close(); client.cluster.close()
    """
    return int(sum(int(c.sum()) for c in D.gather(_per_block(D)))) // 4
