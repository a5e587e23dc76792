"""Triangle and k-clique counting.

Exact counts come from Numba kernels over an acyclic orientation of the graph (degree order for
triangles, degeneracy order for larger cliques), in the spirit of GAPBS's ordered triangle count
and kClist. ``method`` selects exact counting or a sketch-based estimate (see
:mod:`graphmine.probgraph`).
"""

import numpy as np

from . import _clique_kernels as _ck
from ._limits import check_allocation
from ._threads import resolve_threads, restores_threads
from .exceptions import ParameterError
from . import graph as _graph
from .graph import as_graph

__all__ = ["count_triangles", "triangles", "count_cliques", "EXACT_METHODS"]

EXACT_METHODS = ("exact",)

def _serial(G, nthreads):
    return nthreads == 1 or G.n_edges < _graph.SERIAL_EDGES


def _check_k(k):
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ParameterError(f"k must be an integer >= 3, got {k!r}")
    if k < 3:
        raise ParameterError(f"k must be >= 3 (k = 1, 2 are the vertex and edge counts), got {k}")
    return int(k)


def _approximate(name, G, method, **kwargs):
    from . import probgraph

    return getattr(probgraph, name)(G, method=method, **kwargs)


def _on_gpu(device):
    """Whether to count on the GPU (``device`` 'cuda', or 'auto' with a device visible); loads no
    CUDA machinery for 'cpu'."""
    if device == "cpu":
        return False
    from .cuda._device import use_cuda

    return use_cuda(device)


@restores_threads
def count_triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles of ``G``.

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
        'exact' counts; the others estimate from neighbourhood sketches and return an
        :class:`~graphmine.probgraph.Estimate` (keywords ``budget``, ``seed``, ...).
    threads : int, optional
        Threads to use (default: all).
    device : {'cpu', 'cuda', 'auto'}
        Where to count: 'cuda' runs the kernels of :mod:`graphmine.cuda` on the GPU (raising
        :class:`~graphmine.cuda.NoCudaDeviceError` when none is visible), 'auto' picks the GPU
        when one is visible.

    Returns
    -------
    int (exact) or Estimate

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_triangles(nx.complete_graph(5))
    10
    """
    G = as_graph(G)
    if method != "exact":
        return _approximate("count_triangles", G, method, device=device, threads=threads, **kwargs)
    if kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    if _on_gpu(device):
        from . import cuda

        return cuda.count_triangles(G, threads=threads)
    nthreads = resolve_threads(threads)
    if _serial(G, nthreads) and not G.has_orientation("degree", relabel=True):
        return int(_ck._triangles_small(G.indptr, G.indices))
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return int(_ck._triangles_total_serial(O.indptr, O.indices))
    return int(_ck._triangles_total(O.indptr, O.indices, nthreads))


@restores_threads
def triangles(G, *, method="exact", threads=None, device="cpu", **kwargs):
    """The number of triangles through every vertex (int64 array of length n).

    ``device`` as in :func:`count_triangles`.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    G = as_graph(G)
    if method != "exact":
        return _approximate("triangles", G, method, device=device, threads=threads, **kwargs)
    if kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    if _on_gpu(device):
        from . import cuda

        return cuda.triangles(G, threads=threads)
    nthreads = resolve_threads(threads)
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return _ck._triangles_per_vertex_serial(O.indptr, O.indices)[O.rank]
    check_allocation(8 * (nthreads + 2) * G.n_nodes, f"per-vertex triangle counts on {nthreads} threads",
                     "use fewer threads")
    return _ck._triangles_per_vertex(O.indptr, O.indices, nthreads)[O.rank]


@restores_threads
def count_cliques(G, k=3, *, method="exact", order=None, threads=None, progress=False, device="cpu", **kwargs):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3.

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    k : int
        Clique size, >= 3.
    method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
        See :func:`count_triangles`.
    order : {'degree', 'degeneracy'}, optional
        Orientation for exact counting (default: degree for k = 3, degeneracy otherwise, whose
        out-degrees are bounded by the graph's degeneracy).
    threads : int, optional
    progress : bool
        Exact k >= 4: show a progress bar on stderr (tqdm), the work split into batches of
        about equal estimated cost (CPU only).
    device : {'cpu', 'cuda', 'auto'}
        See :func:`count_triangles`.

    Returns
    -------
    int (exact) or Estimate

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    k = _check_k(k)
    G = as_graph(G)
    if method != "exact":
        return _approximate("count_cliques", G, method, device=device, k=k, threads=threads, **kwargs)
    if kwargs:
        raise ParameterError(f"unexpected keywords for method='exact': {sorted(kwargs)}")
    if _on_gpu(device):
        from . import cuda

        return cuda.count_cliques(G, k, order=order, threads=threads)
    nthreads = resolve_threads(threads)
    if order is None:
        order = "degree" if k == 3 else "degeneracy"
    O = G.oriented(order, relabel=True, threads=nthreads)
    if O.max_out_degree < k - 1:
        return 0
    if k == 3 and order == "degree":
        if _serial(G, nthreads):
            return int(_ck._triangles_total_serial(O.indptr, O.indices))
        return int(_ck._triangles_total(O.indptr, O.indices, nthreads))
    if progress:
        return _cliques_with_progress(O, k, nthreads)
    if _serial(G, nthreads):
        return int(_ck._cliques_total_serial(O.indptr, O.indices, k, O.max_out_degree))
    return int(_ck._cliques_range(O.indptr, O.indices, k, O.max_out_degree, 0, G.n_nodes, nthreads))


def _cliques_with_progress(O, k, nthreads, batches=200):
    """The k-clique count in batches of roots of about equal estimated work, with a progress bar.

    The work rooted at u grows like d+(u)^2 (the pairs of its out-neighbours intersected), so the
    batches cut the prefix sums of d+(u)^2 into equal parts.
    """
    from ._progress import progress_bar

    d = np.diff(O.indptr).astype(np.float64)
    cost = np.cumsum(d * d)
    total = float(cost[-1]) if cost.size else 0.0
    n = O.indptr.shape[0] - 1
    cuts = np.unique(np.concatenate([[0], np.searchsorted(cost, np.linspace(0, total, batches + 1)[1:-1]), [n]]))
    count = 0
    with progress_bar(True, 100.0, f"{k}-cliques", unit="%",
                      bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}") as bar:
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            count += int(_ck._cliques_range(O.indptr, O.indices, k, O.max_out_degree, int(lo), int(hi), nthreads))
            done = float(cost[hi - 1]) if hi > 0 else 0.0
            bar.update(100.0 * done / total - bar.n if total else 0.0)
    return count
