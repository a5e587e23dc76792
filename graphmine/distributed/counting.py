"""Triangle and k-clique counts, per-vertex triangles, clustering and Bloom-filter estimates on a
Dask cluster.

Exact counts are sums over block tasks. With the vertices of a clique in orientation order
u1 -> u2 -> ... -> uk, task (b1, ..., b_{k-1}) counts the cliques with u_l in row block b_l for
l < k; it holds those k - 1 blocks only (the last vertex is counted, never expanded):

.. math::

    T = \\sum_{i, j} \\sum_{u \\in B_i} \\sum_{v \\in N^+(u) \\cap B_j} |N^+(u) \\cap N^+(v)|.

The Bloom estimate sketches every out-neighbourhood in its block, stacks the filters into the
sketch matrix (a ``budget`` fraction of the oriented CSR), which every task receives, and
estimates each |N+(u) ∩ N+(v)| of row block i from a pair of filters.
"""

from .._runtime.docs import fill_doc
import os
import time
from contextlib import contextmanager

import numpy as np

from .._runtime.output import check_output_path, force_or_overwrite
from ..core.validation import check_k as _check_k
from ..core.exceptions import ParameterError, check_int
from .._primitives import estimators as _est
from ..probgraph.results import make_estimate
from ..probgraph.sketches import (MAX_HASHES, check_estimator, hash_seeds, resolve_seed,
                                  sketch_size)
from . import _tasks as _t
from .graph import DistributedGraph, VertexCounts, session, show_progress

__all__ = ["count_triangles", "count_cliques", "triangles", "average_clustering", "VertexCounts"]

_EST_CODE = {"or": _est.EST_OR, "and": _est.EST_AND, "limit": _est.EST_LIMIT}


@contextmanager
def _opened(source, client, partitions, progress):
    """The DistributedGraph of ``source`` (itself if it is one, on its own client), within
    :func:`session`."""
    if isinstance(source, DistributedGraph):
        with session(source.client):
            yield source
        return
    with session(client) as c:
        yield DistributedGraph(source, c, partitions=partitions, progress=progress)


def count_cliques(source, k=3, *, client=None, method="exact", partitions=None, progress=None, **kwargs):
    """The number of k-cliques of a graph held in shards, counted on a Dask cluster.

    Parameters
    ----------
    source : str, PathLike, list, dask DataFrame, Graph or DistributedGraph
        Edge-list shards (a path, glob pattern, directory or list of paths; parsed on the
        workers), a dask DataFrame of edges (first two columns), a graph in memory, or a
        :class:`DistributedGraph` already built.
    k : int
        Clique size, >= 3.
    client : distributed.Client, optional
        Default: a LocalCluster with one single-threaded worker process per core, closed
        afterwards (a given client is left open).
    method : {'exact', 'bloom'}
        'bloom' (k = 3 only) estimates from Bloom filters; see :func:`count_triangles`.
    partitions : int, optional
        Row blocks P (default: the cluster's worker threads). Exact counting runs
        (number of blocks with arcs)^(k - 1) tasks; above ``MAX_TASKS`` (100,000), runs of
        consecutive blocks are merged for the count.
    progress : bool, optional
        Dask's progress bar on stderr (default: when stderr is a terminal).
    **kwargs
        ``method='bloom'``: the sketch options ``budget``, ``bits``, ``hashes``, ``seed``, ...
        of :func:`graphmine.probgraph.count_triangles`.

    Returns
    -------
    int or Estimate
        The exact count (``method='exact'``), else the estimate
        (:class:`graphmine.probgraph.Estimate`).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.distributed import local_client
    >>> client = local_client(2, processes=False)
    >>> count_cliques(nx.complete_graph(7), 4, client=client, partitions=3)  # C(7, 4)
    35
    >>> client.close(); client.cluster.close()
    """
    k = _check_k(k)
    if method not in ("exact", "bloom"):
        raise ParameterError(f"method must be 'exact' or 'bloom' on a cluster, got {method!r}")
    if method == "bloom" and k != 3:
        raise ParameterError("the distributed Bloom estimator counts triangles (k = 3) only; "
                             f"got k = {k} (use method='exact', or graphmine.probgraph on one machine)")
    if method == "exact" and kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    with _opened(source, client, partitions, progress) as D:
        if method == "bloom":
            return _bloom_triangles(D, **kwargs)
        return D.count_cliques(k)


def count_triangles(source, *, client=None, method="exact", partitions=None, progress=None, budget=None,
                    bits=None, hashes=1, estimator=None, seed=None, clamp=False, confidence=0.95):
    """The number of triangles, exact or estimated from Bloom filters, on a Dask cluster.

    Parameters
    ----------
    source, client, partitions, progress
        See :func:`count_cliques`.
    method : {'exact', 'bloom'}
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
    int, or Estimate (method 'bloom'): every intersection is estimated; ``stderr`` is the sum of
    their standard deviations (a bound whatever their correlation).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.distributed import local_client
    >>> client = local_client(2, processes=False)
    >>> count_triangles(nx.karate_club_graph(), client=client)
    45
    >>> est = count_triangles(nx.karate_club_graph(), client=client, method="bloom", bits=4096, seed=1)
    >>> abs(est.estimate - 45) <= 3 * est.stderr + 1
    True
    >>> client.close(); client.cluster.close()
    """
    sketch = dict(budget=budget, bits=bits, hashes=hashes, estimator=estimator, seed=seed, clamp=clamp,
                  confidence=confidence)
    if method == "exact":  # sketch settings given with an exact count are refused, not ignored
        sketch = {key: value for key, value in sketch.items() if value != _SKETCH_DEFAULTS[key]}
    return count_cliques(source, 3, client=client, method=method, partitions=partitions, progress=progress,
                         **sketch)


_SKETCH_DEFAULTS = dict(budget=None, bits=None, hashes=1, estimator=None, seed=None, clamp=False, confidence=0.95)


def _bloom_triangles(D, *, budget=None, bits=None, hashes=1, estimator=None, seed=None, clamp=False,
                     confidence=0.95):
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
    filters = [D._submit(_t.bloom_block, blk, words, seeds) for blk in D.blocks]
    # the sketch matrix: every filter and out-degree, sent once to every worker that counts
    sketch = D._submit(_t.stack_sketches, *[[f, blk] for f, blk in zip(filters, D.blocks)])
    futures = [D._submit(_t.bloom_task, D.blocks[i], lo, sketch, nbits, hashes, _EST_CODE[estimator], bool(clamp),
                         ctab, stab)
               for i, (lo, _) in enumerate(D.ranges()) if D.block_arcs[i] > 0]
    parts = D._gather(futures)
    r = np.sum(parts, axis=0) if parts else np.zeros(5)
    tot, sd, sat, nest = float(r[0]), float(r[2]), int(r[3]), int(r[4])
    if sat:
        from ..probgraph.counting import warn_saturation

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
    ranges = D.ranges()
    P = D.partitions
    live = [i for i in range(P) if D.block_arcs[i] > 0]
    apex = [i for i in live if D.block_max_out[i] >= 2]
    tasks = [D._submit(_t.credit_task, D.n_nodes, D.max_out_degree, D.bounds, [ranges[i], ranges[j]],
                       D.blocks[i], D.blocks[j])
             for i in apex for j in live]
    show_progress(tasks, D.progress, D.client)
    parts = [D._items(f, P) for f in tasks]
    return [D._submit(_t.sum_block, lo, hi, *[p[b] for p in parts]) for b, (lo, hi) in enumerate(ranges)]


def _as_dask_array(D, futures, dtype=np.int64):
    import dask
    import dask.array as da

    sizes = np.diff(D.bounds)
    return da.concatenate([da.from_delayed(dask.delayed(f), shape=(int(s),), dtype=dtype)
                           for f, s in zip(futures, sizes)])


def triangles(source, *, client=None, partitions=None, progress=None, output=None, force=False, overwrite=None):
    """The number of triangles through every vertex, computed on a Dask cluster.

    Parameters
    ----------
    source, client, partitions, progress
        See :func:`count_cliques`.
    output : str or PathLike, optional
        A directory: every row block is written by its worker as a text shard
        ``triangles-NNNNN.tsv`` (lines ``original_id<TAB>triangles``, a ``#`` header), and the
        list of paths is returned. Existing shards are refused unless ``force=True``.
    force : bool, default False
        Replace existing shards in ``output``.
    overwrite : bool, optional
        Deprecated old name of ``force`` (a :class:`DeprecationWarning`); removed in the next release.

    Returns
    -------
    VertexCounts or list of str
        Without ``output``: ``(node_ids, triangles)``, dask arrays (one chunk per block) when a
        client is given, numpy arrays when this call started its own cluster.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.distributed import local_client
    >>> client = local_client(2, processes=False)
    >>> ids, t = triangles(nx.complete_graph(4), client=client)
    >>> t.compute().tolist()
    [3, 3, 3, 3]
    >>> client.close(); client.cluster.close()
    """
    force = force_or_overwrite(force, overwrite, "triangles")
    own = client is None and not isinstance(source, DistributedGraph)
    if output is not None:
        output = os.fspath(output)
        os.makedirs(output, exist_ok=True)
    with _opened(source, client, partitions, progress) as D:
        if output is not None:
            # refused before any counting task is submitted
            paths = [check_output_path(os.path.join(output, f"triangles-{b:05d}.tsv"), force,
                                       flag="force=True") for b in range(D.partitions)]
        tri = _triangle_blocks(D)
        ids = D.node_id_blocks()
        if output is not None:
            header = "# original_id\ttriangles\n"
            return D._gather([D._submit(_t.write_block, p, i, t, header) for p, i, t in zip(paths, ids, tri)])
        if own:
            return VertexCounts(np.concatenate(D._gather(ids)), np.concatenate(D._gather(tri)))
        names = D._kind == "graph" and D._node_ids.dtype == object
        return VertexCounts(_as_dask_array(D, ids, object if names else np.int64), _as_dask_array(D, tri))


@fill_doc
def average_clustering(source, *, client=None, partitions=None, progress=None, count_zeros=True):
    """The mean local clustering coefficient, computed on a Dask cluster.

    .. math::

        C = \\frac{1}{n} \\sum_v \\frac{2 T(v)}{d_v (d_v - 1)}

    (vertices of degree < 2 count as 0; ``count_zeros=False`` averages over the vertices with a
    nonzero coefficient only, as networkx and :func:`graphmine.average_clustering` do).

    Parameters
    ----------
    source, client, partitions, progress
        See :func:`count_cliques`.
    {count_zeros}

    Returns
    -------
    float
        The mean coefficient.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.distributed import local_client
    >>> client = local_client(2, processes=False)
    >>> G = nx.karate_club_graph()
    >>> abs(average_clustering(G, client=client) - nx.average_clustering(G)) < 1e-12
    True
    >>> client.close(); client.cluster.close()
    """
    with _opened(source, client, partitions, progress) as D:
        tri = _triangle_blocks(D)
        sums = D._gather([D._submit(_t.clustering_sum, t, d) for t, d in zip(tri, D.degrees)])
        total = sum(s for s, _ in sums)
        denom = D.n_nodes if count_zeros else sum(c for _, c in sums)
        return total / denom if denom else 0.0
