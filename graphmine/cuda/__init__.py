"""Exact triangle and k-clique counting and Bloom-filter triangle estimates on a CUDA GPU.

The kernels (numba-cuda) run over the same oriented CSR as the CPU kernels (ids relabelled by
rank: degree order for triangles, degeneracy order for larger cliques), copied to the GPU once and
cached on the graph; :func:`release` frees that copy. The usual entry points are the ``device=``
keyword of :func:`graphmine.count_triangles`, :func:`graphmine.triangles`,
:func:`graphmine.count_cliques`, the clustering functions and
:func:`graphmine.probgraph.count_triangles` (``method='bloom'``); the functions here are the same
counts with the GPU asked for explicitly.

Importing this package does not load ``numba.cuda``; the first GPU call does. Without a visible
device the calls raise :class:`NoCudaDeviceError`. Under ``NUMBA_ENABLE_CUDASIM=1`` (set before
numba.cuda is first imported) the kernels run in numba's CUDA simulator, slowly, for testing.
"""

from .._runtime.docs import fill_doc
from ..core.exceptions import ParameterError
from ..core.registry import call, implementations
from ..core.validation import check_k
from ._device import (AUTO_MIN_EDGES, DEVICES, NoCudaDeviceError, auto_min_edges, check_device, is_available,
                      preflight, release, require_device, use_cuda)

__all__ = ["count_triangles", "triangles", "count_cliques", "clique_counts", "is_available", "preflight", "release", "use_cuda", "warm_up",
           "auto_min_edges", "NoCudaDeviceError", "DEVICES", "AUTO_MIN_EDGES", "MAX_K"]

MAX_K = 35  # deepest clique search of the k-clique kernel (its per-thread cursor arrays)


@fill_doc
def count_triangles(G, *, order="degree", threads=None, devices=None):
    """The number of triangles of ``G``, counted on the GPU.

    Parameters
    ----------
    {G}
    order : {'degree', 'degeneracy'}, default 'degree'
        Orientation (the degree order is built on the GPU, the degeneracy order on the CPU;
        cached on the graph).
    {cuda_threads, cuda_devices}

    Returns
    -------
    int
        The number of triangles.

    {cuda_raises_section}

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> gc.count_triangles(nx.complete_graph(5)) if gc.is_available() else 10
    10
    """
    return call("count_triangles", G, method="exact", device="cuda", order=order, threads=threads,
                devices=devices)


@fill_doc
def triangles(G, *, threads=None, devices=None):
    """Triangles through every vertex, counted on the GPU.

    Parameters
    ----------
    {G, cuda_threads, cuda_devices}

    Returns
    -------
    ndarray of int64 of shape (n,)
        Triangles through each vertex.

    {cuda_raises_section}

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> list(gc.triangles(nx.complete_graph(4))) if gc.is_available() else [3, 3, 3, 3]
    [3, 3, 3, 3]
    """
    return call("triangles", G, method="exact", device="cuda", threads=threads, devices=devices)


def _checked_k(k):
    k = check_k(k)
    if k > MAX_K:
        raise ParameterError(f"device='cuda' counts k-cliques up to k = {MAX_K}, got k = {k}; use device='cpu'")
    return k


@fill_doc
def count_cliques(G, k=3, *, order=None, threads=None, devices=None):
    """The number of k-cliques of ``G``, counted on the GPU.

    For k >= 4 on several GPUs every GPU holds the whole oriented graph and counts a share of
    the root vertices.

    Parameters
    ----------
    {G, cuda_clique_k, order, cuda_threads, cuda_devices}

    Returns
    -------
    int
        The number of k-cliques.

    {cuda_clique_raises_section}

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> gc.count_cliques(nx.complete_graph(6), 4) if gc.is_available() else 15
    15
    """
    return call("count_cliques", G, k=_checked_k(k), method="exact", device="cuda", order=order, threads=threads,
                devices=devices)


@fill_doc
def clique_counts(G, k=3, *, order=None, threads=None, devices=None):
    """The number of k-cliques through every vertex, counted on the GPU.

    k = 3 is :func:`triangles`; the entries sum to k times :func:`count_cliques`.

    Parameters
    ----------
    {G, cuda_clique_k, order, cuda_threads, cuda_devices}

    Returns
    -------
    ndarray of int64 of shape (n,)
        k-cliques through each vertex.

    {cuda_clique_raises_section}

    Examples
    --------
    >>> import networkx as nx, graphmine.cuda as gc
    >>> list(gc.clique_counts(nx.complete_graph(5), 4)) if gc.is_available() else [4, 4, 4, 4, 4]
    [4, 4, 4, 4, 4]
    """
    return call("vertex_clique_counts", G, k=_checked_k(k), method="exact", device="cuda", order=order,
                threads=threads, devices=devices)


def warm_up(k=3):
    """Load the CUDA machinery and the kernels of a k-clique count in a background thread.

    Importing numba.cuda, creating the context and loading the kernels from numba's disk cache
    take about a second; started before a large file is read (the reading kernels release the
    GIL), that second overlaps the read. Errors are left to the count itself, which meets them
    again.

    Parameters
    ----------
    k : int, default 3
        The clique size whose kernels to load.

    Returns
    -------
    threading.Thread
        The started thread (``join()`` it before counting; its ``seconds`` then says how long
        the warm-up took). Without a device it returns at once.

    Examples
    --------
    >>> import graphmine.cuda as gc
    >>> gc.warm_up(3).join()
    """
    import sys
    import threading
    import time

    from .._runtime.startup import in_background

    def work():
        t0 = time.perf_counter()
        try:
            if is_available():
                # the implementation's module holds its warm-up (graphmine/cliques/_cuda.py)
                impl = next(i.function for i in implementations("count_cliques", "cuda") if "exact" in i.methods)
                sys.modules[impl.__module__].warm(k)
        finally:
            threading.current_thread().seconds = time.perf_counter() - t0

    return in_background(work, "graphmine-cuda-warm-up")
