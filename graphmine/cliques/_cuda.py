"""Triangles and k-cliques on the GPU (the cliques family's 'cuda' back-end): the implementations
that ``graphmine.count_triangles(G, device='cuda')``, :func:`graphmine.cuda.count_triangles` and
their siblings reach through the registry. The kernels' drivers are in ``_cuda_launch.py``,
partitioned counts for graphs larger than the device in ``_cuda_partition.py``, several GPUs in
``_cuda_multi.py``. Importing this module loads no numba.cuda (the first launch does).
"""

import numpy as np

from .._runtime.docs import fill_doc
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError
from ..core.registry import implements
from ..cuda import MAX_K
from ..cuda.launch import quiet
from ._cuda_launch import clique_counts, count_cliques, count_triangles, triangles

__all__ = ["count_triangles_on_gpu", "triangles_on_gpu", "count_cliques_on_gpu", "vertex_clique_counts_on_gpu",
           "warm"]




def _check_order(order, k):
    if order is None:
        return "degree" if k == 3 else "degeneracy"
    if order not in ("degree", "degeneracy"):
        raise ParameterError(f"order must be 'degree' or 'degeneracy', got {order!r}")
    return order


def _workers(devices):
    """The GPUs of a count: None for the one-GPU path (device 0 alone), else the device ids
    (:func:`graphmine.cliques._cuda_multi.resolve_devices`)."""
    from . import _cuda_multi

    ids = _cuda_multi.resolve_devices(devices)
    return ids if _cuda_multi.is_multi(ids) else None


def _k_fits(G, kwargs):
    k = kwargs.get("k", 3)
    if not isinstance(k, (int, np.integer)):
        return "counts one clique size at a time on the GPU"
    return True if k <= MAX_K else f"counts k-cliques up to k = {MAX_K}, got k = {k}"


@implements("count_triangles", "cuda", methods=("exact",))
@restores_threads
@fill_doc
def count_triangles_on_gpu(G, *, order="degree", threads=None, devices=None, bounds=None, hub_min=None):
    """The number of triangles of ``G``, counted on the GPU (:func:`graphmine.cuda.count_triangles`).

    Parameters
    ----------
    {registered_G}
    order : {'degree', 'degeneracy'}, default 'degree'
        Orientation.
    {cuda_threads, cuda_devices}
    bounds, hub_min : optional
        The kernels' bin bounds and hub threshold (tests and the warm-up set them; default:
        the kernels' own).

    Returns
    -------
    int
        The number of triangles.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> count_triangles_on_gpu(gm.as_graph(nx.complete_graph(5))) if gc.is_available() else 10
    10
    """
    order = _check_order(order, 3)
    nthreads = resolve_threads(threads)
    from . import _cuda_partition

    workers = _workers(devices)
    with quiet():
        if workers is not None:
            from . import _cuda_multi

            return _cuda_multi.count_triangles(G, nthreads, workers, order=order)
        if bounds is not None or hub_min is not None:
            return count_triangles(G, order, nthreads, bounds=bounds, hub_min=hub_min)
        return _cuda_partition.count_triangles(G, order, nthreads)


@implements("triangles", "cuda", methods=("exact",))
@restores_threads
@fill_doc
def triangles_on_gpu(G, *, threads=None, devices=None):
    """Triangles through every vertex, counted on the GPU (:func:`graphmine.cuda.triangles`).

    Parameters
    ----------
    {registered_G, cuda_threads, cuda_devices}

    Returns
    -------
    ndarray of int64 of shape (n,)
        Triangles through each vertex.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> list(triangles_on_gpu(gm.as_graph(nx.complete_graph(4)))) if gc.is_available() else [3, 3, 3, 3]
    [3, 3, 3, 3]
    """
    nthreads = resolve_threads(threads)
    workers = _workers(devices)
    with quiet():
        if workers is not None:
            from . import _cuda_multi

            return _cuda_multi.triangles(G, nthreads, workers)
        return triangles(G, nthreads)


@implements("count_cliques", "cuda", methods=("exact",), can_run=_k_fits)
@restores_threads
@fill_doc
def count_cliques_on_gpu(G, k=3, *, order=None, threads=None, devices=None):
    """The number of k-cliques of ``G``, counted on the GPU (:func:`graphmine.cuda.count_cliques`).

    Parameters
    ----------
    {registered_G, cuda_clique_k, order, cuda_threads, cuda_devices}

    Returns
    -------
    int
        The number of k-cliques.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> count_cliques_on_gpu(gm.as_graph(nx.complete_graph(6)), 4) if gc.is_available() else 15
    15
    """
    order = _check_order(order, k)
    nthreads = resolve_threads(threads)
    from . import _cuda_partition

    workers = _workers(devices)
    with quiet():
        if workers is not None:
            from . import _cuda_multi

            if k == 3:
                return _cuda_multi.count_triangles(G, nthreads, workers, order=order)
            return _cuda_multi.count_cliques(G, k, order, nthreads, workers)
        if k == 3:
            return _cuda_partition.count_triangles(G, order, nthreads)
        return count_cliques(G, k, order, nthreads)


@implements("vertex_clique_counts", "cuda", methods=("exact",), can_run=_k_fits)
@restores_threads
@fill_doc
def vertex_clique_counts_on_gpu(G, k=3, *, order=None, threads=None, devices=None):
    """The number of k-cliques through every vertex, counted on the GPU
    (:func:`graphmine.cuda.clique_counts`).

    Parameters
    ----------
    {registered_G, cuda_clique_k, order, cuda_threads, cuda_devices}

    Returns
    -------
    ndarray of int64 of shape (n,)
        k-cliques through each vertex.

    Raises
    ------
    ParameterError
        k = 3 with an order other than 'degree'.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> list(vertex_clique_counts_on_gpu(gm.as_graph(nx.complete_graph(5)), 4)) if gc.is_available() else [4] * 5
    [4, 4, 4, 4, 4]
    """
    order = _check_order(order, k)
    nthreads = resolve_threads(threads)
    if k == 3 and order != "degree":
        raise ParameterError("per-vertex triangles on the GPU use the degree order (order='degree')")
    workers = _workers(devices)
    with quiet():
        if workers is not None:
            from . import _cuda_multi

            if k == 3:
                return _cuda_multi.triangles(G, nthreads, workers)
            return np.asarray(_cuda_multi.clique_counts(G, k, order, nthreads, workers)[1])
        if k == 3:
            return triangles(G, nthreads)
        return np.asarray(clique_counts(G, k, order, nthreads)[1])


def warm(k):
    """Load what a k-clique count on the GPU loads, on a small graph (:func:`graphmine.cuda.warm_up`
    runs it in a thread while a file is read).

    Parameters
    ----------
    k : int
        The clique size whose kernels to load.

    Examples
    --------
    >>> warm(3)
    """
    from ..cuda import is_available
    from ..core.validation import as_graph

    if not is_available():
        return
    W = as_graph([(i, j) for i in range(8) for j in range(i + 1, 8) if (i + j) % 7])
    with quiet():
        if k >= 4:  # the peeled order's build (large graphs) and the clique kernel
            from ..cuda.launch import orient_peeled

            orient_peeled(W.indptr, W.indices)
            count_cliques(W, min(k, MAX_K), "degeneracy", 1)
            return
        # the build, every bin and the hub kernel: small bin bounds, without and with hubs
        count_triangles(W, "degree", 1, bounds=(0, 1, 2), hub_min=1 << 40)
        count_triangles(W, "degree", 1, bounds=(0, 1, 2), hub_min=1)
