"""Conversion between networkx graphs and graphmine's CSR :class:`~graphmine.Graph`.

A networkx ``Graph`` becomes a :class:`NetworkXGraph`: vertex ``i`` is the i-th node of ``G``
(networkx's node order), ``node_ids`` holds the node objects (an int64 array when every node is an
integer, otherwise an object array), and the self-loops that the CSR core drops are kept aside so
that the link-prediction scores and ``core_number`` can treat them as networkx does. The build is
vectorised: one pass over networkx's adjacency in C (``numpy.fromiter``) for the neighbour ids,
then a compiled kernel that drops self-loops and sorts every row.

Any :class:`~graphmine.Graph` is a networkx backend graph: its networkx nodes are its
``node_ids``.
"""

from .._runtime.docs import fill_doc
from itertools import chain

import numpy as np

from .._primitives import small_work as _sw
from .._runtime.lazy import lazy_module
from .._runtime.threads import resolve_threads, restores_threads
from ..core.graph import Graph, index_dtype_for as _index_dtype


@lazy_module
def _k():
    # the row kernels (and numba) load with the first graph too large for numpy's sort
    from . import _kernels

    return _kernels


__all__ = ["NetworkXGraph", "from_networkx", "to_networkx", "unsupported", "NONE_ONLY", "none_only_reason",
           "node_labels", "node_index", "self_loops", "has_node", "nbunch_indices"]


class NetworkXGraph(Graph):
    """A :class:`~graphmine.Graph` converted from an undirected networkx graph.

    Attributes
    ----------
    (those of :class:`~graphmine.Graph`, and)
    loops : ndarray of uint8
        1 for the vertices that had a self-loop in networkx (the CSR itself has none).
    graph : dict
        networkx's graph attributes (``G.graph``), given back by :func:`to_networkx`.

    Parameters
    ----------
    indptr, indices : ndarray
        The checked CSR arrays (taken as they are).
    node_ids : ndarray of object
        The networkx node of every vertex.
    loops : ndarray of uint8
        As the attribute.
    graph_attrs : dict
        As ``graph``.
    input_stats : dict
        As for :class:`~graphmine.Graph`.

    Examples
    --------
    Made by :func:`from_networkx`:

    >>> import networkx as nx
    >>> G = from_networkx(nx.Graph([("a", "b"), ("b", "c"), ("c", "c")]))
    >>> G, G.loops.tolist()
    (NetworkXGraph(n_nodes=3, n_edges=2, self_loops=1), [0, 0, 1])
    """

    def __init__(self, indptr, indices, node_ids, loops, graph_attrs, input_stats):
        self._adopt(indptr, indices, node_ids, input_stats)
        loops.flags.writeable = False
        self.loops = loops
        self.graph = graph_attrs
        self._labels = None
        self._index = None

    def __repr__(self):
        return f"NetworkXGraph(n_nodes={self.n_nodes}, n_edges={self.n_edges}, self_loops={int(self.loops.sum())})"


def _node_id_array(nodes):
    """node ids as an integer array when every node is an int, else an object array."""
    if nodes and not isinstance(nodes[0], (int, np.integer)):
        # not all ints (strings, tuples): numpy's guess at a common type would cost a pass over them
        return np.fromiter(nodes, dtype=object, count=len(nodes))
    try:
        ids = np.asarray(nodes)
        if ids.ndim == 1 and ids.dtype.kind in "iu":
            return ids
    except (ValueError, TypeError, OverflowError):
        pass
    return np.fromiter(nodes, dtype=object, count=len(nodes))


# adjacency entries (2 per edge) from which the rows are sorted in parallel: below, one thread
# finishes first (rows mostly arrive sorted, and then copying them is all there is to do)
PARALLEL_ENTRIES = 1 << 20

# graph methods through which networkx reads a graph's structure; a subclass that redefines any
# of them (e.g. a complement view) does not mean what its ``_adj`` dicts hold
_STRUCTURE = ("adj", "__getitem__", "__iter__", "__len__", "neighbors", "degree", "adjacency",
              "edges", "nodes", "has_edge", "number_of_edges")


def unsupported(G):
    """None if :func:`from_networkx` can read ``G``, otherwise the reason it cannot.

    Parameters
    ----------
    G : networkx.Graph
        Any networkx graph.

    Returns
    -------
    str or None
        Why the graph cannot be converted (directed, multigraph, a class that redefines the
        adjacency structure), or None.

    Examples
    --------
    >>> import networkx as nx
    >>> unsupported(nx.DiGraph()), unsupported(nx.path_graph(3))
    ("graphmine's kernels are for undirected graphs", None)
    """
    import networkx as nx

    if G.is_directed():
        return "graphmine's kernels are for undirected graphs"
    if G.is_multigraph():
        return "graphmine's kernels are for simple graphs, not multigraphs"
    if not isinstance(G, nx.Graph):
        return f"{type(G).__name__} is not a networkx graph"
    cls = type(G)
    redefined = [a for a in _STRUCTURE if getattr(cls, a) is not getattr(nx.Graph, a)]
    if redefined:
        return (f"{cls.__name__} redefines {', '.join(redefined)}; graphmine reads the adjacency "
                "dicts of a plain networkx Graph")
    return None


# arguments of networkx's signatures that graphmine takes as None only: function -> ({argument: its
# position}, the reason). BackendInterface.can_run declines such calls; the functions raise.
NONE_ONLY = {
    "clustering": ({"weight": 2}, "graphmine computes unweighted clustering only (weight=None)"),
    "average_clustering": ({"weight": 2}, "graphmine computes unweighted clustering only (weight=None)"),
    "pagerank": ({"personalization": 2, "dangling": 7},
                 "graphmine's pagerank has no personalization or dangling vectors"),
    "node_clique_number": ({"cliques": 2}, "graphmine's node_clique_number computes the cliques itself"),
    "k_clique_communities": ({"cliques": 2}, "graphmine's k_clique_communities computes the cliques itself"),
}


def none_only_reason(name, values):
    """Why graphmine declines a call of ``name`` whose arguments are ``values``, by :data:`NONE_ONLY`.

    Parameters
    ----------
    name : str
        A networkx function's name.
    values : dict of str to object
        The call's values of the arguments that :data:`NONE_ONLY` lists for it.

    Returns
    -------
    str or None
        The reason, when one of them is not None; else None.

    Examples
    --------
    >>> none_only_reason("clustering", {"weight": "w"})
    'graphmine computes unweighted clustering only (weight=None)'
    >>> none_only_reason("clustering", {"weight": None}) is None
    True
    """
    arguments, reason = NONE_ONLY.get(name, ((), None))
    return reason if any(values.get(a) is not None for a in arguments) else None


@restores_threads
def from_networkx(G, *, preserve_graph_attrs=True, threads=None):
    """The CSR form of an undirected simple networkx graph (edge and node data are not kept).

    Parameters
    ----------
    G : networkx.Graph
        Undirected, not a multigraph.
    preserve_graph_attrs : bool
        Keep a shallow copy of ``G.graph``.
    threads : int, optional

    Returns
    -------
    NetworkXGraph

    Examples
    --------
    >>> import networkx as nx
    >>> H = from_networkx(nx.Graph([("a", "b"), ("b", "c"), ("c", "c")]))
    >>> H, H.node_ids.tolist(), H.loops.tolist()
    (NetworkXGraph(n_nodes=3, n_edges=2, self_loops=1), ['a', 'b', 'c'], [0, 0, 1])
    """
    reason = unsupported(G)
    if reason is not None:
        raise NotImplementedError(f"graphmine's networkx backend takes undirected simple networkx "
                                  f"graphs: {reason}")
    adj = G._adj
    nodes = list(adj)
    n = len(nodes)
    rawdeg = np.fromiter(map(len, adj.values()), np.int64, count=n)
    rawptr = np.zeros(n + 1, np.int64)
    np.cumsum(rawdeg, out=rawptr[1:])
    total = int(rawptr[-1])
    ids = _node_id_array(nodes)
    neighbours = chain.from_iterable(adj.values())
    if ids.dtype.kind in "iu":
        raw = np.fromiter(neighbours, ids.dtype, count=total)
        if not (n == 0 or ids[0] == 0 and ids[-1] == n - 1 and np.array_equal(ids, np.arange(n))):
            low, top = int(ids.min()), int(ids.max())
            if low >= 0 and _sw.dense_ids(top, n):
                # integer nodes in any order, ids not much larger than n: a table of positions
                # (one gather; the sort below costs 40 times more on ca-HepPh)
                table = np.empty(top + 1, np.int64)
                table[ids] = np.arange(n, dtype=np.int64)
                raw = table[raw]
            else:  # sparse or negative ids: map them to positions with one sort
                order = np.argsort(ids, kind="stable")
                raw = order[np.searchsorted(ids[order], raw)]
        raw = raw.astype(np.int64, copy=False)
    else:
        index = dict(zip(nodes, range(n)))
        raw = np.fromiter(map(index.__getitem__, neighbours), np.int64, count=total)
    rows = np.repeat(np.arange(n, dtype=np.int64), rawdeg)
    is_loop = raw == rows
    loops = np.zeros(n, np.uint8)
    loops[rows[is_loop]] = 1
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(rawdeg - loops, out=indptr[1:])
    if total <= 2 * _sw.SMALL_EDGES:  # numpy's sort: no kernel to compile or load (nor numba)
        if threads is not None:
            resolve_threads(threads)  # checked all the same
        keep = ~is_loop
        indices = _sw.sorted_rows(rows[keep], raw[keep], n, _index_dtype(n))[1]
    elif (nthreads := resolve_threads(threads)) == 1 or total < PARALLEL_ENTRIES:
        indices = np.empty(int(indptr[-1]), _index_dtype(n))
        _k._rows_serial(rawptr, raw, indptr, indices)
    else:
        indices = np.empty(int(indptr[-1]), _index_dtype(n))
        _k._rows_parallel(rawptr, raw, indptr, indices, nthreads)
    n_loops = int(loops.sum())
    stats = {"input_edges": (total - n_loops) // 2 + n_loops, "self_loops": n_loops, "duplicates": 0}
    H = NetworkXGraph(indptr, indices, ids, loops, dict(G.graph) if preserve_graph_attrs else {}, stats)
    if ids.dtype == object:
        H._labels = nodes
        H._index = index  # node -> vertex, built for the conversion: kept for the adapters' look-ups
    return H


@fill_doc
def node_labels(G):
    """The networkx node of every vertex, as a list (``node_ids`` as Python objects).

    The backend's results are keyed by these labels, in vertex order.

    {Parameters: nx_backend_graph}

    Returns
    -------
    list
        ``labels[i]`` is vertex i's node (cached on a :class:`NetworkXGraph`).

    Examples
    --------
    >>> import networkx as nx
    >>> node_labels(from_networkx(nx.Graph([("a", "b")])))
    ['a', 'b']
    """
    labels = getattr(G, "_labels", None)
    if labels is None:
        labels = G.node_ids.tolist()
        if isinstance(G, NetworkXGraph):
            G._labels = labels
    return labels


@fill_doc
def node_index(G):
    """The vertex number of every networkx node.

    The inverse of :func:`node_labels`.

    {Parameters: nx_backend_graph}

    Returns
    -------
    dict
        node -> vertex number (cached on a :class:`NetworkXGraph`).

    Examples
    --------
    >>> import networkx as nx
    >>> node_index(from_networkx(nx.Graph([("a", "b")])))
    {'a': 0, 'b': 1}
    """
    index = getattr(G, "_index", None)
    if index is None:
        labels = node_labels(G)
        index = dict(zip(labels, range(len(labels))))
        if isinstance(G, NetworkXGraph):
            G._index = index
    return index


@fill_doc
def self_loops(G):
    """Which vertices had a self-loop in the networkx graph.

    The CSR itself never holds a self-loop; networkx's functions that count them read this.

    {Parameters: nx_backend_graph}

    Returns
    -------
    ndarray of uint8 of shape (n,)
        1 for a vertex with a self-loop (all 0 for a plain :class:`~graphmine.Graph`).

    Examples
    --------
    >>> import networkx as nx
    >>> self_loops(from_networkx(nx.Graph([(0, 1), (1, 1)]))).tolist()
    [0, 1]
    """
    loops = getattr(G, "loops", None)
    return np.zeros(G.n_nodes, np.uint8) if loops is None else loops


@fill_doc
def has_node(G, node):
    """``node in G`` with networkx's semantics (an unhashable object is simply not a node).

    Used where networkx accepts one node or an iterable of nodes for ``nodes``.

    {Parameters: nx_backend_graph}
    node : object
        Any object.

    Returns
    -------
    bool
        Whether ``node`` is a node of ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = from_networkx(nx.Graph([("a", "b")]))
    >>> has_node(G, "a"), has_node(G, ["a"])
    (True, False)
    """
    try:
        return node in node_index(G)
    except TypeError:
        return False


@fill_doc
def nbunch_indices(G, nbunch):
    """Vertex numbers of ``nbunch`` as networkx's ``G.nbunch_iter`` gives them.

    {Parameters: nx_backend_graph}
    nbunch : node, iterable of nodes or None
        None: every vertex; a node of G: that vertex; otherwise the members of the iterable
        that are nodes of G, in order (repeats kept).

    Returns
    -------
    ndarray of int64
        The vertex numbers.

    Raises
    ------
    networkx.NetworkXError
        ``nbunch`` is neither a node nor an iterable, or holds an unhashable object.

    Examples
    --------
    >>> import networkx as nx
    >>> G = from_networkx(nx.Graph([("a", "b"), ("b", "c")]))
    >>> nbunch_indices(G, ["c", "z", "a"]).tolist(), nbunch_indices(G, "b").tolist()
    ([2, 0], [1])
    """
    import networkx as nx

    if nbunch is None:
        return np.arange(G.n_nodes, dtype=np.int64)
    index = node_index(G)
    if has_node(G, nbunch):
        return np.array([index[nbunch]], dtype=np.int64)
    out = []
    try:
        for v in nbunch:
            i = index.get(v)
            if i is not None:
                out.append(i)
    except TypeError as err:
        message = err.args[0] if err.args else ""
        if "iter" in message:
            raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from None
        if "hashable" in message:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from None
        raise
    return np.array(out, dtype=np.int64)


def to_networkx(G):
    """The networkx graph of a :class:`~graphmine.Graph`: nodes ``node_ids`` (in vertex order),
    edges, and for a :class:`NetworkXGraph` its self-loops and graph attributes.

    Parameters
    ----------
    G : Graph or NetworkXGraph
        The graph.

    Returns
    -------
    networkx.Graph
        A new graph.

    Examples
    --------
    >>> import networkx as nx
    >>> H = to_networkx(from_networkx(nx.Graph([((0, 1), "x"), ("x", "x")])))
    >>> list(H.nodes), sorted(map(str, H.edges))
    ([(0, 1), 'x'], ["('x', 'x')", "((0, 1), 'x')"])
    """
    import networkx as nx

    labels = node_labels(G)
    H = nx.Graph()
    if isinstance(G, NetworkXGraph):
        H.graph.update(G.graph)
    H.add_nodes_from(labels)
    e = G.edges()
    if len(labels) and e.shape[0]:
        H.add_edges_from(zip(map(labels.__getitem__, e[:, 0].tolist()),
                             map(labels.__getitem__, e[:, 1].tolist())))
    loops = np.flatnonzero(self_loops(G)).tolist()
    H.add_edges_from((labels[i], labels[i]) for i in loops)
    return H
