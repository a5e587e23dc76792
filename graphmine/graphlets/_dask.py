"""The graphlet census on a Dask cluster: the 'dask' back-end of ``graphmine.orbit_counts`` (node
orbits) and ``graphmine.graphlet_counts`` (a :class:`~graphmine.distributed.DistributedGraph`
passed to them).

The orbit counts of a vertex v depend only on the edges with an end within distance 2 of v: a
connected 4-vertex set that holds v has at most one vertex at distance 3, so every edge inside it
has an end within distance 2, and every such set is connected through those edges. Each row
block therefore gathers the rows of its 2-ball in two rounds (P x P small tasks that cut the
wanted rows out of every block's undirected rows), runs the exact census of
:mod:`graphmine.graphlets._cpu` on that subgraph in one task, and keeps its own vertices' rows;
the global counts are the blocks' column sums (an orbit's sum over all vertices is its graphlet's
count times the vertices of the graphlet in that orbit). A task holds its block's 2-ball, which
on graphs with hubs is much of the graph: the cluster spreads the work, not the memory, there.
Per-edge orbits run on the CPU only.
"""

import numpy as np

from .._primitives.small_work import unique_ints
from ..core.registry import implements
from ..distributed.graph import VertexCounts
from ._cpu import GRAPHLET_ORBITS, NODE_ORBIT_COUNTS, NODE_PATTERNS, ORBIT_SIZES, _check_size, _inverse, _non_induced

__all__ = ["orbit_counts", "graphlet_counts"]


def _wanted(lo, hi, *parts):
    """The sorted distinct ids of the block's vertices lo..hi-1 and of every endpoint in ``parts``
    (undirected rows (indptr, indices), or edge pieces (src, dst))."""
    return unique_ints(np.concatenate([np.arange(lo, hi, dtype=np.int64)]
                                    + [np.asarray(p[1], np.int64) for p in parts]))


def _cut_rows(block, lo, wanted):
    """The edges (src, dst) of the rows of ``block`` (undirected rows of the vertices from ``lo``)
    whose vertex is in ``wanted`` (sorted)."""
    indptr, indices = block
    hi = lo + indptr.shape[0] - 1
    local = wanted[(wanted >= lo) & (wanted < hi)] - lo
    starts = indptr[local].astype(np.int64)
    lens = indptr[local + 1].astype(np.int64) - starts
    total = int(lens.sum())
    # slot k of the output: start of its row plus its rank inside the row
    offsets = np.repeat(starts - (np.cumsum(lens) - lens), lens) + np.arange(total, dtype=np.int64)
    return np.repeat(local + lo, lens), np.asarray(indices, np.int64)[offsets]


def _census_task(lo, hi, *pieces):
    """The (hi - lo, 15) node orbit counts of the block's vertices, from the edges of its 2-ball."""
    from . import _kernels

    src = np.concatenate([np.asarray(p[0], np.int64) for p in pieces] + [np.empty(0, np.int64)])
    dst = np.concatenate([np.asarray(p[1], np.int64) for p in pieces] + [np.empty(0, np.int64)])
    ids = _wanted(lo, hi, (src, dst))
    nv = ids.shape[0]
    a, b = np.searchsorted(ids, src), np.searchsorted(ids, dst)
    key = unique_ints(np.minimum(a, b) * nv + np.maximum(a, b))  # each edge once (a 2-ball's rows hold it twice)
    u, v = key // nv, key % nv
    rows, cols = np.concatenate([u, v]), np.concatenate([v, u])
    order = np.argsort(rows * nv + cols, kind="stable")
    indptr = np.zeros(nv + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=nv), out=indptr[1:])
    indices = cols[order]
    own = np.searchsorted(ids, np.arange(lo, hi, dtype=np.int64))
    if indices.shape[0] == 0:
        return np.zeros((hi - lo, len(NODE_PATTERNS)), np.int64)
    # serial kernels: a threaded worker may run several tasks at once, and the workers are the threads
    rp, ri, reid, split, orig = _kernels._rank_space(indptr, indices)
    inv = _inverse(NODE_PATTERNS)
    minv = np.array([(i, j, inv[i, j]) for i, j in zip(*np.nonzero(inv))], np.int64)
    maxout = max(1, int((rp[1:] - split).max()))
    return _kernels._census_serial(rp, ri, reid, split, orig, False, minv, maxout)[own]


def _column_sums(counts):
    return counts.sum(axis=0)


def _per_block(D):
    """Futures of every block's (rows, 15) node orbit counts."""
    ranges = D.ranges()
    P = D.partitions
    full = D.undirected_blocks()
    out = []
    for i, (lo, hi) in enumerate(ranges):
        ball = D.submit(_wanted, lo, hi, full[i])  # the block and its neighbours
        cuts = [D.submit(_cut_rows, full[j], ranges[j][0], ball) for j in range(P)]
        ball = D.submit(_wanted, lo, hi, *cuts)  # ... and theirs: the 2-ball
        cuts = [D.submit(_cut_rows, full[j], ranges[j][0], ball) for j in range(P)]
        out.append(D.submit(_census_task, lo, hi, *cuts))
    return out


def _node_only(D, kwargs):
    if kwargs.get("kind", "node") == "edge":
        return "per-edge orbit counts run on the CPU only (on Dask: node orbits and global counts)"
    return True


@implements("orbit_counts", "dask", methods=("exact",), can_run=_node_only)
def orbit_counts(D, size=4, *, kind="node", threads=None, progress=False):
    """The node orbit counts of every vertex of a :class:`DistributedGraph`; see
    :func:`graphmine.orbit_counts`.

    Parameters
    ----------
    D : DistributedGraph
    size : {3, 4}
        Graphlets on up to this many vertices.
    kind : {'node'}
        Node orbits (per-edge orbits run on the CPU only).
    threads : int, optional
        Unused (each task runs on one worker thread).
    progress : bool
        Unused: the graph's ``progress`` shows dask's bar.

    Returns
    -------
    VertexCounts
        ``(node_ids, counts)``: the original ids in the graph's vertex order and the (n, 4 or 15)
        orbit counts of those vertices.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> ids, counts = gm.orbit_counts(DistributedGraph(nx.star_graph(3), client, partitions=2))
    >>> counts[:, [0, 6, 7]].tolist()  # degree, 3-star leaf, 3-star centre
    [[3, 0, 1], [1, 1, 0], [1, 1, 0], [1, 1, 0]]
    >>> client.close(); client.cluster.close()
    """
    size = _check_size(size)
    counts = D.gather(_per_block(D))
    ids = D.gather(D.node_id_blocks())
    return VertexCounts(np.concatenate(ids), np.concatenate(counts)[:, :NODE_ORBIT_COUNTS[size]])


@implements("graphlet_counts", "dask", methods=("exact",))
def graphlet_counts(D, size=4, *, induced=True, threads=None, progress=False):
    """How often every connected graphlet on 2 to ``size`` vertices occurs in a
    :class:`DistributedGraph`; see :func:`graphmine.graphlet_counts`.

    Parameters
    ----------
    D : DistributedGraph
    size : {3, 4}
        The largest graphlets counted.
    induced : bool
        Induced counts, or copies as subgraphs.
    threads : int, optional
        Unused (each task runs on one worker thread).
    progress : bool
        Unused: the graph's ``progress`` shows dask's bar.

    Returns
    -------
    ndarray of int64 of shape (3,) or (9,)
        Entry g: the count of graphlet G_g (edge, 2-path, triangle, 3-path, 3-star, 4-cycle,
        paw, diamond, 4-clique).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> gm.graphlet_counts(DistributedGraph(nx.complete_graph(4), client, partitions=2)).tolist()
    [6, 0, 4, 0, 0, 0, 0, 0, 1]
    >>> client.close(); client.cluster.close()
    """
    size = _check_size(size)
    sums = np.sum(D.gather([D.submit(_column_sums, c) for c in _per_block(D)]), axis=0)
    k = 3 if size == 3 else 9
    # each graphlet's count: the sum of one of its orbits over the vertices in that orbit
    counts = np.array([sums[orbits[0]] // ORBIT_SIZES[orbits[0]] for orbits in GRAPHLET_ORBITS[:k]], np.int64)
    return counts if induced else _non_induced(counts)
