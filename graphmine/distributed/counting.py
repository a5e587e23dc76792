"""Triangle and k-clique counts, per-vertex triangles, clustering and Bloom-filter estimates of a
graph held in shards, on a Dask cluster: each function builds (or takes) a
:class:`~graphmine.distributed.DistributedGraph` and runs the family's 'dask' implementation
through the registry (``graphmine/cliques/_dask.py``, ``graphmine/cluster/_dask.py``), as
``graphmine.count_triangles(D)`` does.
"""

from contextlib import contextmanager

from .._runtime.docs import fill_doc
from .._runtime.output import force_or_overwrite
from ..core.exceptions import ParameterError
from ..core.registry import call
from ..core.validation import check_k as _check_k
from .graph import DistributedGraph, VertexCounts, session

__all__ = ["count_triangles", "count_cliques", "triangles", "average_clustering", "VertexCounts"]

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
        return call("count_cliques", D, k=k, method=method, **kwargs)


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
    with _opened(source, client, partitions, progress) as D:
        result = call("triangles", D, output=output, force=force)
        if own and output is None:  # numpy arrays, before this call's cluster closes
            return VertexCounts(*D.client.compute(list(result), sync=True))
        return result


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
        return call("average_clustering", D, count_zeros=count_zeros)
