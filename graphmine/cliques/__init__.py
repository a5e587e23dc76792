"""Triangles and k-cliques: counts for the whole graph and per vertex, every clique size at once
(:mod:`~graphmine.cliques.census`), k-clique cores and densest subgraphs
(:mod:`~graphmine.cliques.peeling`), and maximal cliques, listing and clique percolation
(:mod:`~graphmine.cliques.enumeration`).

The functions here dispatch on ``method=`` and ``device=`` (:mod:`graphmine.core.registry`); the
exact CPU counts are in ``_cpu.py`` and their Numba kernels beside them.
"""

from .._runtime.docs import fill_doc
from ..core.registry import call, declare
from ..core.validation import check_k
from ._cpu import list_triangles

__all__ = ["count_triangles", "triangles", "count_cliques", "check_k", "list_triangles", "warm_up"]


def _check_k(kwargs):
    kwargs["k"] = check_k(kwargs.get("k", 3))
    if not kwargs.get("progress"):
        kwargs.pop("progress", None)  # only the exact CPU count shows progress


@declare("number of triangles")
@fill_doc
def count_triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles of ``G``.

    .. math:: T = \\frac{1}{6} \\operatorname{tr}(A^3)

    where :math:`A` is the adjacency matrix.

    {Parameters: G, method, threads, device, sketch_kwargs}

    {Returns: count_or_estimate}

    Raises
    ------
    ParameterError
        An unknown ``method`` or ``device``, or options that the method does not take.
    NoImplementationError
        No back-end runs this method on this device.

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_triangles(nx.complete_graph(5))
    10
    """
    return call("count_triangles", G, method=method, device=device, threads=threads, **kwargs)


@declare("triangles through every vertex")
@fill_doc
def triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles through every vertex (int64 array of length n).

    {Parameters: G, method, threads, device, sketch_kwargs}

    Returns
    -------
    ndarray of int64 of shape (n,), or ArrayEstimate
        ``t[v]``, the number of triangles that contain vertex ``v``; their sum is three times
        :func:`count_triangles`.

    Notes
    -----
    {kept_results}

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    return call("triangles", G, method=method, device=device, threads=threads, **kwargs)


@declare("number of k-cliques (k >= 3)", validate=_check_k)
@fill_doc
def count_cliques(G, k=3, *, method="exact", order=None, threads=None, progress=False, device="cpu", **kwargs):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3.

    {Parameters: G, k, method, order, threads}
    progress : bool
        Exact k >= 4 on the CPU: show a progress bar on stderr (tqdm), the share of the time
        estimated from the rate so far.
    {device, sketch_kwargs}

    {Returns: count_or_estimate}

    Raises
    ------
    ParameterError
        ``k`` < 3, or an unknown ``method``, ``order`` or ``device``.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    return call("count_cliques", G, k=k, method=method, device=device, order=order, threads=threads,
                progress=progress, **kwargs)


def warm_up(k=4, *, threads=None, file_bytes=0):
    """Load the Numba kernels of an exact k-clique count (k >= 4, CPU) from numba's cache on a
    thread of their own.

    A fresh process loads each kernel from the cache on its first call (10-100 ms of CPU each,
    the first one also starting numba's runtime). Started before a graph file is read, the loads
    overlap the read (``graphmine count-cliques -k K`` does so for files of 512 KiB or more); a
    count that comes first waits for them. Nothing is compiled: a kernel without a cache entry
    compiles on its first call, as always.

    Parameters
    ----------
    k : int, default 4
        The clique size to be counted (below 4 nothing is loaded).
    threads : int, optional
        The thread count of the count (default: every core).
    file_bytes : int, default 0
        The size of the file the graph comes from (a large one also loads the parallel kernel).

    Returns
    -------
    threading.Thread
        The started thread; ``join()`` waits for the loads.

    Examples
    --------
    >>> warm_up(4, threads=1).join()
    """
    from .._runtime.startup import preload
    from ._cpu import count_kernels, narrow_indices

    return preload(lambda: count_kernels(k, threads, file_bytes), narrow_indices)
