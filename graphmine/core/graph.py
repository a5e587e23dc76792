"""The CSR graph core shared by every graphmine algorithm.

A :class:`Graph` is an immutable, undirected, simple graph in compressed sparse row form:

* ``indptr`` (int64, length n + 1) and ``indices`` (int32, or int64 when n >= 2**31);
* every row sorted, no duplicate entries, no self-loops, each edge stored in both rows;
* vertices are 0..n-1; ``node_ids[i]`` is the identifier vertex ``i`` had in the input.

This module builds graphs from arrays (:func:`from_edges`, :func:`from_scipy`,
:func:`from_networkx`); :func:`graphmine.as_graph` (in :mod:`graphmine.core.validation`, above the
readers of :mod:`graphmine.io.edgelist`) is the one validator every accepted input goes through. Kernels
downstream take the raw arrays and never validate. scipy is imported only by the functions that
use it, so that counting from a file never loads it.
"""

import sys
import threading

from .._runtime.docs import fill_doc
import numpy as np

from .._primitives import small_work as _sw
from .._runtime.lazy import lazy_module
from .._runtime.limits import check_allocation
from .._runtime.interrupt import check as _check_interrupt, interruptible
from .._runtime.threads import resolve_threads, restores_threads
from .exceptions import GraphValueError, ParameterError


@lazy_module
def _k():
    # the CSR kernels (and numba) load with the first graph too large for numpy's paths
    from .._primitives import csr_kernels as _csr_kernels

    return _csr_kernels


@lazy_module
def _ok():
    # the degeneracy order, core numbers and orientation in one pass (a kernel: numba loads with it)
    from .._primitives import order_kernels as _order_kernels

    return _order_kernels


__all__ = ["Graph", "OrientedGraph", "from_edges", "from_scipy", "from_networkx", "build_csr", "compact_ids",
           "check_vertex_count", "vertex_pairs", "index_dtype_for", "rank_space_arcs", "INDPTR_DTYPE", "SERIAL_EDGES",
           "ORDERS", "APPROX_DEGENERACY_EPS", "RESULT_CACHE_MIN_BYTES", "RESULT_CACHE_VALUE_BYTES"]
#: the names graphmine offers as graphmine.<name>
__facade__ = ("Graph", "OrientedGraph", "from_edges")

# dtype of every graph's ``indptr`` (row offsets): int64, whatever the number of vertices
INDPTR_DTYPE = np.int64

# below this many edges one thread finishes before a thread pool would wake up
SERIAL_EDGES = 50_000

# the orders of Graph.oriented
ORDERS = ("degree", "degeneracy", "approx-degeneracy")
# 'approx-degeneracy': a vertex leaves the graph in the first round in which its degree is at
# most (1 + eps) times the remaining graph's average (ArbCount's eps; the GPU peel's too)
APPROX_DEGENERACY_EPS = 0.1

# The results cache of a graph (Graph.cached_result) holds at most as many bytes as the graph's
# own CSR arrays (Graph.nbytes), and never less than this: one per-vertex array (8 bytes a vertex)
# always fits next to a CSR of 8 (n + 1) + 8 m bytes, two or three where the mean degree is 2-4
# or more. What a graph keeps therefore adds at most its own size to a program's memory.
RESULT_CACHE_MIN_BYTES = 1 << 16
# what a cached value that is not an array counts for (a number: the object and its dict slot)
RESULT_CACHE_VALUE_BYTES = 64
# mutations of every graph's results cache (the computations themselves run outside it)
_RESULTS_LOCK = threading.Lock()


def index_dtype_for(n):
    """The dtype of ``indices`` for a graph of ``n`` vertices.

    Parameters
    ----------
    n : int
        Number of vertices.

    Returns
    -------
    type
        ``numpy.int32`` unless vertex ids up to ``n - 1`` need ``numpy.int64``.

    Examples
    --------
    >>> index_dtype_for(10).__name__, index_dtype_for(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if n < 2**31 - 1 else np.int64


def rank_space_arcs(indptr, indices, rank):
    """The arcs of a rank-space orientation (:meth:`Graph.oriented` with ``relabel=True``) as
    vertex numbers of the graph: (tails, heads), one pair per arc, in the arcs' order.

    Parameters
    ----------
    indptr, indices : ndarray
        The oriented CSR in rank space (host arrays).
    rank : ndarray of int64
        ``rank[v]``: the id of vertex v in that CSR.

    Returns
    -------
    tails, heads : ndarray of int64

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> O = gm.as_graph(nx.path_graph(3)).oriented("degree", relabel=True)
    >>> [sorted(map(int, e)) for e in zip(*rank_space_arcs(O.indptr, O.indices, O.rank))]
    [[0, 1], [1, 2]]
    """
    n = rank.shape[0]
    vertex = np.empty(n, np.int64)
    vertex[rank] = np.arange(n)
    tails = vertex[np.repeat(np.arange(n), np.diff(indptr))]
    return tails, vertex[indices.astype(np.int64)]


class OrientedGraph:
    """An acyclic orientation of a :class:`Graph`: arc u -> v iff ``rank[u] < rank[v]``.

    ``indptr``/``indices`` hold the out-neighbourhoods N+(u), sorted. If ``relabelled`` is True
    the oriented CSR is in rank space (vertex u appears as ``rank[u]``, all arcs go from smaller
    to larger ids). Every clique of the undirected graph is found exactly once by walking
    out-neighbourhoods from its lowest-ranked vertex. Made by :meth:`Graph.oriented`, which
    caches it on the graph.

    Parameters
    ----------
    indptr : ndarray of int64 of shape (n + 1,)
        Row offsets of the out-neighbourhoods.
    indices : ndarray of int32 or int64
        Out-neighbours, sorted within each row.
    rank : ndarray of shape (n,)
        Position of every vertex in the order.
    order : {'degree', 'degeneracy', 'approx-degeneracy'}
        The vertex order that the orientation follows.
    relabelled : bool, default False
        Whether ``indptr``/``indices`` are in rank space.

    Attributes
    ----------
    indptr, indices, rank, order, relabelled
        As given.
    max_out_degree : int
        Largest out-degree (bounds the size of a clique minus one).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> O = gm.as_graph(nx.complete_graph(4)).oriented("degree")
    >>> O.max_out_degree, int(O.indices.shape[0])
    (3, 6)
    """

    __slots__ = ("indptr", "indices", "rank", "order", "relabelled", "max_out_degree")

    def __init__(self, indptr, indices, rank, order, relabelled=False):
        self.indptr = indptr
        self.indices = indices
        self.rank = rank
        self.order = order
        self.relabelled = relabelled
        self.max_out_degree = int(np.diff(indptr).max()) if indptr.shape[0] > 1 else 0

    def __repr__(self):
        return (f"OrientedGraph(order={self.order!r}, n={self.indptr.shape[0] - 1}, "
                f"arcs={self.indices.shape[0]}, max_out_degree={self.max_out_degree})")


class Graph:
    """An immutable undirected simple graph in CSR form.

    Build one with :func:`as_graph` (any input), :func:`from_edges`, or
    :func:`graphmine.read_graph` (files); the constructor itself takes arrays that already
    satisfy the CSR contract and checks them.

    Parameters
    ----------
    indptr, indices : ndarray
        CSR arrays meeting the contract in the module docstring.
    node_ids : ndarray, optional
        Original identifier of every vertex (default ``arange(n)``).
    input_stats : dict, optional
        What building the graph merged or dropped (``input_edges``, ``self_loops``,
        ``duplicates``).
    index_dtype : {numpy.int32, numpy.int64}, optional
        Dtype of ``indices`` (default: :func:`index_dtype_for` of n; int32 is refused where n
        needs int64).

    Attributes
    ----------
    n_nodes, n_edges : int
        Vertices and undirected edges.
    degree : ndarray of int64
        Vertex degrees.

    Examples
    --------
    >>> import graphmine as gm
    >>> G = gm.as_graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    >>> G
    Graph(n_nodes=4, n_edges=4)
    >>> G.neighbors(2)
    array([0, 1, 3], dtype=int32)
    """

    # a networkx backend graph: nx.triangles(G) runs graphmine.nx_backend on it, no conversion
    __networkx_backend__ = "graphmine"

    def is_directed(self):
        return False

    def is_multigraph(self):
        return False

    def __init__(self, indptr, indices, node_ids=None, input_stats=None, *, index_dtype=None):
        src_indptr, src_indices, src_ids = indptr, indices, node_ids
        indptr, indices = _csr_arrays(indptr, indices, index_dtype)
        _check_csr(indptr, indices)
        # the Graph freezes its arrays: never the caller's own (copy what we were handed)
        indptr = _private_copy(indptr, src_indptr)
        indices = _private_copy(indices, src_indices)
        if node_ids is not None:
            node_ids = _private_copy(np.asarray(node_ids), src_ids)
        self._adopt(indptr, indices, node_ids, input_stats, indices.dtype)

    def _adopt(self, indptr, indices, node_ids, input_stats, index_dtype=None):
        """Freeze and keep arrays that meet the contract, converted (not checked) to the CSR dtypes:
        the end of every constructor."""
        indptr, indices = _csr_arrays(indptr, indices, index_dtype)
        n = indptr.shape[0] - 1
        indptr.flags.writeable = False
        indices.flags.writeable = False
        if node_ids is None:
            node_ids = np.arange(n, dtype=np.int64)
        node_ids = np.asarray(node_ids)
        if node_ids.shape != (n,):
            raise GraphValueError(f"node_ids must have one entry per vertex ({n}), got shape {node_ids.shape}")
        node_ids.flags.writeable = False
        self.indptr = indptr
        self.indices = indices
        self.node_ids = node_ids
        self.input_stats = dict(input_stats or {})
        self._oriented = {}
        self._degree = None
        self._results = {}

    @classmethod
    def from_csr(cls, indptr, indices, node_ids=None, input_stats=None):
        """A graph of CSR arrays that already meet the contract, taken as they are.

        For builders that produce a valid CSR themselves (readers, subgraphs, conversions): the
        arrays are neither checked nor copied, only frozen (made read-only), so the caller must
        not keep writing to them. Anything else goes through the checking constructor or
        :func:`graphmine.as_graph`.

        Parameters
        ----------
        indptr : ndarray of int64
        indices : ndarray of int32 or int64
            Sorted rows, no duplicates, no self-loops, symmetric.
        node_ids : ndarray, optional
            Original identifier of every vertex (default ``arange(n)``).
        input_stats : dict, optional
            What building the graph merged or dropped (``input_edges``, ``self_loops``,
            ``duplicates``).

        Returns
        -------
        Graph
            The graph, holding the given arrays (converted only where their dtypes are not the
            CSR's), now read-only.

        Examples
        --------
        >>> import numpy as np, graphmine as gm
        >>> gm.Graph.from_csr(np.array([0, 1, 2]), np.array([1, 0], np.int32))
        Graph(n_nodes=2, n_edges=1)
        """
        G = cls.__new__(cls)
        G._adopt(indptr, indices, node_ids, input_stats)
        return G

    def backend_cache(self, backend):
        """The dict in which ``backend`` keeps what it derived from this graph (the CUDA
        back-end's device copies, for instance), created on first use.

        The graph itself is immutable, so whatever a back-end stores here stays valid for the
        graph's lifetime; :meth:`drop_backend_cache` frees it.

        Parameters
        ----------
        backend : str
            A back-end's name (``'cuda'``, ...).

        Returns
        -------
        dict

        Examples
        --------
        >>> import graphmine as gm
        >>> G = gm.as_graph([(0, 1)])
        >>> G.backend_cache("example")["x"] = 1
        >>> G.drop_backend_cache("example")
        {'x': 1}
        """
        # kept as the attribute ``_<backend>`` (``G._cuda``), where code and tests have read it
        return self.__dict__.setdefault(f"_{backend}", {})

    def drop_backend_cache(self, backend):
        """Remove and return ``backend``'s cache of this graph (an empty dict if there was none).

        Parameters
        ----------
        backend : str

        Returns
        -------
        dict
        """
        return self.__dict__.pop(f"_{backend}", {})

    # -- results kept by the graph ---------------------------------------------------------------
    def cached_result(self, key, compute):
        """The value of ``compute()`` kept under ``key``: computed on the first call, then kept
        (the graph is immutable, so a result never goes stale).

        The exact CPU implementations keep their results here, so that related calls share one
        count: per-vertex triangles (``'triangles'``) feed :func:`graphmine.clustering`,
        :func:`graphmine.average_clustering`, :func:`graphmine.transitivity` and
        :func:`graphmine.count_triangles`; the local and square clustering coefficients, the
        triangle count, the mean clustering and the transitivity are kept too. Results do not
        depend on the thread count, so it is no part of a key.

        **Bound.** The cache holds at most :attr:`result_cache_limit` bytes: the size of the
        graph's CSR arrays (:attr:`nbytes`), and at least ``RESULT_CACHE_MIN_BYTES`` (64 KiB).
        An array counts its ``nbytes``, any other value ``RESULT_CACHE_VALUE_BYTES`` (64). Past
        the bound the least recently used values are dropped; a value larger than the bound
        alone is returned but not kept.

        **Safety.** A kept array is made read-only, and the library's public functions return
        copies of it, so that changing a returned array never changes a later result. The cache
        is not pickled (a copy or an unpickled graph starts empty) and is local to this object:
        a graph built anew from the same data (``as_graph`` of a networkx graph, say) counts
        again.

        Parameters
        ----------
        key : str
            What the value is (``'triangles'``, ``'clustering'``, ...).
        compute : callable or None
            Called without arguments when ``key`` is not kept; its result is kept. None: only
            look (nothing is computed or kept).

        Returns
        -------
        object
            The kept value (arrays read-only: copy one before changing it); with ``compute``
            None, None when nothing is kept under ``key``.

        Examples
        --------
        >>> import numpy as np, graphmine as gm
        >>> G = gm.as_graph([(0, 1), (1, 2)])
        >>> G.cached_result("double degree", lambda: 2 * G.degree)
        array([2, 4, 2])
        >>> G.cached_result("double degree", None).flags.writeable
        False
        """
        results = self._results
        with _RESULTS_LOCK:
            if key in results:
                value = results.pop(key)
                results[key] = value  # most recently used last
                return value
        if compute is None:
            return None
        value = compute()
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        size = _result_bytes(value)
        limit = self.result_cache_limit
        with _RESULTS_LOCK:
            if key in results:  # computed meanwhile on another thread: one value for everyone
                return results[key]
            if size > limit:
                return value
            used = sum(_result_bytes(v) for v in results.values())
            while results and used + size > limit:
                used -= _result_bytes(results.pop(next(iter(results))))
            results[key] = value
        return value

    @property
    def result_cache_limit(self):
        """The most bytes :meth:`cached_result` keeps for this graph: ``max(nbytes, 64 KiB)``."""
        return max(self.nbytes, RESULT_CACHE_MIN_BYTES)

    @property
    def result_cache_nbytes(self):
        """The bytes :meth:`cached_result` keeps now (arrays by ``nbytes``, other values 64)."""
        with _RESULTS_LOCK:
            return sum(_result_bytes(v) for v in self._results.values())

    def cached_result_keys(self):
        """The keys :meth:`cached_result` keeps now, least recently used first."""
        with _RESULTS_LOCK:
            return list(self._results)

    def drop_cached_results(self):
        """Forget every value kept by :meth:`cached_result` (the next calls compute again)."""
        with _RESULTS_LOCK:
            self._results.clear()

    def __getstate__(self):
        # the results cache stays behind: a pickle carries the graph, not what was computed on it
        state = self.__dict__.copy()
        state["_results"] = {}
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.__dict__.setdefault("_results", {})  # pickles written before the cache existed

    # -- basic properties -------------------------------------------------------------------
    @property
    def n_nodes(self):
        return self.indptr.shape[0] - 1

    @property
    def n_edges(self):
        return self.indices.shape[0] // 2

    @property
    def degree(self):
        if self._degree is None:
            d = np.diff(self.indptr)
            d.flags.writeable = False
            self._degree = d
        return self._degree

    def neighbors(self, v):
        """The sorted neighbours of vertex ``v`` (a read-only view into ``indices``)."""
        v = int(v)
        if not 0 <= v < self.n_nodes:
            raise GraphValueError(f"vertex {v} is out of range 0..{self.n_nodes - 1}")
        return self.indices[self.indptr[v]:self.indptr[v + 1]]

    def __repr__(self):
        return f"Graph(n_nodes={self.n_nodes}, n_edges={self.n_edges})"

    def __eq__(self, other):
        if not isinstance(other, Graph):
            return NotImplemented
        return (np.array_equal(self.indptr, other.indptr) and np.array_equal(self.indices, other.indices)
                and np.array_equal(self.node_ids, other.node_ids))

    __hash__ = None

    @property
    def nbytes(self):
        """Memory of the CSR arrays (``indptr`` + ``indices``) in bytes."""
        return int(self.indptr.nbytes + self.indices.nbytes)

    # -- conversions ---------------------------------------------------------------------------
    def edges(self):
        """All undirected edges as an (m, 2) int64 array with ``u < v``, sorted."""
        rows = np.repeat(np.arange(self.n_nodes, dtype=np.int64), self.degree)
        cols = self.indices.astype(np.int64)
        keep = rows < cols
        return np.column_stack((rows[keep], cols[keep]))

    def to_scipy(self, format="csr"):
        """The symmetric 0/1 adjacency matrix as a scipy sparse matrix (``csr_array``)."""
        import scipy.sparse as sp

        data = np.ones(self.indices.shape[0], dtype=np.int8)
        A = sp.csr_array((data, self.indices.copy(), self.indptr.copy()), shape=(self.n_nodes, self.n_nodes))
        return A.asformat(format)

    def to_networkx(self, original_ids=True):
        """A ``networkx.Graph`` with the same vertices and edges, its nodes labelled by
        ``node_ids`` (the file's ids, or the labels of the graph it came from).

        With ``original_ids=False`` the nodes are the vertex numbers 0..n-1 instead.

        Examples
        --------
        >>> import graphmine as gm
        >>> G = gm.from_edges([[10, 20], [20, 30]], relabel=True)
        >>> sorted(G.to_networkx().edges()), sorted(G.to_networkx(original_ids=False).edges())
        ([(10, 20), (20, 30)], [(0, 1), (1, 2)])
        """
        import networkx as nx

        H = nx.Graph()
        labels = self.node_ids.tolist() if original_ids else range(self.n_nodes)
        H.add_nodes_from(labels)
        e = self.edges()
        if original_ids:
            ids = self.node_ids
            H.add_edges_from(zip(ids[e[:, 0]].tolist(), ids[e[:, 1]].tolist()))
        else:
            H.add_edges_from(e.tolist())
        return H

    # -- orientations for the kernels ----------------------------------------------------------
    @interruptible
    @restores_threads
    def oriented(self, order="degree", *, relabel=False, threads=None):
        """The acyclic orientation used by the clique kernels (cached).

        Parameters
        ----------
        order : {'degree', 'degeneracy', 'approx-degeneracy'}
            'degree': u -> v iff (deg u, u) < (deg v, v), so out-degrees are at most sqrt(2m).
            'degeneracy': u -> v iff u is peeled before v in a minimum-degree ordering, so
            out-degrees are at most the degeneracy (the best bound for k-clique listing); one
            serial pass.
            'approx-degeneracy': u -> v iff u leaves the graph in an earlier round than v (ties
            by id), where each round removes every vertex whose remaining degree is at most
            1.1 times the remaining average (Goodrich and Pszona's order, ArbCount's); out-degrees
            are at most 2.2 times the degeneracy, and the rounds' degree updates run in
            parallel, so it is built faster than the exact order on many threads.
        relabel : bool
            If True, vertex ``u`` appears as ``rank[u]`` in the oriented CSR (so arcs go from
            smaller to larger ids and similar-degree vertices sit together in memory); map
            per-vertex results back with ``values[rank]``. If False, original ids are kept.

        Examples
        --------
        >>> import graphmine as gm
        >>> O = gm.as_graph([(0, 1), (1, 2), (2, 0), (2, 3)]).oriented("degree")
        >>> O.indices.shape[0]  # every edge once
        4
        """
        if order not in ORDERS:
            raise ParameterError(f"order must be one of {', '.join(map(repr, ORDERS))}, got {order!r}")
        key = (order, bool(relabel))
        if key not in self._oriented:
            small = relabel and self.n_edges <= _sw.SMALL_EDGES and _numpy_orientation(self.n_edges)
            # numba's thread count is not asked for where numpy does the work (it imports numba)
            nthreads = 1 if small and threads is None else resolve_threads(threads)
            if order == "degeneracy" and relabel:
                # one serial pass peels and orients (graphmine/_primitives/order_kernels.py): faster than the
                # peel followed by a (parallel) orientation at every thread count measured, 1 to 16
                # on the H200 host up to Kronecker 18 (docs/cliques.md)
                rank, _, optr, oind = _ok._degeneracy_oriented(self.indptr, self.indices, True)
                self._oriented[key] = OrientedGraph(optr, oind, rank, order, True)
                return self._oriented[key]
            rank = self._rank(order, nthreads)
            _check_interrupt()
            # the serial scatter leaves rows sorted for free; gathering and sorting each row costs
            # about twice as much work, so it pays from 4 threads on
            if small:  # numpy: no kernel to compile or load
                optr, oind = _sw.orient_by_rank(self.indptr, self.indices, rank)
            elif relabel and (nthreads < 4 or self.n_edges < SERIAL_EDGES):
                optr, oind = _k._orient_relabel_serial(self.indptr, self.indices, rank)
            elif relabel:
                optr, oind = _k._orient_relabel(self.indptr, self.indices, rank, nthreads)
            else:
                optr, oind = _k._orient(self.indptr, self.indices, rank, nthreads)
            self._oriented[key] = OrientedGraph(optr, oind, rank, order, bool(relabel))
        return self._oriented[key]

    def has_orientation(self, order, *, relabel=False):
        """Whether :meth:`oriented` has this orientation cached."""
        return (order, bool(relabel)) in self._oriented

    def _rank(self, order, nthreads=1):
        if order == "approx-degeneracy":
            return _ok._approx_degeneracy_rank(self.indptr, self.indices, APPROX_DEGENERACY_EPS, nthreads)[0]
        if order == "degree":
            # rank by (degree, id): a stable argsort of the degrees
            perm = np.argsort(self.degree, kind="stable")
            rank = np.empty(self.n_nodes, np.int64)
            rank[perm] = np.arange(self.n_nodes, dtype=np.int64)
            return rank
        return _ok._degeneracy_oriented(self.indptr, self.indices, False)[0]

    @interruptible
    def core_number(self):
        """The core number of every vertex (int64 array), as ``networkx.core_number``."""
        return _ok._degeneracy_oriented(self.indptr, self.indices, False)[1]

    def edge_subgraph(self, edges, threads=None):
        """The subgraph on ``edges`` ((m, 2) vertex numbers, each edge of the graph once): its
        vertices are those that keep an edge, in the graph's order, with their ``node_ids``
        (built on ``threads`` threads, default numba's setting)."""
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        # the kept vertices by a mark per vertex, not a sort of the endpoints (Kronecker 18's
        # 8-truss, 2.5M edges: 0.03 s against 0.46 s)
        keep = np.zeros(self.n_nodes, bool)
        keep[edges.reshape(-1)] = True
        local = np.cumsum(keep) - 1
        vertices = np.flatnonzero(keep)
        H = from_edges(local[edges], n_nodes=vertices.shape[0], threads=threads)
        return Graph.from_csr(H.indptr, H.indices, self.node_ids[vertices])

    def subgraph(self, vertices):
        """The subgraph induced by ``vertices`` (original ids carried over), in time linear in
        their degrees (not in the graph's size: a neighbourhood of a large graph is cheap)."""
        vertices = _sw.unique_ints(np.asarray(vertices, dtype=np.int64))
        k = vertices.shape[0]
        if k and (vertices[0] < 0 or vertices[-1] >= self.n_nodes):
            raise GraphValueError("subgraph vertices must lie in 0..n-1")
        starts = self.indptr[vertices]
        lens = self.indptr[vertices + 1] - starts
        # the rows of the vertices one after another, each entry looked up among the vertices:
        # rows are sorted and so are the vertices, so the kept positions stay sorted in each row
        within = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
        nbrs = self.indices[np.repeat(starts, lens) + within]
        pos = np.minimum(np.searchsorted(vertices, nbrs), max(k - 1, 0))
        keep = vertices[pos] == nbrs
        indptr = np.zeros(k + 1, INDPTR_DTYPE)
        np.cumsum(np.bincount(np.repeat(np.arange(k), lens)[keep], minlength=k), out=indptr[1:])
        return Graph.from_csr(indptr, pos[keep].astype(index_dtype_for(k)), self.node_ids[vertices])


# arcs that rank-space orientations were built from on numpy in this process (see
# _numpy_orientation)
_ORIENT_NUMPY_SPENT = [0]


def _numpy_orientation(m):
    """Whether the rank-space orientation of a graph of ``m`` edges (at most SMALL_EDGES) is
    built on numpy rather than by the serial kernel.

    Always while numba is not imported (the kernel would import it: see
    graphmine/_primitives/small_work.py). Once it is, rent or buy: numpy while the arcs it has
    oriented in this process, these included, stay within what loading or compiling the kernel
    would cost (:func:`graphmine._primitives.small_work.work_budget`, an arc counted as a
    candidate: numpy takes about 65 ns an arc), the kernel from then on and at once when it is
    loaded already. Chosen by size alone, numpy built every such orientation: 6-12 ms on
    facebook_combined, ca-HepPh and email-Enron against the kernel's 0.7-1.5 ms."""
    if "numba" not in sys.modules:
        return True
    kernel = _k._orient_relabel_serial
    if kernel.overloads:
        return False
    spent = _ORIENT_NUMPY_SPENT[0] + 2 * m
    if spent > _sw.work_budget(kernel):
        return False
    _ORIENT_NUMPY_SPENT[0] = spent
    return True


def _result_bytes(value):
    """What a value kept by :meth:`Graph.cached_result` counts for, in bytes."""
    return int(value.nbytes) if isinstance(value, np.ndarray) else RESULT_CACHE_VALUE_BYTES


def _csr_arrays(indptr, indices, index_dtype):
    """``indptr`` as contiguous int64 and ``indices`` as contiguous ``index_dtype`` (default: the
    narrowest the vertex count allows), copied only where a conversion needs it."""
    indptr = np.ascontiguousarray(indptr, dtype=INDPTR_DTYPE)
    n = indptr.shape[0] - 1
    if index_dtype is None:
        index_dtype = index_dtype_for(n)
    elif np.dtype(index_dtype) not in (np.dtype(np.int32), np.dtype(np.int64)) or (
            np.dtype(index_dtype) == np.int32 and index_dtype_for(n) == np.int64):
        raise GraphValueError(f"index_dtype must be int32 (n < 2**31 - 1) or int64, got {index_dtype}")
    return indptr, np.ascontiguousarray(indices, dtype=index_dtype)


def _private_copy(arr, source):
    """``arr``, copied if it shares memory with the caller's ``source``."""
    if isinstance(source, np.ndarray) and np.may_share_memory(arr, source):
        return arr.copy()
    return arr


@fill_doc
def check_vertex_count(n, m, threads=None):
    """Refuse a vertex count whose CSR cannot fit in memory, before allocating it.

    Parameters
    ----------
    n : int
        Number of vertices.
    m : int
        Number of input edges.
    {threads}

    Raises
    ------
    ResourceLimitError
        The CSR build would need more memory than the machine has.

    Examples
    --------
    >>> check_vertex_count(1000, 5000)
    """
    nthreads = resolve_threads(None) if threads is None else int(threads)
    nbytes = 8 * (n + 1) * (3 + nthreads) + 8 * m * 2  # the CSR build's per-thread row counts
    check_allocation(nbytes, f"a graph of {n:,} vertices (largest id {n - 1:,}) and {m:,} edges",
                     "the ids are sparse: pass relabel=True (gm.as_graph(edges, relabel=True) or "
                     "gm.from_edges(edges, relabel=True)) to number only the vertices that occur")


def _check_csr(indptr, indices):
    n = indptr.shape[0] - 1
    if indptr.ndim != 1 or n < 0:
        raise GraphValueError("indptr must be a 1-D array of length n + 1")
    if indptr[0] != 0 or indptr[-1] != indices.shape[0] or np.any(np.diff(indptr) < 0):
        raise GraphValueError("indptr must start at 0, be non-decreasing and end at len(indices)")
    if indices.size:
        if indices.min() < 0 or indices.max() >= n:
            raise GraphValueError(f"indices must lie in 0..{n - 1}")
        rows = np.repeat(np.arange(n), np.diff(indptr))
        step = np.diff(indices.astype(np.int64))
        same_row = rows[1:] == rows[:-1]
        if np.any(step[same_row] <= 0):
            raise GraphValueError("every CSR row must be strictly increasing (sorted, no duplicates)")
        if np.any(rows == indices):
            raise GraphValueError("the CSR must not contain self-loops")
        import scipy.sparse as sp

        A = sp.csr_array((np.ones(indices.size, np.int8), indices, indptr), shape=(n, n))
        if (A != A.T).nnz:
            raise GraphValueError("the CSR must be symmetric (every edge stored in both rows)")


@interruptible
@restores_threads
def build_csr(src, dst, n, threads=None):
    """CSR arrays and statistics from 0-based endpoint arrays (already range-checked).

    Parameters
    ----------
    src, dst : ndarray of int of shape (m,)
        Endpoints of the edges, in 0..n-1.
    n : int
        Number of vertices.
    threads : int, optional
        Threads of the build kernel (default: one for small inputs, else numba's setting).

    Returns
    -------
    indptr : ndarray of int64 of shape (n + 1,)
    indices : ndarray of int32 (int64 when n needs it)
        The symmetric CSR of the edges ``(src[i], dst[i])``, rows sorted, self-loops dropped
        and duplicates merged.
    stats : dict
        ``input_edges``, ``self_loops`` and ``duplicates``: what the build dropped.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices, stats = build_csr(np.array([0, 1, 1]), np.array([1, 0, 2]), 3)
    >>> indptr.tolist(), indices.tolist(), stats["duplicates"]
    ([0, 1, 3, 4], [1, 0, 2, 1], 1)
    """
    # a small graph builds faster on one thread than a thread pool wakes up (and the first
    # parallel call would start the pool: 0.1-0.3 s on a busy machine)
    nthreads = resolve_threads(1 if threads is None and len(src) < SERIAL_EDGES else threads)
    itype = index_dtype_for(n)
    src = np.ascontiguousarray(src, dtype=itype)
    dst = np.ascontiguousarray(dst, dtype=itype)
    m = src.shape[0]
    if m <= _sw.SMALL_EDGES or _sw.numpy_build(m, _k._rows):  # numpy's sorts: no kernel to compile
        indptr, indices, loops = _sw.csr_from_pairs(src, dst, n)
    else:
        indptr, indices, loops = _k._csr_from_pairs(src, dst, n, nthreads)
    n_input = int(src.shape[0])
    stats = {
        "input_edges": n_input,
        "self_loops": int(loops),
        "duplicates": int(n_input - loops - indices.shape[0] // 2),
    }
    return indptr, indices, stats


@interruptible
@restores_threads
@fill_doc
def compact_ids(ids, threads=None):
    """Map arbitrary non-negative int64 ids to 0..k-1 in increasing id order.

    Uses a bitmap when the ids are dense enough (linear time), otherwise a sort.

    Parameters
    ----------
    ids : ndarray of int64
        Non-negative ids, any shape; k distinct values.
    {threads}

    Returns
    -------
    new_ids : ndarray of the shape of ``ids``
        The new ids, of the index dtype of a k-vertex graph (:func:`index_dtype_for`).
    node_ids : ndarray of int64 of shape (k,)
        The distinct ids, increasing: ``node_ids[new_ids] == ids``.

    Examples
    --------
    >>> import numpy as np
    >>> new, old = compact_ids(np.array([70, 5, 70, 12]))
    >>> new.tolist(), old.tolist()
    ([2, 0, 2, 1], [5, 12, 70])
    """
    nthreads = resolve_threads(threads)
    if ids.size == 0:
        return ids.astype(np.int32), np.empty(0, np.int64)
    top = int(ids.max())
    if _sw.dense_ids(top, ids.size):
        # k <= top + 1, so the index dtype for top + 1 vertices holds every new id
        if ids.size <= 2 * _sw.SMALL_EDGES:  # numpy: no kernel to compile or load
            return _sw.compact_dense(ids, top + 1, index_dtype_for(top + 1))
        out = np.empty(ids.shape[0], index_dtype_for(top + 1))
        node_ids = _k._compact_dense(ids, top + 1, out, nthreads)
        return out, node_ids
    node_ids, inverse = np.unique(ids, return_inverse=True)
    return inverse.reshape(ids.shape).astype(index_dtype_for(node_ids.shape[0])), node_ids.astype(np.int64)


def from_edges(edges, n_nodes=None, *, relabel=False, threads=None):
    """Build a :class:`Graph` from an (m, 2) array of integer vertex ids.

    Self-loops are dropped and duplicate or reversed edges merged; both are counted in
    ``G.input_stats``.

    Parameters
    ----------
    edges : array_like of shape (m, 2)
        Non-negative integer endpoints.
    n_nodes : int, optional
        Number of vertices (default: largest id + 1). Ignored with ``relabel=True``.
    relabel : bool
        If True, vertices are the distinct ids that occur, numbered in increasing id order, and
        ``node_ids`` keeps the original ids (what :func:`read_graph` does for files).
    threads : int, optional
        Threads of the build kernels (default: one for small inputs, else numba's setting).

    Returns
    -------
    Graph
        The CSR graph; ``input_stats`` counts the dropped self-loops and duplicates.

    Raises
    ------
    GraphValueError
        Edges that are not an (m, 2) array of non-negative integers, or an id >= ``n_nodes``.

    Examples
    --------
    >>> import graphmine as gm
    >>> G = gm.from_edges([[10, 20], [20, 10], [20, 30], [30, 30]], relabel=True)
    >>> G.n_nodes, G.n_edges, G.input_stats["duplicates"], G.input_stats["self_loops"]
    (3, 2, 1, 1)
    >>> G.node_ids
    array([10, 20, 30])
    """
    arr = vertex_pairs(edges)
    if relabel:
        flat, node_ids = compact_ids(arr.reshape(-1), threads)
        arr = flat.reshape(-1, 2)
        n = node_ids.shape[0]
    else:
        top = int(arr.max()) + 1 if arr.size else 0
        if n_nodes is None:
            n = top
        else:
            n = _check_count("n_nodes", n_nodes)
            if top > n:
                raise GraphValueError(f"edge endpoint {top - 1} is out of range for n_nodes={n}")
        check_vertex_count(n, arr.shape[0], threads)
        node_ids = None
    indptr, indices, stats = build_csr(arr[:, 0], arr[:, 1], n, threads)
    return Graph.from_csr(indptr, indices, node_ids, stats)


def _check_count(name, value):
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must be a non-negative integer, got {value!r}") from None
    if v != value or v < 0:
        raise ParameterError(f"{name} must be a non-negative integer, got {value!r}")
    return v


def vertex_pairs(pairs, n=None, *, name="edges"):
    """An (m, 2) int64 array of vertex ids read from ``pairs``, checked.

    The one reader of vertex pairs: the edges of :func:`from_edges` and the ``pairs`` (or
    ``tuples`` of two) that scores and similarities take. Integer, boolean and integral float
    arrays are accepted.

    Parameters
    ----------
    pairs : array_like of shape (m, 2)
        Non-negative integer ids; an empty input gives a (0, 2) array.
    n : int, optional
        The number of vertices: every id must be below it (default: no upper bound).
    name : str, default 'edges'
        The argument's name, for the messages.

    Returns
    -------
    ndarray of int64 of shape (m, 2)
        C-contiguous.

    Raises
    ------
    GraphValueError
        Not an (m, 2) array of non-negative integers (or of integers below ``n``); the message
        names the argument and, for a vertex out of range, the row.

    Examples
    --------
    >>> vertex_pairs([[0, 1], [2, 1]]).tolist()
    [[0, 1], [2, 1]]
    >>> vertex_pairs([[0, 5]], 3, name="pairs")
    Traceback (most recent call last):
    ...
    graphmine.core.exceptions.GraphValueError: pairs: row 0 (0, 5) names a vertex outside 0..2
    """
    try:
        arr = np.asarray(pairs)
    except (TypeError, ValueError) as exc:
        raise GraphValueError(f"{name} cannot be read as an (m, 2) array: {exc}") from None
    if arr.size == 0:
        return np.empty((0, 2), np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise GraphValueError(f"{name} must have shape (m, 2), got {arr.shape}")
    if arr.dtype.kind in "iu":
        if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and arr.max() > np.iinfo(np.int64).max:
            raise GraphValueError(f"{name}: vertex ids must fit in int64")
        arr = arr.astype(np.int64, copy=False)
    elif arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise GraphValueError(f"{name}: vertex ids must be integers (found a fractional or non-finite value)")
        if np.abs(arr).max() >= 2.0**63:
            raise GraphValueError(f"{name}: vertex ids must fit in int64")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    else:
        try:
            arr = arr.astype(np.int64)
        except (TypeError, ValueError, OverflowError):
            raise GraphValueError(f"{name}: vertex ids must be integers, got dtype {arr.dtype}") from None
    low = int(arr.min())
    if n is None and low < 0:
        raise GraphValueError(f"{name}: vertex ids must be non-negative, found {low}")
    if n is not None and (low < 0 or arr.max() >= n):
        row = int(np.flatnonzero(((arr < 0) | (arr >= n)).any(axis=1))[0])
        raise GraphValueError(f"{name}: row {row} {tuple(arr[row].tolist())} names a vertex outside 0..{n - 1}")
    return np.ascontiguousarray(arr)


def from_scipy(A, threads=None, *, symmetrize=False):
    """The :class:`Graph` of a square scipy sparse matrix's nonzero pattern (diagonal dropped).

    The pattern must be symmetric (an undirected graph's matrix lists every edge both ways);
    ``symmetrize=True`` takes the undirected graph of the entries of any square matrix (an edge
    wherever ``A[i, j]`` or ``A[j, i]`` is nonzero). ``input_stats`` counts the entries of one
    triangle of a symmetric matrix, so its mirrored half is not taken for duplicates.

    Parameters
    ----------
    A : scipy.sparse array or matrix of shape (n, n)
        The adjacency matrix; only the pattern of nonzeros counts.
    threads : int, optional
        Threads of the build kernels.
    symmetrize : bool, default False
        Take the undirected graph of any square matrix.

    Returns
    -------
    Graph
        Vertex i is row i.

    Raises
    ------
    GraphValueError
        For a matrix that is not square, or whose pattern is not symmetric (without
        ``symmetrize``).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from_scipy(sp.csr_array([[0, 1, 0], [1, 0, 1], [0, 1, 1]]))
    Graph(n_nodes=3, n_edges=2)
    >>> from_scipy(sp.csr_array([[0, 1, 0], [0, 0, 1], [0, 0, 1]]), symmetrize=True)
    Graph(n_nodes=3, n_edges=2)
    """
    import scipy.sparse as sp

    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise GraphValueError(f"an adjacency matrix must be square, got shape {A.shape}")
    C = sp.coo_array(A)
    keep = C.data != 0
    n = A.shape[0]
    row, col = C.row[keep].astype(np.int64), C.col[keep].astype(np.int64)
    P = sp.csr_array((np.ones(row.shape[0], np.int8), (row, col)), shape=(n, n))
    P.data[:] = 1
    D = sp.coo_array(P - P.T)
    D.eliminate_zeros()
    if D.nnz == 0:
        # symmetric: one triangle holds every edge once (and the diagonal)
        upper = row <= col
        row, col = row[upper], col[upper]
    elif not symmetrize:
        first = int(np.flatnonzero(D.data > 0)[0])
        i, j = int(D.row[first]), int(D.col[first])
        raise GraphValueError(f"the adjacency matrix is not symmetric: A[{i}, {j}] is nonzero but A[{j}, {i}] "
                              "is not (a directed graph?); pass symmetrize=True (gm.as_graph(A, symmetrize=True)) "
                              "for the undirected graph of its entries")
    indptr, indices, stats = build_csr(row, col, n, threads)
    return Graph.from_csr(indptr, indices, None, stats)


def from_networkx(H, threads=None, *, symmetrize=False):
    """The :class:`Graph` of an undirected simple networkx graph: vertex ``i`` is the i-th node
    of ``H.nodes`` and ``node_ids`` holds the node labels.

    A directed graph or a multigraph is refused (its triangles are not an undirected simple
    graph's) unless ``symmetrize=True``: then an edge joins u and v wherever an edge or arc of
    ``H`` does, parallel edges merged (and counted as duplicates in ``input_stats``).

    Parameters
    ----------
    H : networkx.Graph
        The graph; self-loops are dropped.
    threads : int, optional
        Threads of the build kernels.
    symmetrize : bool, default False
        Accept directed graphs and multigraphs, as described above.

    Returns
    -------
    Graph
        The CSR graph with ``node_ids`` the node labels.

    Raises
    ------
    GraphValueError
        For a directed graph or a multigraph without ``symmetrize``.

    Examples
    --------
    >>> import networkx as nx
    >>> from_networkx(nx.path_graph(["a", "b", "c"])).node_ids
    array(['a', 'b', 'c'], dtype=object)
    >>> from_networkx(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), symmetrize=True)
    Graph(n_nodes=3, n_edges=3)
    """
    if not symmetrize and (H.is_directed() or H.is_multigraph()):
        what = ("a directed multigraph" if H.is_multigraph() else "a directed graph") if H.is_directed() \
            else "a multigraph (parallel edges)"
        raise GraphValueError(f"graphmine's graphs are undirected and simple, got {what} ({type(H).__name__}); "
                              "pass symmetrize=True (gm.as_graph(H, symmetrize=True)) for the undirected simple "
                              "graph of its edges")
    nodes = list(H.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    m = H.number_of_edges()
    arr = np.fromiter((index[x] for e in H.edges() for x in e[:2]), dtype=np.int64, count=2 * m)
    indptr, indices, stats = build_csr(arr[0::2], arr[1::2], len(nodes), threads)
    try:
        node_ids = np.asarray(nodes)
        if node_ids.ndim != 1 or node_ids.dtype.kind not in "iu":
            raise ValueError
    except ValueError:
        node_ids = np.empty(len(nodes), dtype=object)
        node_ids[:] = nodes
    return Graph.from_csr(indptr, indices, node_ids, stats)
