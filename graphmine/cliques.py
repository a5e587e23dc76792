"""Exact triangle and k-clique counting on the CPU.

Exact counts come from Numba kernels over an acyclic orientation of the graph (degree order for
triangles, degeneracy order for larger cliques), in the spirit of GAPBS's ordered triangle count
and kClist. This is the algorithm family; :func:`graphmine.count_triangles` and its siblings (in
:mod:`graphmine.dispatch`) add ``method=`` (sketch estimates of :mod:`graphmine.probgraph`) and
``device=`` (:mod:`graphmine.cuda`) on top.
"""

import numpy as np

from . import _clique_kernels as _ck
from ._limits import check_allocation
from ._threads import resolve_threads, restores_threads
from .exceptions import ParameterError
from .graph import SERIAL_EDGES
from .validation import as_graph

__all__ = ["count_triangles", "triangles", "count_cliques", "check_k"]


def _serial(G, nthreads):
    return nthreads == 1 or G.n_edges < SERIAL_EDGES


def check_k(k):
    """``k`` as an int, or ParameterError unless it is an integer >= 3 (a clique size).

    Examples
    --------
    >>> check_k(4)
    4
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ParameterError(f"k must be an integer >= 3, got {k!r}")
    if k < 3:
        raise ParameterError(f"k must be >= 3 (k = 1, 2 are the vertex and edge counts), got {k}")
    return int(k)


@restores_threads
def count_triangles(G, *, threads=None):
    """The number of triangles of ``G`` (exact, CPU).

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    threads : int, optional
        Threads to use (default: all).

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> count_triangles(nx.complete_graph(5))
    10
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if _serial(G, nthreads) and not G.has_orientation("degree", relabel=True):
        return int(_ck._triangles_small(G.indptr, G.indices))
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return int(_ck._triangles_total_serial(O.indptr, O.indices))
    return int(_ck._triangles_total(O.indptr, O.indices, nthreads))


@restores_threads
def triangles(G, *, threads=None):
    """The number of triangles through every vertex (int64 array of length n; exact, CPU).

    Examples
    --------
    >>> import networkx as nx
    >>> triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return _ck._triangles_per_vertex_serial(O.indptr, O.indices)[O.rank]
    check_allocation(8 * (nthreads + 2) * G.n_nodes, f"per-vertex triangle counts on {nthreads} threads",
                     "use fewer threads")
    return _ck._triangles_per_vertex(O.indptr, O.indices, nthreads)[O.rank]


@restores_threads
def count_cliques(G, k=3, *, order=None, threads=None, progress=False):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3
    (exact, CPU).

    Parameters
    ----------
    G : Graph or anything :func:`graphmine.as_graph` accepts
    k : int
        Clique size, >= 3.
    order : {'degree', 'degeneracy'}, optional
        Orientation for exact counting (default: degree for k = 3, degeneracy otherwise, whose
        out-degrees are bounded by the graph's degeneracy).
    threads : int, optional
    progress : bool
        Exact k >= 4: show a progress bar on stderr (tqdm), the work split into batches of
        about equal estimated cost.

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    k = check_k(k)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if order is None:
        order = "degree" if k == 3 else "degeneracy"
    if k == 3 and order == "degree" and _serial(G, nthreads) and not G.has_orientation("degree", relabel=True):
        # a small graph: one kernel, no orientation to build (and none to load from numba's cache)
        return int(_ck._triangles_small(G.indptr, G.indices))
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
