"""Exact triangle and k-clique counting on the CPU.

Exact counts come from Numba kernels over an acyclic orientation of the graph (degree order for
triangles, degeneracy order for larger cliques), in the spirit of GAPBS's ordered triangle count
and kClist. This is the algorithm family; :func:`graphmine.count_triangles` and its siblings (in
:mod:`graphmine.cliques`) add ``method=`` (sketch estimates of :mod:`graphmine.probgraph`) and
``device=`` (:mod:`graphmine.cuda`) on top.
"""

import sys
import time

import numpy as np

from .._primitives import small_work as _sw
from .._runtime.lazy import lazy_module
from .._runtime.docs import fill_doc
from .._runtime.interrupt import cancel_flag, check as _check_interrupt, interruptible
from .._runtime.limits import check_allocation
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError
from ..core.graph import SERIAL_EDGES
from ..core.validation import as_graph, check_k
from ..core.registry import declare, implements

__all__ = ["count_triangles", "triangles", "count_cliques", "list_triangles"]


@lazy_module
def _ck():
    # the counting kernels (and numba) load with the first count too large for numpy
    from . import _clique_kernels

    return _clique_kernels


# On 2 threads or fewer (SMALL_WORK_MAX_THREADS), triangle counts (total and per vertex) of graphs
# up to this many edges run on one thread: they take a few milliseconds (email-Enron's per-vertex
# count 4.3 ms on one thread against 2.8-3.2 ms on two idle cores), and on a busy 2-core machine
# the parallel region's second thread waits for a core (the same counts took 20-100 ms on two
# threads at load 2-4, in the middle of a benchmark's rounds)
SMALL_TRIANGLE_EDGES = 1 << 18


def _serial(G, nthreads):
    return (nthreads == 1 or G.n_edges < SERIAL_EDGES
            or nthreads <= SMALL_WORK_MAX_THREADS and G.n_edges <= SMALL_TRIANGLE_EDGES)


def _small_work(G, k, order, budget):
    """The rank-space orientation of ``G`` when its k-cliques are counted on numpy within
    ``budget`` candidates (little work, or a kernel that is not loaded yet and moderate work: see
    graphmine/_primitives/small_work.py), else None. The orientation is ``order``'s (default: degree, which
    numpy builds without a kernel; the count does not depend on it)."""
    if G.n_edges > _sw.SMALL_EDGES:
        return None
    O = G.oriented(order or "degree", relabel=True)
    if k == 3 and _sw.triangle_work(O.indptr, O.indices) > budget:
        return None
    return O


# candidates the triangle family has checked on numpy in this process while numba was not imported
_COLD_SPENT = [0]


def _numba_loaded():
    return "numba" in sys.modules


def _cold_small_work(G, threads):
    """The degree orientation of ``G`` when its triangles are counted on numpy because numba is
    not imported yet (and no thread count is asked for, which would import it), else None.

    A kernel's first call would cost that import too, 0.3-0.4 s of CPU on the 2-core machine, in
    which numpy checks about SMALL_WORK_COLD candidates; so numpy counts while its total work in
    this process stays below that (rent until the rent reaches the price: never more than twice
    the better of the two choices made in hindsight), and the kernels count after that.
    """
    if threads is not None or _numba_loaded() or G.n_edges > _sw.SMALL_EDGES:
        return None
    O = G.oriented("degree", relabel=True)
    work = _sw.triangle_work(O.indptr, O.indices)
    if _COLD_SPENT[0] + work > _sw.SMALL_WORK_COLD:
        return None
    _COLD_SPENT[0] += work
    return O


# kernels whose small counts ran on numpy once in this process (the next ones load the kernel)
_NUMPY_RAN = set()


def _small_count(G, k, order, nthreads):
    """The k-clique count of a graph with little work, on numpy; None otherwise."""
    serial = _serial(G, nthreads)
    if k == 3:
        kernel = _ck._triangles_total_serial if serial else _ck._triangles_total
    else:
        kernel = _ck._cliques_serial if serial else _ck._cliques_range
    if kernel.overloads or kernel in _NUMPY_RAN:
        # loaded in this process, or a second small count here: the kernel (loaded once) beats
        # numpy at any size (ca-GrQc, k = 4: numpy's level-by-level listing 40 ms of CPU a call,
        # the serial kernel 0.7 ms after the degeneracy order's 2 ms)
        return None
    _NUMPY_RAN.add(kernel)
    budget = _sw.work_budget(kernel)
    O = _small_work(G, k, order, budget)
    return None if O is None else _sw.clique_count(O.indptr, O.indices, k, budget)


def _checked(result):
    """``result`` of a kernel that polls the cancel flag, unless the call was interrupted (the
    kernel then stopped early: its result is partial)."""
    _check_interrupt()
    return int(result) if np.ndim(result) == 0 else result


@implements("count_triangles", "cpu")
@interruptible
@restores_threads
@fill_doc
def count_triangles(G, *, threads=None):
    """The number of triangles of ``G`` (exact, CPU).

    Counts each triangle once, from its lowest vertex in the degree order (ids relabelled by
    rank): no vertex then has more than :math:`\\sqrt{2m}` higher-ranked neighbours.

    {Parameters: G, threads}

    Returns
    -------
    int
        The number of triangles.

    Examples
    --------
    >>> import networkx as nx
    >>> count_triangles(nx.complete_graph(5))
    10
    """
    G = as_graph(G)
    if threads is not None:
        resolve_threads(threads)  # a bad thread count is refused even when the count is kept
    return G.cached_result("triangle_count", lambda: _triangle_count(G, threads))


def _triangle_count(G, threads):
    """The triangle count of :func:`count_triangles` (kept on the graph by it)."""
    tri = G.cached_result("triangles", None)
    if tri is not None:
        # per-vertex counts kept: every triangle is counted at each of its three vertices
        return int(tri.sum()) // 3
    O = _cold_small_work(G, threads)
    if O is not None:
        return _sw.clique_count(O.indptr, O.indices, 3, _sw.SMALL_WORK_COLD)
    nthreads = resolve_threads(threads)
    small = _small_count(G, 3, "degree", nthreads)
    if small is not None:
        return small
    if _serial(G, nthreads) and not G.has_orientation("degree", relabel=True):
        return int(_ck._triangles_small(G.indptr, G.indices))
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return int(_ck._triangles_total_serial(O.indptr, O.indices))
    return _checked(_ck._triangles_total(O.indptr, O.indices, nthreads, cancel_flag()))


@implements("triangles", "cpu")
@interruptible
@restores_threads
@fill_doc
def triangles(G, *, threads=None):
    """The number of triangles through every vertex (exact, CPU).

    Each triangle found from its lowest vertex in the degree order credits all three of its
    vertices.

    {Parameters: G, threads}

    Returns
    -------
    ndarray of int64 of shape (n,)
        ``t[v]``, the number of triangles containing vertex ``v``.

    Examples
    --------
    >>> import networkx as nx
    >>> triangles(nx.complete_graph(4))
    array([3, 3, 3, 3])
    """
    G = as_graph(G)
    if threads is not None:
        resolve_threads(threads)  # a bad thread count is refused even when the counts are kept
    return G.cached_result("triangles", lambda: _vertex_triangles(G, threads)).copy()


# candidates that per-vertex triangle counts looked at on numpy in this process while the kernel
# they stood in for was not loaded, by kernel
_NUMPY_SPENT = {}


def _numpy_vertex_triangles(G, kernel):
    """The degree orientation of ``G`` when its per-vertex triangles are counted on numpy rather
    than by ``kernel``, else None.

    Rent or buy, as :func:`_cold_small_work`: numpy while the work it has done in this process
    for ``kernel``, this count's included, stays within what loading or compiling the kernel
    would cost (:func:`graphmine._primitives.small_work.work_budget`); the kernel from then on,
    and at once when it is loaded already (a loaded kernel beats numpy at any size: email-Enron,
    40 ms on numpy against 3 ms). Without the account a kernel never loaded was never chosen,
    and every call paid numpy's time (7-15x the total count's on facebook_combined, ca-HepPh and
    email-Enron)."""
    if kernel.overloads or G.n_edges > _sw.SMALL_EDGES:
        return None
    O = G.oriented("degree", relabel=True)
    work = _sw.triangle_work(O.indptr, O.indices)
    spent = _NUMPY_SPENT.get(kernel, 0) + work
    if spent > _sw.work_budget(kernel):
        return None
    _NUMPY_SPENT[kernel] = spent
    return O


def _vertex_triangles(G, threads):
    """The per-vertex triangles of :func:`triangles` (kept on the graph by it)."""
    O = _cold_small_work(G, threads)
    if O is None:
        nthreads = resolve_threads(threads)
        kernel = _ck._triangles_per_vertex_serial if _serial(G, nthreads) else _ck._triangles_per_vertex
        O = _numpy_vertex_triangles(G, kernel)
    if O is not None:
        return _sw.triangles_per_vertex(O.indptr, O.indices)[O.rank]
    O = G.oriented("degree", relabel=True, threads=nthreads)
    if _serial(G, nthreads):
        return _ck._triangles_per_vertex_serial(O.indptr, O.indices)[O.rank]
    check_allocation(8 * (nthreads + 2) * G.n_nodes, f"per-vertex triangle counts on {nthreads} threads",
                     "use fewer threads")
    return _checked(_ck._triangles_per_vertex(O.indptr, O.indices, nthreads, cancel_flag()))[O.rank]


@implements("count_cliques", "cpu")
@interruptible
@restores_threads
@fill_doc
def count_cliques(G, k=3, *, order=None, threads=None, progress=False):
    """The number of k-cliques (complete subgraphs on k vertices) of ``G``, for any k >= 3
    (exact, CPU).

    Parameters
    ----------
    {G, k}
    order : {'degree', 'degeneracy', 'approx-degeneracy'}, optional
        Orientation for exact counting (default: degree for k = 3; otherwise degeneracy, whose
        out-degrees are bounded by the graph's degeneracy, or on 4 threads or more and 2^19
        edges or more its approximation, built in parallel; see :meth:`Graph.oriented`).
    {threads}
        An upper bound: on 2 threads or fewer, a count with little work (estimated from the
        orientation's out-degrees, or for k >= 5 of moderate estimate measured on its densest
        roots) runs on one thread; with more threads every count uses them all.
    progress : bool
        Exact k >= 4: show a progress bar on stderr (tqdm). The count runs in batches of roots
        of about 0.2 s each (Ctrl-C is seen between them); the bar shows the share of the time,
        estimated from the rate so far.

    Returns
    -------
    int
        The number of k-vertex complete subgraphs.

    Examples
    --------
    >>> import networkx as nx
    >>> count_cliques(nx.complete_graph(6), k=4)  # C(6, 4)
    15
    """
    k = check_k(k)
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    small = _small_count(G, k, order, nthreads)
    if small is not None:
        return small
    if order is None:
        order = "degree" if k == 3 else _clique_order(G, nthreads)
    if k == 3 and order == "degree" and _serial(G, nthreads) and not G.has_orientation("degree", relabel=True):
        # a small graph: one kernel, no orientation to build (and none to load from numba's cache)
        return int(_ck._triangles_small(G.indptr, G.indices))
    O = G.oriented(order, relabel=True, threads=nthreads)
    _check_interrupt()
    if O.max_out_degree < k - 1:
        return 0
    if k == 3 and order == "degree":
        if _serial(G, nthreads):
            return int(_ck._triangles_total_serial(O.indptr, O.indices))
        return _checked(_ck._triangles_total(O.indptr, O.indices, nthreads, cancel_flag()))
    if _serial(G, nthreads) and G.n_edges < SERIAL_EDGES and not progress:
        return int(_ck._cliques_serial(O.indptr, O.indices, k, O.max_out_degree, 0, G.n_nodes))
    small = _small_clique_work(O, k, nthreads)
    if small and not progress:
        # little work (some ten milliseconds at most): the serial twin, no parallel region to wait
        # for (Ctrl-C is seen after it). A large count on threads=1 still runs in batches.
        return int(_ck._cliques_serial(O.indptr, O.indices, k, O.max_out_degree, 0, G.n_nodes))
    return _cliques_in_batches(O, k, 1 if small else nthreads, progress)


# Below this estimated work (the sum over roots of d+(u)^2 + 1 in the orientation) a k-clique count
# runs on one thread: it then takes a few tens of milliseconds, and a parallel region whose second
# thread lands on a busy core waits a scheduler time slice for it (facebook_combined, k = 4, 2
# threads at load 2-3: 0.09 s against 0.031 s on one). The index is k: k = 4 has the work of about
# one bit-matrix row per pair; k >= 5 lists deeper below the same matrices (ca-HepPh: 11x the k = 4
# time at the same estimate), so its bound is lower. Measured on 2 threads: docs/cliques.md.
SMALL_CLIQUE_WORK = 8.0e6  # k <= 4
SMALL_CLIQUE_WORK_DEEP = 1.0e6  # k >= 5
# k >= 5 between the two bounds: the estimate says little about the time (email-Enron, k = 5:
# 41 ms on one thread; ca-HepPh at 2.3 times its estimate: 591 ms), so the first batch runs on one
# thread and measures the rate; a rest predicted below this many seconds stays on that thread. On
# the loaded 2-core machine a parallel region of a fraction of a millisecond's work took 30-60 ms
# (its second thread waiting for a core), so each region saved counts only where the work is long
SMALL_CLIQUE_SECONDS = 0.12
# The one-thread shortcuts above apply up to this many threads. They answer an oversubscribed
# core: with 2 threads a parallel region can at best halve a count, and its second thread on a
# busy core costs a scheduler slice. On 16 idle cores (the H200 host) every thread count was
# faster than the one below it, down to counts of 0.4 ms (ca-GrQc, k = 4: 0.8 ms on 1 thread,
# 0.4 on 16; email-Enron, k = 4: 30.6 against 2.7 ms), so from 3 threads on the count runs on
# every thread asked for (docs/cliques.md)
SMALL_WORK_MAX_THREADS = 2

# From this many threads and edges on, k >= 4 counts orient by the approximate degeneracy order:
# its rounds update degrees in parallel, where the exact order is one serial peel. 16 threads on
# the H200 host, orientation ms exact / approximate: Kronecker 14 (213k edges) 4.0 / 10.1,
# email-Enron (184k) 4.7 / 10.1, Kronecker 16 (909k) 26.9 / 5.9, Kronecker 18 (3.8M) 129 / 24;
# the count on the approximate order (out-degrees 1.0-1.2x) 0-10% slower (docs/cliques.md)
APPROX_ORDER_MIN_THREADS = 4
APPROX_ORDER_MIN_EDGES = 1 << 19


def _clique_order(G, nthreads):
    """The default orientation of a k >= 4 count: one cached already, else the approximate
    degeneracy order for large graphs on many threads, else the exact one."""
    for order in ("degeneracy", "approx-degeneracy"):
        if G.has_orientation(order, relabel=True):
            return order
    if nthreads >= APPROX_ORDER_MIN_THREADS and G.n_edges >= APPROX_ORDER_MIN_EDGES:
        return "approx-degeneracy"
    return "degeneracy"


def _clique_work(O):
    """The estimated work of a k-clique count over orientation ``O``: sum of d+(u)^2 + 1."""
    # not np.dot: a BLAS call wakes OpenBLAS's thread pool, whose threads then spin for a while
    # and take a core from the count (email-Enron: as much CPU as the count itself)
    d = np.diff(O.indptr).astype(np.float64)
    return float(np.add.reduce(d * d)) + d.shape[0]


def _small_clique_work(O, k, nthreads):
    """Whether the k-clique count over ``O`` on ``nthreads`` threads stays on one: little work,
    and few threads asked for (SMALL_WORK_MAX_THREADS)."""
    if nthreads > SMALL_WORK_MAX_THREADS:
        return False
    return _clique_work(O) < (SMALL_CLIQUE_WORK if k <= 4 else SMALL_CLIQUE_WORK_DEEP)


# a batch of roots is sized to take about this long, so that Ctrl-C (checked between batches)
# is seen within about a second and a progress bar moves; the parallel region's start costs
# ~50 us, nothing next to a batch
BATCH_SECONDS = 0.2
# the smallest batch, in estimated work units (d+(u)^2 + 1 per root): a few milliseconds of work
MIN_BATCH = float(1 << 20)


def _cliques_in_batches(O, k, nthreads, progress):
    """The k-clique count in batches of roots of about BATCH_SECONDS each, with an optional
    progress bar; Ctrl-C is seen between batches.

    The work rooted at u is estimated by d+(u)^2 + 1 (the pairs of its out-neighbours
    intersected); the batches start at the high end of the order, where a degeneracy order puts
    the dense core and the estimate errs most, and each is sized by the rate measured on the
    ones before it (growing at most 4x from one batch to the next). The bar shows the measured
    share of the time: the estimated work done, each part weighted by the rate at which it ran.
    """
    from .._runtime.progress import progress_bar

    d = np.diff(O.indptr).astype(np.float64)
    cost = np.concatenate([[0.0], np.cumsum(d * d + 1.0)])  # cost[u]: the roots below u
    total = float(cost[-1])
    n = O.indptr.shape[0] - 1
    count = 0
    hi = n
    # the first batch: small, to measure the rate on the densest roots, but not below MIN_BATCH:
    # each batch starts a parallel region, whose threads wake late on a busy machine (and spin
    # after it, taking CPU from whatever runs next)
    step = max(total / 4096, MIN_BATCH)
    # moderate work (k >= 5 below SMALL_CLIQUE_WORK): the first batch on this thread; the rest too
    # if the rate measured there says it is short (see SMALL_CLIQUE_SECONDS)
    probe = 1 < nthreads <= SMALL_WORK_MAX_THREADS and not progress and total < SMALL_CLIQUE_WORK
    if probe:
        step = MIN_BATCH / 4  # a few milliseconds on one thread where the rest is short
    with progress_bar(progress, 100.0, f"{k}-cliques", unit="%",
                      bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}") as bar:
        while hi > 0:
            _check_interrupt()
            lo = int(np.searchsorted(cost, cost[hi] - step, side="left"))
            lo = min(max(lo, 0), hi - 1)
            t0 = time.perf_counter()
            if nthreads == 1 or probe:
                count += int(_ck._cliques_serial(O.indptr, O.indices, k, O.max_out_degree, lo, hi))
            else:
                count += int(_ck._cliques_range(O.indptr, O.indices, k, O.max_out_degree, lo, hi, nthreads))
            seconds = time.perf_counter() - t0
            done = cost[hi] - cost[lo]
            hi = lo
            rate = done / max(seconds, 1e-6)
            step = min(4.0 * done, rate * BATCH_SECONDS)
            if probe:
                probe = False
                if hi > 0 and cost[hi] / rate < SMALL_CLIQUE_SECONDS:
                    _check_interrupt()
                    count += int(_ck._cliques_serial(O.indptr, O.indices, k, O.max_out_degree, 0, hi))
                    hi = 0
            if not bar.disable:
                # the rest at the rate of the last batch: the fraction of the time spent so far
                spent = bar.format_dict["elapsed"] or seconds
                left = cost[hi] / rate
                bar.update(100.0 * spent / (spent + left) - bar.n)
    return count


@declare("every triangle, listed", cpu=True)
@interruptible
@fill_doc
def list_triangles(G):
    """Every triangle of ``G`` once, as rows of three vertex numbers.

    {Parameters: G}

    Returns
    -------
    ndarray of int64 of shape (T, 3)
        One row (a, b, c) with a < b < c per triangle, rows in lexicographic order; the vertex
        numbers index ``G.node_ids``.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.list_triangles(nx.complete_graph(4)).tolist()
    [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    """
    O = as_graph(G).oriented("degree")
    tri = _ck._list_triangles(O.indptr, O.indices)
    return tri[np.lexsort(tri.T[::-1])]


def count_kernels(k, threads, file_bytes):
    """The kernels an exact count of k >= 4 calls first on a graph read from a file of
    ``file_bytes``: the serial k-clique kernel, the exact degeneracy order's below
    APPROX_ORDER_MIN_THREADS threads (from there on large graphs take its approximation), and for
    k >= 5 on several threads and a file of more than 2 MiB the parallel k-clique kernel (such a
    count measures its rate on one thread, then goes on in parallel; a k = 4 count of that size
    stays on one thread on 2 cores: email-Enron)."""
    import os

    nthreads = threads or os.cpu_count() or 1
    kernels = [_ck._cliques_serial] if k >= 4 else []
    if k >= 4 and nthreads < APPROX_ORDER_MIN_THREADS:
        from .._primitives import order_kernels

        kernels.append(order_kernels._degeneracy_oriented)
    if k >= 5 and nthreads > 1 and file_bytes > (1 << 21):
        kernels.append(_ck._cliques_range)
    return kernels


def narrow_indices(signature):
    """Whether a signature of the kernels of :func:`count_kernels` is the one of graphs with int32
    ``indices`` (every graph below 2^31 - 1 vertices): numba's cache may hold the int64 one too,
    whose load (15-50 ms of CPU a kernel) such a count would spend for nothing."""
    return len(signature) > 1 and getattr(getattr(signature[1], "dtype", None), "name", "") == "int32"
