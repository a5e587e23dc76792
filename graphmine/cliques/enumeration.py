"""Maximal cliques and the listing of all cliques by size (exact, CPU).

Maximal cliques come from Bron-Kerbosch with Tomita pivoting, started from every vertex in the
degeneracy order (Eppstein, Löffler & Strash 2010), in compiled kernels
(:mod:`graphmine.cliques._maximal_kernels`) whose memory is bounded by the candidate sets of one search
(O(D (D + degree) / 64) words per thread, D the degeneracy), not by the number of cliques: the
generator :func:`maximal_cliques` receives them in batches of whole search roots.
"""

import threading
from itertools import chain, repeat
from operator import add

import numba
import numpy as np

from .._primitives.small_work import unique_ints
from . import _maximal_kernels as _mk
from .._runtime.docs import fill_doc
from .._runtime.limits import check_allocation
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_int
from ..core.validation import as_graph
from .._runtime.interrupt import interruptible
from ..core.registry import declare

__all__ = ["maximal_cliques", "maximal_clique_batches", "count_maximal_cliques", "node_clique_number", "enumerate_cliques",
           "list_cliques", "clique_communities"]

# vertices written per batch of the generators
BATCH = 1 << 20
# maximal_cliques: a clique sharing fewer than its size - TAIL_MAX members with the one before it
# starts a new run of cliques with a common prefix (2-32 measured on facebook_combined: 8 best)
TAIL_MAX = 8
# maximal_cliques' searching threads at most (facebook_combined's first million cliques on the
# H200 host, threads = 2 / 4 / 8 / 16: 0.67 / 0.72 / 0.65 / 0.84 s; docs/cliques.md)
LIST_SEARCH_THREADS = 7


def _setup(G):
    O = G.oriented("degeneracy", relabel=True, threads=1)
    maxdeg = int(G.degree.max()) if G.n_nodes else 0
    return O.rank, O.max_out_degree, maxdeg


def _search_roots(G, rank):
    """The roots of the maximal-clique search by decreasing number of later neighbours (the
    largest searches first, so that the threads end together)."""
    O = G.oriented("degeneracy", relabel=True, threads=1)
    later = np.diff(O.indptr)[rank]
    return np.argsort(-later, kind="stable").astype(np.int64)


def _run_ahead(step):
    """Yield step()'s results, computing the next one in a helper thread while the caller
    consumes the last (the kernels release the GIL); the helper ends with the generator. The
    first runs here: numba's threading layer is chosen by then, and with 'workqueue', which
    cannot run kernels from two threads at once, every step runs here."""
    from concurrent.futures import ThreadPoolExecutor

    result = step()
    if result[-1] or numba.threading_layer() == "workqueue":
        yield result
        if not result[-1]:
            yield from _serial(step)
        return
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmine-cliques")
    started = threading.Event()

    def ahead():
        started.set()  # from here to the kernel's start, a few microseconds of Python
        return step()

    def submit():
        # the caller hands a batch on once the helper runs: the caller's conversion (C loops
        # that hold the GIL for a whole batch) would otherwise keep the helper from starting
        # its kernel until the batch is converted, and search and conversion would alternate
        started.clear()
        future = pool.submit(ahead)
        started.wait()
        return future

    pending = submit()
    try:
        while True:
            yield result
            if pending is None:
                return
            result = pending.result()
            pending = None if result[-1] else submit()
    finally:
        if pending is not None:
            pending.cancel()
            try:
                pending.result()
            except BaseException:
                pass
        pool.shutdown(wait=True)


@restores_threads
def _thread_count(threads):
    return resolve_threads(threads)


def _batch_setup(G, batch, nthreads):
    """A function computing the next batch of maximal cliques on ``nthreads`` threads (in
    whichever thread calls it; numba's setting of that thread is restored)."""
    rank, maxp, maxdeg = _setup(G)
    roots = _search_roots(G, rank)
    # each thread's buffer holds the largest clique (degeneracy + 1 vertices) at least
    cap = max(int(batch) // nthreads, maxp + 1)
    if batch > BATCH:  # the default's 16 MiB always pass
        check_allocation(16 * nthreads * cap, "the maximal-clique buffers", "pass a smaller batch")
    states = _mk._bk_states(nthreads, maxp, maxdeg)
    counter = np.zeros(1, np.int64)

    def step():
        before = numba.get_num_threads()
        if before != nthreads:  # a parallel region of more threads than prange items waits for them
            numba.set_num_threads(nthreads)
        try:
            return _mk._maximal_batch(G.indptr, G.indices, rank, roots, counter, states, cap, nthreads)
        finally:
            if before != nthreads:
                numba.set_num_threads(before)
    return step


@fill_doc
def maximal_clique_batches(G, *, batch=BATCH, threads=None, ahead=True):
    """Every maximal clique of ``G`` once, in batches of at most about ``batch`` vertices: a
    generator of (vertices, sizes) int64 arrays, the cliques one after another in ``vertices``
    and their numbers of vertices in ``sizes``.

    ``threads`` threads search from the roots of the degeneracy order, each writing into its own
    buffer of ``batch / threads`` vertices (at least the degeneracy + 1); a thread whose buffer is
    full pauses its search and resumes it in the next batch, so memory is bounded by the buffers
    and the candidate sets, not by the number of cliques. With ``ahead`` the next batch is
    computed in a helper thread while the caller handles the last; the caller's thread then
    counts as one of ``threads`` (the search runs on ``threads - 1``, at least 1).

    {Parameters: G}
    batch : int
        Vertices per batch (all threads together).
    threads : int, optional
        Threads, the caller's included (default None: numba's current setting).
    ahead : bool, default True
        Compute one batch ahead in a helper thread.

    Yields
    ------
    (ndarray of int64, ndarray of int64)
        ``vertices``, the members of the batch's cliques one clique after another, and
        ``sizes``, the number of members of each clique.

    Examples
    --------
    >>> import networkx as nx
    >>> [(v.tolist(), s.tolist()) for v, s in maximal_clique_batches(nx.path_graph(3), threads=1)]
    [([0, 1, 2, 1], [2, 2])]
    """
    batch = check_int("batch", batch, 1)
    G = as_graph(G)
    nthreads = _thread_count(threads)
    for verts, sizes, _ in _batches(G, batch, nthreads, ahead):
        yield verts, sizes


def _batches(G, batch, nthreads, ahead):
    """:func:`maximal_clique_batches`' batches with, per clique, the number of leading members it
    shares with the clique before it (0 for the first of a search's stretch in the batch)."""
    if G.n_nodes == 0:
        return
    step = _batch_setup(G, batch, max(1, nthreads - 1) if ahead else nthreads)
    for verts, sizes, shared, _, _ in (_run_ahead(step) if ahead else _serial(step)):
        if sizes.shape[0]:
            yield verts, sizes, shared


def _serial(step):
    while True:
        result = step()
        yield result
        if result[-1]:
            return


@declare("maximal cliques (Bron-Kerbosch)", cpu=True)
@fill_doc
def maximal_cliques(G, *, nodes=None, batch=BATCH, threads=None, labels=None):
    """Every maximal clique of ``G`` once, as a list of vertex numbers (an iterator).

    The cliques are computed in parallel batches of about ``batch`` vertices
    (:func:`maximal_clique_batches`, one batch ahead in a helper thread), so memory stays
    bounded however many cliques there are. Each batch becomes lists in a few passes: consecutive
    cliques of one search share the members chosen above their branch, so each clique is its
    run's prefix plus its own few last members (each looked up in ``labels`` once per run), and
    the iterator hands them on without a Python frame per clique. The order of the cliques, and of
    the vertices in a clique, is unspecified.

    Parameters
    ----------
    {G}
    nodes : sequence of int, optional
        Only the maximal cliques that contain all of these vertices (they must form a clique),
        as ``networkx.find_cliques(G, nodes)``: the maximal cliques of the subgraph on their
        common neighbours, each with ``nodes`` put in front. None or empty: every maximal clique.
    batch : int
        Vertices per batch.
    threads : int, optional
        Threads, the caller's included (default None: numba's current setting).
    labels : ndarray of object, optional
        What to yield for each vertex (default: its number), e.g. ``G.node_ids.astype(object)``.

    Returns
    -------
    iterator of list
        Each maximal clique once, as a list of the ``labels`` of its members.

    Raises
    ------
    ParameterError
        ``nodes`` holds a vertex out of range, one twice, or two that are not adjacent.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, maximal_cliques(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))))
    [[0, 1, 2], [2, 3]]
    >>> list(maximal_cliques(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), nodes=[3]))
    [[3, 2]]
    """
    G = as_graph(G)
    if labels is None:
        labels = np.arange(G.n_nodes).astype(object)
    elif not isinstance(labels, np.ndarray) or labels.dtype != object or labels.shape != (G.n_nodes,):
        raise ParameterError(f"labels must be an object array of {G.n_nodes} items, got {type(labels).__name__}")
    batch = check_int("batch", batch, 1)
    head = []
    if nodes is not None and len(nodes):
        nodes, common = _common_neighbours(G, nodes)
        head = labels[nodes].tolist()
        if common.shape[0] == 0:  # the nodes are a maximal clique by themselves
            return iter([head])
        G, labels = G.subgraph(common), labels[common]

    def lists(batch):
        # each clique is its run's shared prefix + its own tail (operator.add: a new list of the
        # prefix's and the tail's references), so only the runs' prefixes and the short tails
        # are looked up and listed: facebook_combined 0.6 s of CPU per million cliques, against
        # 0.9 s for one lookup of every member and a slice of the flat list per clique
        runs, plen, pre, tails, tlen = _mk._shared_prefixes(*batch, TAIL_MAX)
        pflat = labels.take(pre).tolist()
        tflat = labels.take(tails).tolist()
        # slice i runs from end i - 1 to end i: one list of ends serves both bounds
        pe = np.cumsum(plen).tolist()
        te = np.cumsum(tlen).tolist()
        prefixes = map(pflat.__getitem__, map(slice, chain((0,), pe), pe))
        if head:  # once per run, not per clique
            prefixes = map(add, repeat(head), prefixes)
        return map(add, chain.from_iterable(map(repeat, prefixes, runs.tolist())),
                   map(tflat.__getitem__, map(slice, chain((0,), te), te)))
    # the caller's thread converts while the others search: beyond LIST_SEARCH_THREADS searching
    # threads the conversion alone sets the pace, and more of them only take cores from it
    nthreads = min(_thread_count(threads), LIST_SEARCH_THREADS + 1)
    return chain.from_iterable(map(lists, _batches(G, batch, nthreads, True)))


def _common_neighbours(G, nodes):
    """``nodes`` as an int64 array, checked to be a clique of ``G``, and their common neighbours
    (sorted)."""
    try:
        verts = np.asarray(nodes, dtype=np.int64).ravel()
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"nodes must be vertex numbers, got {nodes!r}") from None
    bad = verts[(verts < 0) | (verts >= G.n_nodes)]
    if bad.shape[0]:
        raise ParameterError(f"nodes: vertex {int(bad[0])} is out of range 0..{G.n_nodes - 1}")
    common = G.neighbors(verts[0])
    for i in range(1, verts.shape[0]):
        if not _in_sorted(common, verts[i]):
            raise ParameterError(f"nodes {verts.tolist()} do not form a clique: vertex {int(verts[i])} is not "
                                 f"adjacent to all of {verts[:i].tolist()}")
        common = np.intersect1d(common, G.neighbors(verts[i]), assume_unique=True)
    return verts, common


def _in_sorted(a, x):
    i = np.searchsorted(a, x)
    return i < a.shape[0] and a[i] == x


@declare("number of maximal cliques", cpu=True)
@interruptible
@restores_threads
@fill_doc
def count_maximal_cliques(G, *, by_size=False, threads=None):
    """The number of maximal cliques of ``G``.

    {Parameters: G}
    by_size : bool
        Return the counts by clique size instead (``counts[s]`` maximal cliques of s vertices).
    {threads}

    Returns
    -------
    int, or list of int with ``by_size``
        The number of maximal cliques (isolated vertices count as cliques of one), or the
        counts by size.

    Examples
    --------
    >>> import networkx as nx
    >>> count_maximal_cliques(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    2
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if G.n_nodes == 0:
        return [0] if by_size else 0
    rank, maxp, maxdeg = _setup(G)
    count, _, hist = _mk._maximal_count(G.indptr, G.indices, rank, maxp, maxdeg, bool(by_size), nthreads)
    if not by_size:
        return int(count)
    nz = np.flatnonzero(hist)
    return hist[:nz[-1] + 1].tolist() if nz.size else [0]


@declare("largest clique at every vertex", cpu=True)
@interruptible
@restores_threads
@fill_doc
def node_clique_number(G, *, threads=None):
    """The size of the largest clique containing each vertex.

    Computed from the maximal cliques, which a compiled Bron-Kerbosch search with pivoting
    lists; each vertex keeps the largest it meets.

    {Parameters: G, threads}

    Returns
    -------
    ndarray of int64 of shape (n,)
        Entry v is the number of vertices of the largest clique through v (1 for an isolated
        vertex), as ``networkx.node_clique_number``.

    Examples
    --------
    >>> import networkx as nx
    >>> node_clique_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])).tolist()
    [3, 3, 3, 2]
    """
    G = as_graph(G)
    nthreads = resolve_threads(threads)
    if G.n_nodes == 0:
        return np.zeros(0, np.int64)
    rank, maxp, maxdeg = _setup(G)
    return _mk._maximal_count(G.indptr, G.indices, rank, maxp, maxdeg, True, nthreads)[1]


@fill_doc
def list_cliques(G, k, *, batch=BATCH):
    """Every k-clique of ``G`` once, in batches.

    {Parameters: G}
    k : int
        Clique size, >= 1 (1: the vertices, 2: the edges).
    batch : int, default BATCH
        About how many vertex numbers a batch holds (``batch // k`` cliques).

    Yields
    ------
    ndarray of int64 of shape (count, k)
        A batch of cliques, each row sorted increasingly.

    {Raises: clique_k_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> [b.tolist() for b in list_cliques(nx.complete_graph(4), 3)]
    [[[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]]
    """
    k = check_int("k", k, 1)
    G = as_graph(G)
    n = G.n_nodes
    if k == 1:
        if n:
            yield np.arange(n, dtype=np.int64).reshape(-1, 1)
        return
    O = G.oriented("degeneracy", relabel=True, threads=1)
    if O.max_out_degree < k - 1:
        return
    inv = np.empty(n, np.int64)
    inv[O.rank] = np.arange(n)
    cap = max(1, int(batch) // k)
    u = 0
    while u < n:
        out, u = _mk._list_cliques(O.indptr, O.indices, int(k), u, cap)
        if out.shape[0]:
            yield np.sort(inv[out], axis=1)


@declare("every clique, by size", cpu=True)
@fill_doc
def enumerate_cliques(G, *, max_k=None, batch=BATCH):
    """Every clique of ``G`` (single vertices and edges included) by increasing size.

    As ``networkx.enumerate_all_cliques``, one size at a time, each size listed in batches.

    {Parameters: G}
    max_k : int, optional
        Largest clique size to list (default: all sizes).
    batch : int, default BATCH
        About how many vertex numbers are listed per kernel call.

    Yields
    ------
    list of int
        A clique's vertex numbers, increasing.

    Examples
    --------
    >>> import networkx as nx
    >>> list(enumerate_cliques(nx.complete_graph(3)))
    [[0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]]
    """
    G = as_graph(G)
    k = 1
    while max_k is None or k <= max_k:
        found = False
        for block in list_cliques(G, k, batch=batch):
            found = True
            yield from block.tolist()
        if not found:
            return
        k += 1


@declare("k-clique communities (clique percolation)", cpu=True)
@interruptible
@fill_doc
def clique_communities(G, k):
    """The k-clique communities of ``G`` (clique percolation; Palla et al. 2005): the unions of the
    k-cliques that a chain of k-cliques sharing k - 1 vertices joins, as ``networkx``'s
    ``k_clique_communities``.

    Computed from the maximal cliques of at least k vertices (two of them in one community when
    they share k - 1 or more vertices), joined by a union-find in a compiled kernel. Memory holds
    those maximal cliques.

    {Parameters: G}
    k : int
        Clique size >= 2.

    Returns
    -------
    list of ndarray
        One sorted int64 array of vertex numbers per community, ordered by their smallest vertex.

    {Raises: clique_k_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> H = nx.Graph([(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (3, 4), (4, 5), (5, 3)])
    >>> [c.tolist() for c in clique_communities(H, 3)]
    [[0, 1, 2, 3], [3, 4, 5]]
    """
    k = check_int("k", k, 2)
    G = as_graph(G)
    n = G.n_nodes
    if n == 0:
        return []
    vparts, sizes = [], []
    held = 0
    for verts, size in maximal_clique_batches(G, ahead=False):
        keep = size >= k
        if keep.any():
            vparts.append(verts[np.repeat(keep, size)])
            sizes.append(size[keep])
            held += vparts[-1].shape[0]
            # the kept cliques, their concatenation and the percolation's membership lists
            check_allocation(24 * held, f"the maximal cliques of {k} or more vertices (growing)",
                             "k-clique communities hold them all; pass a larger k")
    if not sizes:
        return []
    verts = np.concatenate(vparts)
    size = np.concatenate(sizes)
    offs = np.zeros(size.shape[0] + 1, np.int64)
    np.cumsum(size, out=offs[1:])
    root = _mk._percolate(verts, offs, n, int(k))
    label = np.repeat(root, size)
    pairs = unique_ints(label * n + verts)
    label, members = pairs // n, pairs % n
    cuts = np.flatnonzero(np.diff(label)) + 1
    groups = np.split(members, cuts)
    groups.sort(key=lambda g: int(g[0]))
    return groups
