r"""networkx's functions computed by graphmine, with networkx's signatures and results.

Every function takes a :class:`~graphmine.Graph` (the backend graph networkx hands over after
:func:`~graphmine.nx_backend.from_networkx`, or one the user built) or an undirected simple
networkx graph, and returns exactly what networkx returns: dicts keyed by the networkx nodes in
networkx's order, a plain number for a single node, generators of ``(u, v, score)`` for link
prediction, Python ints and floats (never numpy scalars). Self-loops are treated as networkx
treats them: ignored by the triangle family, counted in the degrees and neighbourhoods of the
link-prediction scores, and refused by ``core_number``.

``triangles``, ``clustering``, ``average_clustering`` and ``transitivity`` follow
``nx.config.backends.graphmine.method``: ``'exact'`` (default) or a sketch method of
:mod:`graphmine.probgraph` with ``budget`` and ``seed``, whose estimates are returned as plain
numbers (triangle counts rounded to integers).

.. math::

    c_v = \frac{2 T(v)}{d_v (d_v - 1)}, \qquad
    J(u, v) = \frac{|N(u) \cap N(v)|}{|N(u) \cup N(v)|}, \qquad
    AA(u, v) = \sum_{w \in N(u) \cap N(v)} \frac{1}{\log d_w}
"""

from .._runtime.docs import fill_doc, named
from operator import itemgetter

import numpy as np

from .._runtime.lazy import lazy_module
from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ConvergenceError
from ..core.graph import SERIAL_EDGES, Graph
from ..core.registry import call, implements
from ..cycles import square_counts
from .convert import (NetworkXGraph, from_networkx, has_node, nbunch_indices, node_index, node_labels,
                      none_only_reason, self_loops)


# the families and kernels are imported by the first function that uses them: a triangle count
# that numpy does (a fresh process, a moderate graph) then loads neither them nor numba
@lazy_module
def _centrality():
    from .. import centrality

    return centrality


@lazy_module
def _cliques():
    from .. import cliques

    return cliques


@lazy_module
def _maximal():
    from ..cliques import enumeration as clique_enumeration

    return clique_enumeration


@lazy_module
def _linkpred():
    from .. import link_prediction

    return link_prediction


@lazy_module
def _truss():
    from .. import truss

    return truss


@lazy_module
def _k():
    from . import _kernels

    return _kernels


__all__ = ["triangles", "clustering", "average_clustering", "transitivity", "square_clustering",
           "all_triangles", "jaccard_coefficient", "adamic_adar_index", "resource_allocation_index",
           "preferential_attachment", "common_neighbor_centrality", "core_number", "pagerank",
           "average_neighbor_degree", "find_cliques", "enumerate_all_cliques", "node_clique_number",
           "k_truss", "k_clique_communities"]

# pairs scored per kernel call when ebunch is None (all non-edges, produced lazily)
_BLOCK = 1 << 16


def _graph(G, name=None, **values):
    """The backend graph of ``G``; NotImplementedError (networkx then runs the call) when one of the
    ``values`` of a :data:`NONE_ONLY` argument of function ``name`` is not None."""
    reason = none_only_reason(name, values)
    if reason is not None:
        raise NotImplementedError(reason)
    return G if isinstance(G, Graph) else from_networkx(G)


def _settings():
    """(method, keywords for graphmine) from nx.config.backends.graphmine (defaults if absent)."""
    import networkx as nx

    cfg = nx.config.backends.get("graphmine") if "graphmine" in nx.config.backends else None
    if cfg is None:
        return "exact", {"threads": None}
    kw = {"threads": cfg.threads}
    if cfg.method != "exact":
        if cfg.budget is not None:
            kw["budget"] = cfg.budget
        kw["seed"] = cfg.seed
    return cfg.method, kw


def _approx(name, H, method, kw, **extra):
    """The sketch estimate of family ``name`` (the registry's 'sketch' back-end), as numbers."""
    return call(name, H, method=method, **extra, **kw).estimate


def _per_node(H, values, nodes):
    """networkx's result shape: dict over all nodes, one value for a node, dict over nbunch."""
    labels = node_labels(H)
    if nodes is None:
        return dict(zip(labels, values))
    if has_node(H, nodes):
        return values[node_index(H)[nodes]]
    return {labels[i]: values[i] for i in nbunch_indices(H, nodes).tolist()}


def _with_int_zeros(values, zero):
    """networkx writes 0 (an int) where a ratio is undefined or has a zero numerator."""
    out = values.tolist()
    for i in np.flatnonzero(zero).tolist():
        out[i] = 0
    return out


def _exact_triangles(H, threads):
    """The triangles through every vertex (exact; the family counts moderate work on numpy while
    numba is not imported)."""
    return _cliques.triangles(H, threads=threads)


def _triangle_counts(H, method, kw):
    if method == "exact":
        return _exact_triangles(H, kw["threads"])
    return np.rint(_approx("triangles", H, method, kw)).astype(np.int64)


@implements("triangles", "networkx", name="triangles",
            note=("Exact per-node counts over the degree order: vectorised numpy while numba is not "
                  "loaded and the graph is moderate (a fresh process imports no numba), else a "
                  "Numba kernel. Set ``nx.config.backends.graphmine.method`` (``'bloom'``, "
                  "``'khash'``, ``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a "
                  "sketch-based estimate; the default, ``'exact'``, is exact."))
@fill_doc
def triangles(G, nodes=None):
    """Triangles through each node, as ``networkx.triangles``.

    {Parameters: nx_G, nx_nodes}

    Returns
    -------
    dict of node to int, or int
        Triangles through each node (estimates rounded to ints under a sketch method).

    Examples
    --------
    >>> import networkx as nx
    >>> triangles(nx.complete_graph(4)), triangles(nx.complete_graph(4), 0)
    ({0: 3, 1: 3, 2: 3, 3: 3}, 3)
    """
    H = _graph(G)
    method, kw = _settings()
    return _per_node(H, _triangle_counts(H, method, kw).tolist(), nodes)


def _clustering_values(H, method, kw):
    if method != "exact":
        return np.asarray(_approx("clustering", H, method, kw), np.float64).tolist()
    tri = _exact_triangles(H, kw["threads"])
    d = H.degree
    pairs = d * (d - 1)
    c = np.zeros(H.n_nodes, np.float64)
    nz = tri > 0
    c[nz] = (2 * tri[nz]) / pairs[nz]
    return _with_int_zeros(c, ~nz)


@implements("clustering", "networkx", name="clustering",
            note=("Unweighted undirected clustering from exact triangle counts. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def clustering(G, nodes=None, weight=None):
    """Local clustering coefficients (unweighted, undirected), as ``networkx.clustering``.

    {Parameters: nx_G, nx_nodes, nx_weight}

    Returns
    -------
    dict of node to float, or float
        The coefficients, an int 0 where the node is on no triangle (as networkx writes it).

    Examples
    --------
    >>> import networkx as nx
    >>> clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 1.0, 1: 1.0, 2: 0.3333333333333333, 3: 0}
    """
    H = _graph(G, "clustering", weight=weight)
    method, kw = _settings()
    return _per_node(H, _clustering_values(H, method, kw), nodes)


@implements("average_clustering", "networkx", name="average_clustering",
            note=("Unweighted undirected average clustering. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """Mean local clustering coefficient, as ``networkx.average_clustering``.

    The mean is summed in node order, so it equals networkx's to the last bit.

    {Parameters: nx_G}
    nodes : iterable of nodes, optional
        Average over these nodes only (default: all).
    {nx_weight}
    count_zeros : bool, default True
        If False, average only over the nodes with a nonzero coefficient.

    Returns
    -------
    float
        The mean coefficient.

    Raises
    ------
    ZeroDivisionError
        No node to average over (an empty graph, or no nonzero coefficient with
        ``count_zeros=False``), as networkx raises.

    Examples
    --------
    >>> import networkx as nx
    >>> average_clustering(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    0.58333
    """
    H = _graph(G, "average_clustering", weight=weight)
    method, kw = _settings()
    if method != "exact" and nodes is None:
        return float(_approx("average_clustering", H, method, kw, count_zeros=count_zeros))
    c = clustering(H, nodes).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


@implements("transitivity", "networkx", name="transitivity",
            note=("Exact triangle count over the degree orientation. Set "
                  "``nx.config.backends.graphmine.method`` (``'bloom'``, ``'khash'``, "
                  "``'onehash'``, ``'kmv'``) with ``budget`` and ``seed`` for a sketch-based "
                  "estimate; the default, ``'exact'``, is exact."))
@fill_doc
def transitivity(G):
    """3 x triangles / connected triples, as ``networkx.transitivity`` (0 without triangles).

    {Parameters: nx_G}

    Returns
    -------
    float or int
        The transitivity, in [0, 1] (an int 0 without triangles, as networkx).

    Examples
    --------
    >>> import networkx as nx
    >>> transitivity(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    0.6
    """
    H = _graph(G)
    method, kw = _settings()
    if method != "exact":
        return float(_approx("transitivity", H, method, kw))
    T = _cliques.count_triangles(H, threads=kw["threads"])
    if T == 0:
        return 0
    d = H.degree
    # exact integers, one correctly rounded division: networkx's value to the last bit
    return 6 * T / int((d * (d - 1)).sum())


@implements("square_clustering", "networkx", name="square_clustering",
            note=("Exact, one compiled pass over the two-hop neighbourhoods."))
@restores_threads
@fill_doc
def square_clustering(G, nodes=None):
    """Squares clustering coefficient, as ``networkx.square_clustering``.

    .. math:: C_4(v) = \\frac{\\sum_{u < w \\in N(v)} q_v(u, w)}{\\sum_{u < w \\in N(v)} [a_v(u, w) + q_v(u, w)]}

    with :math:`q_v(u, w)` the common neighbours of u and w other than v and
    :math:`a_v(u, w)` networkx's count of the other neighbours of u and w.

    {Parameters: nx_G, nx_nodes}

    Returns
    -------
    dict of node to float, or float
        The coefficients, in [0, 1].

    Examples
    --------
    >>> import networkx as nx
    >>> square_clustering(nx.complete_bipartite_graph(2, 2))
    {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}
    """
    H = _graph(G)
    squares, potential = square_counts(H, threads=_settings()[1]["threads"])
    c = np.zeros(H.n_nodes, np.float64)
    pos = potential > 0
    c[pos] = squares[pos] / potential[pos]
    return _per_node(H, _with_int_zeros(c, ~pos), nodes)


@implements("list_triangles", "networkx", name="all_triangles",
            note=("Listed by a compiled kernel; the triangles (and each tuple) are those of "
                  "networkx, the order in which they are yielded may differ."))
@fill_doc
def all_triangles(G, nbunch=None):
    """Every triangle once as a tuple of three nodes, as ``networkx.all_triangles``.

    The nodes of a tuple come in networkx's order (node order; the members of ``nbunch`` first);
    the order in which the triangles are yielded may differ from networkx's.

    {Parameters: nx_G}
    nbunch : node or iterable of nodes, optional
        Only the triangles that contain one of these nodes (default: all triangles).

    Yields
    ------
    tuple of three nodes
        A triangle.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(all_triangles(nx.complete_graph(4)))
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    """
    H = _graph(G)
    labels = node_labels(H)
    if nbunch is not None:
        sel = np.array(list(dict.fromkeys(nbunch_indices(H, nbunch).tolist())), np.int64)
    O = H.oriented("degree")
    tri = _k._list_triangles(O.indptr, O.indices)
    if nbunch is not None:
        pos = np.full(H.n_nodes, -1, np.int64)
        pos[sel] = np.arange(sel.shape[0])
        tri = tri[(pos[tri] >= 0).any(axis=1)]
        key = np.where(pos[tri] >= 0, pos[tri], sel.shape[0] + tri)
        tri = np.take_along_axis(tri, np.argsort(key, axis=1, kind="stable"), axis=1)
    for a, b, c in tri.tolist():
        yield labels[a], labels[b], labels[c]


def _graph_without_self_loops(G):
    """The backend graph of ``G``; networkx's error of ``core_number`` and ``k_truss`` (which refuse
    self-loops) when it has one."""
    H = _graph(G)
    if self_loops(H).any():
        import networkx as nx

        raise nx.NetworkXNotImplemented("Input graph has self loops which is not permitted; "
                                        "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    return H


@implements("core_number", "networkx", name="core_number",
            note=("Bucket peeling (Matula-Beck) in a compiled kernel; undirected graphs."))
@fill_doc
def core_number(G):
    """Core number of every node, as ``networkx.core_number`` (self-loops refused likewise).

    {Parameters: nx_G}

    Returns
    -------
    dict of node to int
        The largest k such that the node lies in the k-core.

    {Raises: nx_self_loops_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> core_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 2, 1: 2, 2: 2, 3: 1}
    """
    H = _graph_without_self_loops(G)
    return dict(zip(node_labels(H), H.core_number().tolist()))


def _no_self_loops(H, name):
    if self_loops(H).any():
        # networkx counts a self-loop in the degree and as an edge to follow; graphmine's CSR has none
        raise NotImplementedError(f"graphmine's {name} is for graphs without self-loops")


@implements("pagerank", "networkx", name="pagerank",
            note=("networkx's power iteration and stopping rule, the neighbourhood sums in a "
                  "compiled kernel. Undirected graphs without edge weights or self-loops, no "
                  "personalization or dangling vectors; the others run in networkx."))
@fill_doc
def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None):
    """PageRank of every node, as ``networkx.pagerank`` on an undirected unweighted graph.

    The same power iteration and stopping rule as networkx (L1 change below ``n * tol``, raising
    ``PowerIterationFailedConvergence`` after ``max_iter`` iterations); ``personalization`` and
    ``dangling`` vectors, edge weights and self-loops are left to networkx (the backend's
    ``can_run`` declines them).

    {Parameters: nx_G}
    alpha : float, default 0.85
        Damping factor.
    personalization : None
        Not supported (networkx runs calls with one).
    max_iter : int, default 100
        Most power iterations.
    tol : float, default 1e-6
        Stop when the L1 change is below ``n * tol``.
    nstart : dict of node to float, optional
        Starting values (normalised; default uniform).
    weight : str, default 'weight'
        Ignored on a graph without edge weights (the backend declines weighted graphs).
    dangling : None
        Not supported.

    Returns
    -------
    dict of node to float
        The PageRank of each node; the values sum to 1.

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        No convergence within ``max_iter`` iterations.

    Examples
    --------
    >>> import networkx as nx
    >>> {v: round(p, 4) for v, p in pagerank(nx.star_graph(3)).items()}
    {0: 0.4797, 1: 0.1734, 2: 0.1734, 3: 0.1734}
    """
    import networkx as nx

    H = _graph(G, "pagerank", personalization=personalization, dangling=dangling)
    _no_self_loops(H, "pagerank")
    labels = node_labels(H)
    n = H.n_nodes
    if n == 0:
        return {}
    x0 = None
    if nstart is not None:
        x0 = np.array([nstart.get(v, 0) for v in labels], dtype=np.float64)
    try:
        x = _centrality.pagerank(H, alpha, tol=n * tol, max_iter=max_iter, nstart=x0,
                                 threads=_settings()[1]["threads"])
    except ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return dict(zip(labels, x.tolist()))


@implements("average_neighbor_degree", "networkx", name="average_neighbor_degree",
            note=("Exact neighbour-degree sums in a compiled kernel. Undirected graphs without edge "
                  "weights or self-loops; the others run in networkx."))
@fill_doc
def average_neighbor_degree(G, source="out", target="out", nodes=None, weight=None):
    """Average degree of each node's neighbours, as ``networkx.average_neighbor_degree`` on an
    undirected unweighted graph (the same correctly rounded quotients).

    {Parameters: nx_G}
    source, target : {'out'}
        Directions of directed graphs; only 'out' (networkx's default) is accepted.
    {nx_nodes, nx_weight}

    Returns
    -------
    dict of node to float
        The mean degree of each node's neighbours (0.0 for an isolated node).

    Raises
    ------
    networkx.NetworkXError
        ``source`` or ``target`` other than 'out'.

    Examples
    --------
    >>> import networkx as nx
    >>> average_neighbor_degree(nx.path_graph(4))
    {0: 2.0, 1: 1.5, 2: 1.5, 3: 2.0}
    """
    import networkx as nx

    if source != "out" or target != "out":
        raise nx.NetworkXError("source and target arguments are only supported for directed graphs")
    H = _graph(G)
    _no_self_loops(H, "average_neighbor_degree")
    values = _centrality.average_neighbor_degree(H, threads=_settings()[1]["threads"]).tolist()
    labels = node_labels(H)
    if nodes is None:
        return dict(zip(labels, values))
    if has_node(H, nodes):  # networkx iterates G.degree(nodes), which is a number for one node
        raise NotImplementedError("average_neighbor_degree of one node is left to networkx")
    return {labels[i]: values[i] for i in nbunch_indices(H, nodes).tolist()}


# -- link prediction ---------------------------------------------------------------------------

def _ebunch_vertices(H, ebunch):
    """(first nodes, second nodes, u vertices, v vertices) of the pairs, raising networkx's
    errors (NodeNotFound, in networkx's order; ValueError for a pair of another length)."""
    import networkx as nx

    index = node_index(H)
    pairs = list(ebunch)
    try:
        if pairs and set(map(len, pairs)) != {2}:
            raise TypeError
        # (not zip(*pairs): one call with P arguments and P iterators, slow under the garbage
        # collector when the heap holds a large networkx graph)
        first = list(map(itemgetter(0), pairs))
        second = list(map(itemgetter(1), pairs))
        us = np.fromiter(map(index.__getitem__, first), np.int64, count=len(pairs))
        vs = np.fromiter(map(index.__getitem__, second), np.int64, count=len(pairs))
        return first, second, us, vs
    except (TypeError, KeyError):
        pass  # an odd pair or a missing node: walk the pairs as networkx does, for its error
    for u, v in pairs:
        for node in (u, v):
            try:
                index[node]
            except (KeyError, TypeError):
                raise nx.NodeNotFound(f"Node {node} not in G.") from None
    raise AssertionError("unreachable: every pair was valid")


def _vertex_terms(H, kind):
    """(self-loops, networkx's degrees, per-vertex weight of a common neighbour) for ``kind``,
    computed once per call rather than once per block of pairs."""
    loops = self_loops(H)
    nxdeg = H.degree + 2 * loops.astype(np.int64)  # networkx counts a self-loop twice in the degree
    weight = np.zeros(H.n_nodes, np.float64)
    many = nxdeg > 1  # a common neighbour of u != v has degree >= 2
    if kind == "adamic_adar_index":
        weight[many] = 1.0 / np.log(nxdeg[many])
    elif kind == "resource_allocation_index":
        weight[many] = 1.0 / nxdeg[many]
    return loops, nxdeg, weight


def _score_values(H, us, vs, kind, nthreads, terms):
    """networkx's values for vertex pairs: Python floats, ints where networkx gives ints."""
    loops, nxdeg, weight = terms
    d = H.degree
    if kind == "preferential_attachment":
        return (nxdeg[us] * nxdeg[vs]).tolist()
    same = us == vs
    val = np.empty(us.shape[0], np.float64)
    # networkx returns 0 (an int) for an empty sum (AA, RA) and for an empty union (Jaccard)
    int_zero = np.zeros(us.shape[0], bool)
    diff = np.flatnonzero(~same)
    if diff.size:
        u, v = np.ascontiguousarray(us[diff]), np.ascontiguousarray(vs[diff])
        weighted = kind != "jaccard_coefficient"
        if nthreads == 1 or diff.size * 16 < SERIAL_EDGES:
            cn, wsum = _k._pairs_serial(H.indptr, H.indices, u, v, weight, weighted)
        else:
            cn, wsum = _k._pairs_parallel(H.indptr, H.indices, u, v, weight, weighted, nthreads)
        if kind == "jaccard_coefficient":
            union = d[u] + d[v] - cn
            looped = np.flatnonzero(loops[u] | loops[v])
            if looped.size:
                # N(u) with the self-loop counts u itself, unless u is already a neighbour of v
                apart = 1 - _k._adjacent(H.indptr, H.indices, u[looped], v[looped]).astype(np.int64)
                union[looped] += (loops[u[looped]] + loops[v[looped]]) * apart
            val[diff] = np.divide(cn, union, out=np.zeros(diff.size), where=union > 0)
            int_zero[diff] = union == 0
        else:
            val[diff] = wsum
            int_zero[diff] = cn == 0
    for i in np.flatnonzero(same).tolist():
        # a node with itself: the common neighbours are N(u) (networkx removes u and v)
        u = us[i]
        nbrs = H.indices[H.indptr[u]:H.indptr[u + 1]]
        if kind == "jaccard_coefficient":
            union = nbrs.shape[0] + int(loops[u])
            val[i] = nbrs.shape[0] / union if union else 0.0
            int_zero[i] = union == 0
            continue
        int_zero[i] = nbrs.shape[0] == 0
        if kind == "adamic_adar_index":
            w = nxdeg[nbrs]
            if np.any(w == 1):
                # networkx divides by log(1) = 0 here
                raise ZeroDivisionError("float division by zero")
            val[i] = float(np.sum(1.0 / np.log(w)))
        else:
            val[i] = float(np.sum(1.0 / nxdeg[nbrs]))
    return _with_int_zeros(val, int_zero)


def _non_edge_blocks(H):
    """All vertex pairs i < j that are not edges, in blocks of about _BLOCK pairs."""
    n = H.n_nodes
    us, vs, size = [], [], 0
    for i in range(n - 1):
        nb = H.indices[H.indptr[i]:H.indptr[i + 1]]
        free = np.ones(n - i - 1, bool)
        free[nb[nb > i] - (i + 1)] = False
        js = np.flatnonzero(free) + (i + 1)
        if js.size:
            us.append(np.full(js.size, i, np.int64))
            vs.append(js)
            size += js.size
        if size >= _BLOCK or (i == n - 2 and size):
            yield np.concatenate(us), np.concatenate(vs)
            us, vs, size = [], [], 0


@restores_threads
def _link_prediction(G, ebunch, kind):
    H = _graph(G)
    nthreads = resolve_threads(_settings()[1]["threads"])
    labels = node_labels(H)
    terms = _vertex_terms(H, kind)
    if ebunch is None:
        return ((labels[u], labels[v], s)
                for us, vs in _non_edge_blocks(H)
                for u, v, s in zip(us.tolist(), vs.tolist(),
                                   _score_values(H, us, vs, kind, nthreads, terms)))
    first, second, us, vs = _ebunch_vertices(H, ebunch)
    # the pairs' own objects, as networkx yields them (a lazy iterator of tuples, like networkx's)
    return zip(first, second, _score_values(H, us, vs, kind, nthreads, terms))


@implements("common_neighbor_centrality", "networkx", name="common_neighbor_centrality",
            note=("Common neighbours in a parallel kernel, distances by scipy's breadth-first "
                  "shortest paths from the pairs' first nodes. Undirected graphs without weights; "
                  "directed graphs, multigraphs and weights run in networkx."))
@fill_doc
def common_neighbor_centrality(G, ebunch=None, alpha=0.8):
    """Common-neighbour and centrality (CCPA) score of node pairs, as
    ``networkx.common_neighbor_centrality`` (:func:`graphmine.link_prediction._cpu.common_neighbor_centrality`).

    .. math:: s(u, v) = \\alpha |N(u) \\cap N(v)| + (1 - \\alpha) \\frac{n}{d(u, v)}

    with :math:`d(u, v)` the shortest-path distance.

    {Parameters: nx_G, nx_ebunch}
    alpha : float, default 0.8
        Weight of the common neighbours against the distance term, in [0, 1].

    Returns
    -------
    iterator of (u, v, float)
        One ``(u, v, score)`` tuple per pair, as networkx yields them.

    Raises
    ------
    networkx.NetworkXAlgorithmError
        The graph has self-loops.

    Examples
    --------
    >>> import networkx as nx
    >>> [(u, v, round(p, 6)) for u, v, p in common_neighbor_centrality(nx.complete_graph(5), [(0, 1)])]
    [(0, 1, 3.4)]
    """
    H = _graph(G)
    labels = node_labels(H)
    if ebunch is None:
        us, vs = _linkpred.non_edges(H)
        first = [labels[u] for u in us.tolist()]
        second = [labels[v] for v in vs.tolist()]
    else:
        first, second, us, vs = _ebunch_vertices(H, ebunch)
    loop = np.flatnonzero(us == vs)
    stop = int(loop[0]) if loop.size else us.shape[0]
    _, _, scores = _linkpred.common_neighbor_centrality(H, np.stack([us[:stop], vs[:stop]], axis=1).reshape(-1, 2),
                                                        alpha=alpha, threads=_settings()[1]["threads"])
    values = scores.astype(np.int64).tolist() if alpha == 1 else scores.tolist()

    def pairs():
        yield from zip(first[:stop], second[:stop], values)
        if stop < len(first):
            import networkx as nx

            raise nx.NetworkXAlgorithmError("Self loops are not supported")
    return pairs()


# networkx's neighbourhood scores that _link_prediction computes, one function each: its name, what
# it is, s(u, v) and an example (a call on a small graph and its result); every other line of the
# docstring is the same for the four (_LINK_SCORE_DOC)
_LINK_SCORE_DOC = """{what} of node pairs, as ``networkx.{name}``.

    .. math:: s(u, v) = {formula}

    {{nx_link_sections}}

    Examples
    --------
    >>> import networkx as nx
    >>> {example}
    {result}
    """


def _link_score_function(name, what, formula, example, result):
    """The backend's function ``name``: networkx's signature ``(G, ebunch=None)``, its name and
    qualified name (networkx's backend interface and doctest find it by them; its module is this
    one) and the filled :data:`_LINK_SCORE_DOC`."""
    def score(G, ebunch=None):
        return _link_prediction(G, ebunch, name)

    return named(score, name, _LINK_SCORE_DOC.format(name=name, what=what, formula=formula, example=example,
                                                     result=result))


# what the networkx backend says of the three merged-neighbour-list scores
_MERGED_ROWS = ("Merged sorted neighbour lists in a parallel kernel. Undirected graphs without weights; "
                "directed graphs, multigraphs and weights run in networkx.")

jaccard_coefficient = _link_score_function(
    "jaccard_coefficient", "Jaccard coefficient", r"\frac{|N(u) \cap N(v)|}{|N(u) \cup N(v)|}",
    "list(jaccard_coefficient(nx.cycle_graph(4), [(0, 2), (1, 3)]))", "[(0, 2, 1.0), (1, 3, 1.0)]")
adamic_adar_index = _link_score_function(
    "adamic_adar_index", "Adamic-Adar index", r"\sum_{w \in N(u) \cap N(v)} \frac{1}{\log d_w}",
    "[(u, v, round(p, 6)) for u, v, p in adamic_adar_index(nx.complete_graph(5), [(0, 1)])]", "[(0, 1, 2.164043)]")
resource_allocation_index = _link_score_function(
    "resource_allocation_index", "Resource allocation index", r"\sum_{w \in N(u) \cap N(v)} \frac{1}{d_w}",
    "list(resource_allocation_index(nx.complete_graph(5), [(0, 1)]))", "[(0, 1, 0.75)]")
preferential_attachment = _link_score_function(
    "preferential_attachment", "Degree product", "d_u d_v",
    "list(preferential_attachment(nx.star_graph(3), [(1, 2), (0, 1)]))", "[(1, 2, 1), (0, 1, 3)]")

implements("link_scores", "networkx", name="jaccard_coefficient", note=_MERGED_ROWS)(jaccard_coefficient)
implements("link_scores", "networkx", name="adamic_adar_index", note=_MERGED_ROWS)(adamic_adar_index)
implements("link_scores", "networkx", name="resource_allocation_index", note=_MERGED_ROWS)(resource_allocation_index)
implements("link_scores", "networkx", name="preferential_attachment",
           note=("Degree products, vectorised. Undirected graphs without weights; directed graphs, "
                 "multigraphs and weights run in networkx."))(preferential_attachment)


# -- cliques and trusses -------------------------------------------------------------------------

def _identity_labels(H):
    """Whether the networkx nodes are the vertex numbers 0..n-1 themselves (then cliques of vertex
    numbers are cliques of nodes, without a look-up per member)."""
    ids = H.node_ids
    return ids.dtype.kind in "iu" and np.array_equal(ids, np.arange(ids.shape[0]))


def _object_labels(H):
    """The networkx node of every vertex in an object array (cached on a backend graph)."""
    labels = getattr(H, "_object_labels", None)
    if labels is None:
        ids = H.node_ids
        labels = ids if ids.dtype == object else np.fromiter(node_labels(H), object, ids.shape[0])
        if isinstance(H, NetworkXGraph):
            H._object_labels = labels
    return labels


@implements("maximal_cliques", "networkx", name="find_cliques",
            note=("Bron-Kerbosch with pivoting on the degeneracy order in a compiled kernel, in "
                  "batches (memory bounded by one search's candidate sets); without ``nodes``. The "
                  "cliques are those of networkx, their order (and the order within one) may "
                  "differ."))
@fill_doc
def find_cliques(G, nodes=None):
    """Every maximal clique once, as ``networkx.find_cliques``: an iterator of lists of nodes
    from a compiled, parallel Bron-Kerbosch search in bounded batches, one batch ahead in a
    helper thread; the order of the cliques and within them differs.

    {Parameters: nx_G}
    nodes : list of nodes, optional
        Only the maximal cliques containing all of these nodes (searched in the subgraph on
        their common neighbours); ValueError, as networkx, when they do not form a clique.

    Yields
    ------
    list of nodes
        A maximal clique.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, find_cliques(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))))
    [[0, 1, 2], [2, 3]]
    """
    H = _graph(G)
    if nodes is not None and len(nodes):
        if H.n_nodes == 0:  # networkx yields nothing for an empty graph, whatever the nodes
            return iter(())
        index = node_index(H)
        if any(u not in index for u in nodes):
            raise ValueError(f"The given `nodes` {nodes} do not form a clique")
        nodes = [index[u] for u in nodes]
    return _maximal.maximal_cliques(H, nodes=nodes, threads=_settings()[1]["threads"], labels=_object_labels(H))


@implements("enumerate_cliques", "networkx", name="enumerate_all_cliques",
            note=("Compiled k-clique listing, one size after the other; the order within a size may "
                  "differ."))
@fill_doc
def enumerate_all_cliques(G):
    """Every clique by increasing size, as ``networkx.enumerate_all_cliques`` (the order within a
    size differs).

    {Parameters: nx_G}

    Yields
    ------
    list of nodes
        A clique; sizes 1, 2, 3, ... in turn.

    Examples
    --------
    The cliques hold networkx's nodes, whatever they are:

    >>> import networkx as nx
    >>> list(enumerate_all_cliques(nx.Graph([("a", "b"), ("b", "c"), ("c", "a")])))
    [['a'], ['b'], ['c'], ['a', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c']]
    """
    H = _graph(G)
    if _identity_labels(H):
        yield from _maximal.enumerate_cliques(H)
        return
    labels = node_labels(H)
    for clique in _maximal.enumerate_cliques(H):
        yield [labels[v] for v in clique]


@implements("node_clique_number", "networkx", name="node_clique_number",
            note=("From a compiled maximal-clique search; without ``cliques``."))
@fill_doc
def node_clique_number(G, nodes=None, cliques=None, separate_nodes=False):
    """The size of the largest maximal clique containing each node, as
    ``networkx.node_clique_number`` (without ``cliques``).

    {Parameters: nx_G, nx_nodes, nx_cliques}
    separate_nodes : bool, default False
        Ignored, as networkx ignores it without ``cliques``.

    Returns
    -------
    dict of node to int, or int
        The size of the largest clique containing each node.

    Examples
    --------
    >>> import networkx as nx
    >>> node_clique_number(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]))
    {0: 3, 1: 3, 2: 3, 3: 2}
    """
    H = _graph(G, "node_clique_number", cliques=cliques)
    values = _maximal.node_clique_number(H, threads=_settings()[1]["threads"]).tolist()
    return _per_node(H, values, nodes)


@implements("k_truss", "networkx", name="k_truss",
            note=("Edge supports by a parallel compiled kernel, then bucket peeling; graphs without "
                  "edge or node attributes."))
@fill_doc
def k_truss(G, k):
    """The k-truss, as ``networkx.k_truss`` (self-loops refused likewise): the subgraph on the
    edges that lie on at least k - 2 of its triangles, without isolated nodes, as a backend graph
    (networkx converts it back).

    {Parameters: nx_G}
    k : int
        The truss order; edges on at least k - 2 triangles remain.

    Returns
    -------
    NetworkXGraph
        The k-truss, with the original node labels.

    {Raises: nx_self_loops_raises}

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.nx_backend import to_networkx
    >>> sorted(to_networkx(k_truss(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)).edges)
    [(0, 1), (0, 2), (1, 2)]
    """
    H = _graph_without_self_loops(G)
    T = _truss.k_truss(H, k, threads=_settings()[1]["threads"])
    graph_attrs = dict(H.graph) if isinstance(H, NetworkXGraph) else {}
    return NetworkXGraph(T.indptr, T.indices, T.node_ids, np.zeros(T.n_nodes, np.uint8), graph_attrs,
                         {"input_edges": T.n_edges, "self_loops": 0, "duplicates": 0})


@implements("clique_communities", "networkx", name="k_clique_communities",
            note=("Clique percolation over the maximal cliques with a compiled union-find; without "
                  "``cliques``. The communities are those of networkx, their order may differ."))
@fill_doc
def k_clique_communities(G, k, cliques=None):
    """The k-clique communities, as ``networkx``'s ``k_clique_communities`` (without ``cliques``):
    a generator of frozensets of nodes, by clique percolation over the maximal cliques in a
    compiled union-find (the order of the communities differs).

    {Parameters: nx_G}
    k : int
        Clique size, >= 2.
    {nx_cliques}

    Yields
    ------
    frozenset of nodes
        A community: the union of k-cliques that share k - 1 nodes pairwise along a chain.

    Raises
    ------
    networkx.NetworkXError
        ``k`` < 2.

    Examples
    --------
    >>> import networkx as nx
    >>> sorted(map(sorted, k_clique_communities(nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)]), 3)))
    [[0, 1, 2]]
    """
    import networkx as nx

    H = _graph(G, "k_clique_communities", cliques=cliques)
    if k < 2:
        raise nx.NetworkXError(f"k={k}, k must be greater than 1.")
    groups = _maximal.clique_communities(H, k)
    if _identity_labels(H):
        yield from (frozenset(g.tolist()) for g in groups)
        return
    labels = node_labels(H)
    for g in groups:
        yield frozenset(labels[v] for v in g.tolist())
