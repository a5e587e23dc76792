"""4-cycles on a Dask cluster: the 'dask' back-end of ``graphmine.four_cycles`` and
``graphmine.count_four_cycles`` (a :class:`~graphmine.distributed.DistributedGraph` passed to them).

The cluster holds the degree orientation in P row blocks; a 4-cycle needs whole
neighbourhoods, so every block is first completed with its in-arcs (P x P small tasks that cut
the arcs of block j ending in block i, then one merge per block: the undirected row block). With
c(v, w) = |N(v) ∩ N(w)|, every two-hop path v - u - w (w != v) adds c(v, w) - 1 to v, which sums
to 2 C_4(v) (see :mod:`graphmine.cuda._cycles`); task (i, j, k) takes the paths with v, u and w in
blocks i, j and k and needs those three blocks only, so no task holds the graph.
"""

import numpy as np
from numba import njit

from .._runtime.docs import fill_doc
from .._primitives.setops import intersect_count
from ..core.registry import implements
from ._block_kernels import _group_rows
from .counting import VertexCounts

__all__ = ["four_cycles", "count_four_cycles"]


@njit(cache=True, nogil=True)
def _path_terms(lo_i, ptr_i, ind_i, lo_j, hi_j, ptr_j, ind_j, lo_k, hi_k, ptr_k, ind_k):
    """sum over the paths v - u - w (v, u, w in blocks i, j, k; w != v) of c(v, w) - 1, per v."""
    out = np.zeros(ptr_i.shape[0] - 1, np.int64)
    for a in range(ptr_i.shape[0] - 1):
        v = lo_i + a
        for x in range(ptr_i[a], ptr_i[a + 1]):
            u = ind_i[x]
            if u < lo_j or u >= hi_j:
                continue
            b = u - lo_j
            for y in range(ptr_j[b], ptr_j[b + 1]):
                w = ind_j[y]
                if w == v or w < lo_k or w >= hi_k:
                    continue
                c = w - lo_k
                out[a] += intersect_count(ind_i, ptr_i[a], ptr_i[a + 1], ind_k, ptr_k[c], ptr_k[c + 1]) - 1
    return out


def _in_arcs(block, lo_j, lo_i, hi_i):
    """The arcs of oriented block j (rows from lo_j) that end in lo_i..hi_i-1, reversed: (head, tail)."""
    ptr, ind = block
    tails = lo_j + np.repeat(np.arange(ptr.shape[0] - 1, dtype=np.int64), np.diff(ptr))
    keep = (ind >= lo_i) & (ind < hi_i)
    return np.stack([ind[keep].astype(np.int64), tails[keep]], axis=1)


def _undirected(lo, hi, block, *pieces):
    """The undirected row block lo..hi-1: its out-rows and the reversed in-arcs, rows sorted."""
    ptr, ind = block
    rows = [np.repeat(np.arange(hi - lo, dtype=np.int64), np.diff(ptr))] + [p[:, 0] - lo for p in pieces]
    cols = [ind.astype(np.int64)] + [p[:, 1] for p in pieces]
    return _group_rows(np.concatenate(rows), np.concatenate(cols).astype(ind.dtype), hi - lo, False)


def _paths_task(ri, rj, rk, bi, bj, bk):
    return _path_terms(ri[0], bi[0], bi[1], rj[0], rj[1], bj[0], bj[1], rk[0], rk[1], bk[0], bk[1])


def _halve_sum(*parts):
    return np.sum(parts, axis=0) // 2 if parts else np.zeros(0, np.int64)


def _per_block(D):
    ranges = D.ranges()
    P = D.partitions
    cuts = [[D._submit(_in_arcs, D.blocks[j], ranges[j][0], *ranges[i]) for j in range(P)] for i in range(P)]
    full = [D._submit(_undirected, lo, hi, D.blocks[i], *cuts[i]) for i, (lo, hi) in enumerate(ranges)]
    return [D._submit(_halve_sum, *[D._submit(_paths_task, ranges[i], ranges[j], ranges[k], full[i], full[j],
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
    counts = D._gather(_per_block(D))
    ids = D._gather(D.node_id_blocks())
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
    return int(sum(int(c.sum()) for c in D._gather(_per_block(D)))) // 4
