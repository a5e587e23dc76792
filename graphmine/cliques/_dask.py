"""Triangles and k-cliques on a Dask cluster: the 'dask' back-end of ``graphmine.count_triangles``,
``graphmine.count_cliques`` and ``graphmine.triangles`` (a
:class:`~graphmine.distributed.DistributedGraph` passed to them; :mod:`graphmine.distributed`'s
functions of the same names build one from shards and call these).

Exact counts are sums over block tasks. With the vertices of a clique in orientation order
u1 -> u2 -> ... -> uk, task (b1, ..., b_{k-1}) counts the cliques with u_l in row block b_l for
l < k; it holds those k - 1 blocks only (the last vertex is counted, never expanded):

.. math::

    T = \\sum_{i, j} \\sum_{u \\in B_i} \\sum_{v \\in N^+(u) \\cap B_j} |N^+(u) \\cap N^+(v)|.

The Bloom estimate sketches every out-neighbourhood in its block, stacks the filters into the
sketch matrix (a ``budget`` fraction of the oriented CSR), which every task receives, and
estimates each |N+(u) ∩ N+(v)| of row block i from a pair of filters.
"""

import itertools
import time

import numpy as np

from .._primitives import estimators as _est
from .._primitives import sketch_kernels as _sk
from .._runtime.docs import fill_doc
from .._runtime.threads import PARALLEL_KERNEL_LOCK
from ..core.exceptions import ParameterError, check_int
from ..core.registry import implements
from ..core.validation import check_k
from ..probgraph.counting import warn_saturation
from ..probgraph.results import make_estimate
from ..probgraph.sketches import MAX_HASHES, check_estimator, hash_seeds, resolve_seed, sketch_size
from ._dask_kernels import _block_bloom_triangles, _block_cliques

__all__ = ["count_cliques", "count_triangles", "triangles", "MAX_TASKS"]

# at most this many counting tasks: beyond it, consecutive row blocks are merged for the count
MAX_TASKS = 100_000

_EST_CODE = {"or": _est.EST_OR, "and": _est.EST_AND, "limit": _est.EST_LIMIT}


# -- the tasks (run on the workers: plain numpy in, plain numpy out) ---------------------------

def _task_arrays(ranges, blocks):
    """The kernel's view of a task's blocks: (indptr per block, indices per block, lo, hi)."""
    ptrs = tuple(b[0] for b in blocks)
    inds = tuple(b[1] for b in blocks)
    lo = np.array([r[0] for r in ranges], np.int64)
    hi = np.array([r[1] for r in ranges], np.int64)
    return ptrs, inds, lo, hi


def _count_task(k, n, max_out, ranges, *blocks):
    """Exact k-cliques whose first k - 1 vertices lie in the given blocks (see _dask_kernels)."""
    mark = np.zeros(n, np.uint8)
    dummy = np.zeros(1, np.int64)
    return int(_block_cliques(*_task_arrays(ranges, blocks), k, max_out, mark, False, dummy))


def _credit_task(n, max_out, bounds, ranges, *blocks):
    """Triangles through every vertex found by one (i, j) task, sparse and split by block."""
    mark = np.zeros(n, np.uint8)
    per_vertex = np.zeros(n, np.int64)
    _block_cliques(*_task_arrays(ranges, blocks), 3, max_out, mark, True, per_vertex)
    ids = np.flatnonzero(per_vertex)
    cuts = np.searchsorted(ids, bounds[1:-1])
    return tuple(zip(np.split(ids, cuts), np.split(per_vertex[ids], cuts)))


def _sum_block(lo, hi, *parts):
    """Dense values of the vertices lo..hi-1 from sparse (ids, values) parts."""
    out = np.zeros(hi - lo, np.int64)
    for ids, vals in parts:
        out[ids - lo] += vals
    return out


def _bloom_block(block, words, seeds):
    """Bloom filters of the out-neighbourhoods of a row block (graphmine's sketch kernel)."""
    ptr, ind = block
    with PARALLEL_KERNEL_LOCK:
        return _sk._bloom_build(ptr, ind, words, seeds, 1)


def _stack_sketches(*parts):
    """The sketch matrix of the whole graph (rows by global id) and every out-degree."""
    F = np.concatenate([p[0] for p in parts])
    outdeg = np.concatenate([np.diff(p[1][0]) for p in parts])
    return F, outdeg


def _bloom_task(block, lo, sketch, nbits, b, est, clamp, ctab, stab):
    ptr, ind = block
    F, outdeg = sketch
    return _block_bloom_triangles(ptr, ind, lo, F, outdeg, nbits, b, est, clamp, ctab, stab)


# -- the client's side --------------------------------------------------------------------------

def _count_blocks(D, k):
    if D.max_out_degree < k - 1:
        return 0
    # at most MAX_TASKS tasks: Q blocks give Q^(k-1) of them
    Q = D.partitions
    while Q > 1 and Q ** (k - 1) > MAX_TASKS:
        Q -= 1
    ranges, blocks, arcs, maxout = D.coarse_blocks(Q)
    # a block whose rows have no arc holds no clique vertex but the last; an apex needs k - 1 arcs
    live = [i for i in range(len(blocks)) if arcs[i] > 0]
    apex = [i for i in live if maxout[i] >= k - 1]
    futures = []
    for first in apex:
        for rest in itertools.product(live, repeat=k - 2):
            tup = (first,) + rest
            futures.append(D.submit(_count_task, k, D.n_nodes, D.max_out_degree, [ranges[b] for b in tup],
                                    *[blocks[b] for b in tup]))
    return int(sum(D.gather(futures)))


def _check_order(order):
    if order not in (None, "degree"):
        raise ParameterError(f"a DistributedGraph's blocks are oriented by degree: order must be None or 'degree', "
                             f"got {order!r}")


@implements("count_cliques", "dask", methods=("exact",))
@fill_doc
def count_cliques(D, k=3, *, order=None):
    """The number of k-cliques of a :class:`DistributedGraph`, by block tasks.

    Parameters
    ----------
    D : DistributedGraph
    k : int, default 3
        Clique size, >= 3.
    order : {None, 'degree'}
        The blocks are oriented by degree.

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> gm.count_cliques(DistributedGraph(nx.complete_graph(7), client, partitions=3), 4)  # C(7, 4)
    35
    >>> client.close(); client.cluster.close()
    """
    _check_order(order)
    return _count_blocks(D, check_k(k))


@implements("count_triangles", "dask", methods=("exact",))
def count_triangles(D, *, order=None):
    """The number of triangles of a :class:`DistributedGraph` (:func:`count_cliques` with k = 3).

    Parameters
    ----------
    D : DistributedGraph
    order : {None, 'degree'}

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> gm.count_triangles(DistributedGraph(nx.karate_club_graph(), client, partitions=2))
    45
    >>> client.close(); client.cluster.close()
    """
    _check_order(order)
    return _count_blocks(D, 3)


def _bloom_k(G, kwargs):
    return True if kwargs.get("k", 3) == 3 else "the distributed Bloom estimator counts triangles (k = 3) only"


@implements("count_cliques", "dask", methods=("bloom",), can_run=_bloom_k)
@implements("count_triangles", "dask", methods=("bloom",))
def count_triangles_bloom(D, k=3, *, order=None, budget=None, bits=None, hashes=1, estimator=None, seed=None,
                          clamp=False, confidence=0.95):
    """Triangles of a :class:`DistributedGraph` estimated from Bloom filters of the
    out-neighbourhoods (``method='bloom'``).

    Parameters
    ----------
    D : DistributedGraph
    k : int, default 3
        3 only (``graphmine.count_cliques(D, 3, method='bloom')``).
    order : {None, 'degree'}
    budget, bits, hashes, seed
        Bloom filter size (``budget``: a fraction of the oriented CSR counted as 64 (n + m)
        bits, default 0.25; or ``bits`` per filter) and hash functions, as in
        :func:`graphmine.probgraph.count_triangles`.
    estimator : {'or', 'and', 'limit'}, optional
        Intersection estimator (default 'or').
    clamp : bool
        Clamp every intersection estimate to [0, min(|X|, |Y|)].
    confidence : float

    Returns
    -------
    Estimate
        Every intersection is estimated; ``stderr`` is the sum of their standard deviations (a
        bound whatever their correlation).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> D = DistributedGraph(nx.karate_club_graph(), client, partitions=2)
    >>> est = gm.count_triangles(D, method="bloom", bits=4096, seed=1)
    >>> abs(est.estimate - 45) <= 3 * est.stderr + 1
    True
    >>> client.close(); client.cluster.close()
    """
    _check_order(order)
    if check_k(k) != 3:
        raise ParameterError("the distributed Bloom estimator counts triangles (k = 3) only; "
                             f"got k = {k} (use method='exact', or graphmine.probgraph on one machine)")
    t0 = time.perf_counter()
    estimator = check_estimator("bloom", estimator)
    hashes = check_int("hashes", hashes, 1, MAX_HASHES)
    if not isinstance(confidence, (float, int)) or not 0 < confidence < 1:
        raise ParameterError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    if D.n_nodes >= 2**32:
        raise ParameterError("Bloom sketches hash 32-bit vertex ids; this graph has more than 2**32 vertices")
    seed = resolve_seed(seed)
    words, _ = sketch_size("bloom", D.n_nodes, D.n_edges, budget, bits, None)
    nbits = 64 * words
    seeds = hash_seeds(seed, hashes)
    ctab, vtab = _est.bloom_tables(nbits, hashes)
    stab = np.sqrt(vtab)
    filters = [D.submit(_bloom_block, blk, words, seeds) for blk in D.blocks]
    # the sketch matrix: every filter and out-degree, sent once to every worker that counts
    sketch = D.submit(_stack_sketches, *[[f, blk] for f, blk in zip(filters, D.blocks)])
    futures = [D.submit(_bloom_task, D.blocks[i], lo, sketch, nbits, hashes, _EST_CODE[estimator], bool(clamp),
                        ctab, stab)
               for i, (lo, _) in enumerate(D.ranges()) if D.block_arcs[i] > 0]
    parts = D.gather(futures)
    r = np.sum(parts, axis=0) if parts else np.zeros(5)
    tot, sd, sat, nest = float(r[0]), float(r[2]), int(r[3]), int(r[4])
    if sat:
        warn_saturation(sat, nest, "triangles")
    csr_bytes = 8 * (D.n_nodes + D.n_edges)
    sketch_bytes = 8 * words * D.n_nodes
    return make_estimate(
        tot, sd, confidence=confidence, quantity="triangles", method="bloom", estimator=estimator,
        budget=sketch_bytes / csr_bytes if csr_bytes else 0.0,
        params={"order": "degree", "seed": seed, "bits": nbits, "hashes": hashes, "words": words, "hub_bits": 0,
                "partitions": D.partitions},
        sketch_bytes=sketch_bytes, saturated=sat / nest if nest else 0.0, seconds=time.perf_counter() - t0,
        error_model="bound" if sd > 0 else "exact", replicates=1, estimated=1.0 if nest else 0.0)


def _triangle_blocks(D):
    """Futures of every row block's per-vertex triangle counts."""
    ranges = D.ranges()
    P = D.partitions
    live = [i for i in range(P) if D.block_arcs[i] > 0]
    apex = [i for i in live if D.block_max_out[i] >= 2]
    tasks = [D.submit(_credit_task, D.n_nodes, D.max_out_degree, D.bounds, [ranges[i], ranges[j]],
                      D.blocks[i], D.blocks[j])
             for i in apex for j in live]
    D.show_progress(tasks)
    parts = [D.items(f, P) for f in tasks]
    return [D.submit(_sum_block, lo, hi, *[p[b] for p in parts]) for b, (lo, hi) in enumerate(ranges)]


@implements("triangles", "dask", methods=("exact",))
def triangles(D, *, output=None, force=False):
    """The number of triangles through every vertex of a :class:`DistributedGraph`.

    Parameters
    ----------
    D : DistributedGraph
    output : str or PathLike, optional
        A directory: every row block is written by its worker as a text shard
        ``triangles-NNNNN.tsv`` (lines ``original_id<TAB>triangles``, a ``#`` header), and the
        list of paths is returned. Existing shards are refused, before any count, unless ``force``.
    force : bool, default False
        Replace existing shards in ``output``.

    Returns
    -------
    VertexCounts or list of str
        ``(node_ids, triangles)`` as dask arrays (one chunk per row block), or the shards' paths.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> from graphmine.distributed import DistributedGraph, local_client
    >>> client = local_client(1, processes=False)
    >>> ids, t = gm.triangles(DistributedGraph(nx.complete_graph(4), client, partitions=2))
    >>> t.compute().tolist()
    [3, 3, 3, 3]
    >>> client.close(); client.cluster.close()
    """
    paths = None if output is None else D.block_paths(output, "triangles", force)
    tri = _triangle_blocks(D)
    if paths is not None:
        return D.write_vertex_blocks(paths, tri, "triangles")
    return D.vertex_counts(tri)
